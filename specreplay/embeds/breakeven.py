"""The break-even map as an exported chart: a llama.cpp drafter's measured speedup over its target alone at set
acceptance lengths × concurrency (specreplay.explain.panels.CPU_BREAKEVEN), a target, a metric
and a level to read where it passes 1.0 — the concurrency page's break-even map, its rows and caveats from the one
spec both draw (specreplay.charts.breakeven)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from specreplay.charts import breakeven
from specreplay.embeds.document import Chart
from specreplay.embeds.words import say
from specreplay.languages import Lang
from specreplay.recording.format import Recording
from specreplay.words import arm_label

# The controls' names: the app's URL (and session state) keys, so a link's state opens the chart in it.
STATE = ("be_target", "be_metric", "be_level")


def chart(lang: Lang) -> Chart:
    T, W = say("concurrency", lang), say("embeds", lang)
    got, grids = breakeven.recording()
    if not isinstance(got, Recording):  # not there, or its loader's one line
        raise LookupError(T("be_empty") if got is None else got)
    if not grids:  # a header-only file: arms, no finished level
        raise LookupError(T("be_nothing", file=Path(got.path).name))
    data: dict[str, Any] = {}
    for g in grids:
        views = {m: breakeven.view(got, g, m, lang) for m in breakeven.METRICS}
        # a cell an engine's artefact produced stays uncoloured, as on the page; a caveat names it
        data[g.target] = {"lengths": g.lengths, "levels": g.levels, **{m: v.z for m, v in views.items()},
                          "rows": {m: v.rows for m, v in views.items()},
                          "caveats": [c.text for c in views["throughput"].caveats]}
    levels = sorted({lv for g in grids for lv in g.levels})
    controls: list[dict[str, Any]] = [{"name": "be_target", "label": T("be_target"), "kind": "select", "options": [[g.target, g.target] for g in grids]},
                {"name": "be_metric", "label": T("metric"), "kind": "select",
                 "options": [["throughput", T("metric_throughput")], ["decode", T("metric_decode")]]},
                {"name": "be_level", "label": W("be_level"), "kind": "steps", "options": levels}]
    words = {"title": T("be_q", target="{be_target}"), "x": T("be_x"), "y": T("be_y"), "at": W("at_level", level="{be_level}")}
    sources: list[tuple[str, str]] = [
        (got.kind(), f"{T('be_badge')} · recordings/{Path(got.path).name} · {got.machine_line} · {got.header.date}")]
    sources += [(got.kind(a), line) for g in grids for a, line in
                ((g.target, f"{g.target} · {arm_label(got.arm(g.target).label, lang)}"),
                 *zip(g.arms, breakeven.view(got, g, "throughput", lang).sources))]
    return Chart("breakeven", T("be_title"), T("be_intro"), controls,
                 {"be_target": grids[0].target, "be_metric": "throughput", "be_level": levels[0]},
                 {"grids": data, "words": words}, sources,
                 notes=[(got.kind(), breakeven.view(got, grids[0], "throughput", lang).badge)])
