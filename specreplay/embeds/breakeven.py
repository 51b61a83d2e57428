"""The break-even map as an exported chart: a llama.cpp drafter's measured speedup over its target alone at set
acceptance lengths × concurrency (recordings/qwen-coder-1.5b-llamacpp-cpu-breakeven.jsonl), a target, a metric
and a level to read where it passes 1.0 — the concurrency page's break-even map."""

from __future__ import annotations

from typing import Any

from specreplay import breakeven, llamacpp_files
from specreplay.embeds.document import Chart
from specreplay.embeds.words import Say, say
from specreplay.languages import Lang
from specreplay.recording import catalogue
from specreplay.recording.format import Recording
from specreplay.words import arm_label

METRICS = ("throughput", "decode")
# The controls' names: the app's URL (and session state) keys, so a link's state opens the chart in it.
STATE = ("be_target", "be_metric", "be_level")


def _rows(g: breakeven.Grid, metric: str, T: Say) -> dict[int, str]:
    """Per level, where the drafter passes 1.0 along the set lengths (read between measured cells only)."""
    z = g.throughput if metric == "throughput" else g.decode
    out = {}
    for j, lv in enumerate(g.levels):
        col = [v for row in z if (v := row[j]) is not None]
        cross = g.break_even_length(lv, metric)
        out[lv] = (T("be_row", level=lv, a=cross[0], b=cross[1]) if cross else
                   T("be_row_always", level=lv) if col and min(col) >= 1 else
                   T("be_row_never", level=lv, lengths=", ".join(f"{L:g}" for L in g.lengths)))
    return out


def chart(lang: Lang) -> Chart:
    T, W = say("concurrency", lang), say("embeds", lang)
    got = catalogue.read(llamacpp_files.BREAKEVEN)
    grids = breakeven.breakeven_grids(got) if isinstance(got, Recording) else []
    if not isinstance(got, Recording) or not grids:
        raise LookupError(T("be_empty", file=llamacpp_files.BREAKEVEN) if got is None or not grids else str(got))
    data: dict[str, Any] = {g.target: {"lengths": g.lengths, "levels": g.levels, "throughput": g.throughput,
                                       "decode": g.decode, "rows": {m: _rows(g, m, T) for m in METRICS}}
                            for g in grids}
    levels = sorted({lv for g in grids for lv in g.levels})
    controls: list[dict[str, Any]] = [{"name": "be_target", "label": T("be_target"), "kind": "select", "options": [[g.target, g.target] for g in grids]},
                {"name": "be_metric", "label": T("metric"), "kind": "select",
                 "options": [["throughput", T("metric_throughput")], ["decode", T("metric_decode")]]},
                {"name": "be_level", "label": W("be_level"), "kind": "steps", "options": levels}]
    words = {"title": T("be_q", target="{be_target}"), "x": T("be_x"), "y": T("be_y"), "at": W("at_level", level="{be_level}")}
    arms = {a.id: a for a in got.arms}
    sources: list[tuple[str, str]] = [(got.kind(), f"{T('be_badge')} · recordings/{llamacpp_files.BREAKEVEN} · {got.machine_line} · {got.header.date}")]
    sources += [(got.kind(a), f"{a} · {arm_label(arms[a].label, lang)}") for g in grids for a in (g.target, *g.arms)]
    return Chart("breakeven", T("be_title"), T("be_intro"), controls,
                 {"be_target": grids[0].target, "be_metric": "throughput", "be_level": levels[0]},
                 {"grids": data, "words": words}, sources,
                 notes=[(got.kind(), f"{T('be_badge')} · {llamacpp_files.BREAKEVEN} · {got.machine_line}"),
                        (got.kind(), T("cav_throughput"))])
