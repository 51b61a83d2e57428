"""The concurrency chart as an exported chart: a multiplier (speculative on ÷ off, or 4-bit ÷ 16-bit), a source
(articles 001, 004, 002, our H200 and CPU recordings), a metric, and the level slider over the measured curves,
with each series' value at the level and where it crosses 1.0 — the concurrency page's chart and its readout.

Every source's series travel in the file; the browser picks the chosen one. Unmeasured levels stay gaps (a line
across one is dotted), levels measured but not like-for-like are hollow dots, nothing is interpolated."""

from __future__ import annotations

from typing import Any

from specreplay import axis_series, h200_qwen_files, llamacpp_files, palette, quant_series, sweep_series
from specreplay.articles import articles, cite
from specreplay.embeds.document import Chart
from specreplay.embeds.words import Say, say
from specreplay.languages import Lang, localized
from specreplay.locations import recording_file
from specreplay.multiplier import times
from specreplay.recording import catalogue
from specreplay.recording.format import RecordingError
from specreplay.timing_sweep import TIMING_FILE
from specreplay.words import arm_label, word

LEVELS = [1, 2, 4, 8, 16, 32, 64]
MAX_SERIES = 6
SOURCES = {"spec": ("001", "004", "gpu", "cpu"), "quant": ("002", "gpu", "cpu")}
METRICS = ("throughput", "decode")
# The controls' names: the app's URL (and session state) keys, so a link's state opens the chart in it.
STATE = ("family", "source", "metric", "level")


def _recorded_q4(name: str) -> list[axis_series.Series]:
    """Q4_K_M ÷ its 16-bit copy from the llama.cpp sweep or the Qwen H200 one; [] when the file is absent or bad."""
    path = recording_file(name)
    try:
        rec = catalogue.recording(path) if path.exists() else None
    except (RecordingError, OSError):
        return []
    if rec is None:
        return []
    return (quant_series.llamacpp_series if name == llamacpp_files.SWEEP else quant_series.h200_series)(rec, name)


def _chosen(family: str, source: str, metric: str, T: Say, lang: Lang) -> tuple[list[axis_series.Series], str, list[str]]:
    """The source's series for the metric, the chart's question and its caveats (the page's choice)."""
    f16 = word("f16_note", lang)
    if (family, source) == ("spec", "001"):
        return axis_series.series("concurrency_speedup", "speedup"), T("q_001"), []
    if (family, source) == ("spec", "004"):
        return axis_series.series("batch_speedup", "speedup"), T("q_004"), [T("cav_004")]
    if family == "spec":
        shown = [s for s in sweep_series.recorded_sweeps()[0] if s.family == source and s.metric == metric]
        caveats = [T("cav_sampled")] if any("sampled" in s.short for s in shown) else []
        caveats += [f16] if any("llama" in s.short for s in shown) else []
        caveats += [T("cav_qwen_h200_spec")] if any(s.source == h200_qwen_files.SWEEP for s in shown) else []
        caveats += [T("cav_throughput")] if metric == "throughput" else []
        return shown, T("q_gpu_spec" if source == "gpu" else "q_cpu_spec"), caveats
    if source == "002":
        return ([s for s in axis_series.series("h200_relative_throughput", "relative_throughput")
                 if "baseline" not in s.key], T("q_002"), [T("cav_002")])
    if source == "gpu":
        try:
            timing = quant_series.timing_series(catalogue.recording(TIMING_FILE))
        except (RecordingError, OSError):
            timing = []
        qwen = [s for s in _recorded_q4(h200_qwen_files.SWEEP) if s.metric == "throughput"]
        return timing + qwen, T("q_gpu_quant"), [T("cav_timing")] * bool(timing) + [T("cav_qwen_h200_quant")] * bool(qwen)
    return [s for s in _recorded_q4(llamacpp_files.SWEEP) if s.metric == metric], T("q_cpu_quant"), [f16]


def _style(family: str, source: str, s: axis_series.Series, i: int) -> tuple[str, str]:
    """The page's colours: a family per source; weight formats in the roofline colours, 8B / AWQ rows dashed."""
    if family == "spec":
        return palette.series(i), "solid"
    key = s.key.lower()
    if key.startswith(("llamacpp/", "qwen-h200/")):
        return palette.FORMATS["q4"], "solid"
    fmt = "int4" if ("int4" in key or "w4a16" in key) else "fp8"
    return palette.FORMATS[fmt], "dash" if "_8b_" in key or ("awq" in key and "70b" not in key) else "solid"


def _at(s: axis_series.Series, level: int, T: Say) -> str:
    if s.axis == "concurrency":
        return T("at_c1") if level == 1 else T("at_c", level=level)
    return T("at_b", level=level)


def _reading(s: axis_series.Series, level: int, T: Say, M: Say) -> str:
    """The series at one level: its value, measured but excluded, an empty cell, or a level its source lacks."""
    v = s.value_at(level)
    excluded, value = s.excluded_at(level)
    if v is not None:
        return times(v)
    if marked := s.marked_at(level):
        return T("marked_reading", v=times(marked[1]), what=M(marked[0]))
    if excluded:
        return T("excluded_reading", v=times(value))
    return T("not_quoted", src=s.source[:3]) if s.kind == "quoted" and level not in dict(s.points) else T("not_measured")


def _below(s: axis_series.Series, grid: list[int], T: Say, W: Say, M: Say) -> str:
    """Where the series first goes below 1.0, between two measured levels (never interpolated)."""
    c = axis_series.crossing(s.points, grid)
    marked = "".join(T("marked_note", what=M(why), got=", ".join(f"{_at(s, lv, T)} {times(v)}" for lv, v, w in s.marked
                                                                if w == why))
                     for why in dict.fromkeys(w for _, _, w in s.marked))
    if c is None:
        return (W("not_below_any") if s.measured() else T("no_level")) + marked
    if c.above is None:
        return T("already_below", at=_at(s, c.below, T), v=times(c.value))
    between = T("between_c" if s.axis == "concurrency" else "between_b", a=c.above, b=c.below)
    text = T("falls_below", between=between, a=times(c.above_value), b=times(c.value))
    return text + (T("unknown_where", levels=", ".join(map(str, c.unmeasured))) if c.unmeasured else "")


def _lines(s: axis_series.Series, name: str, colour: str, dash: str, grid: list[int], T: Say,
           M: Say) -> list[dict[str, Any]]:
    """The series for live_chart.js: dots and solid lines between neighbouring measured levels, a thin dotted
    piece across levels it did not measure, hollow dots for excluded levels, and hollow dashed ones for an engine's artefacts."""
    pieces = axis_series.segments(s.points, grid)
    gaps = {lv for _, _, skipped in pieces for lv in skipped} - set(dict(s.points))
    main = {"name": name, "color": colour, "dash": dash, "markers": True, "unit": "×", "hover": s.provenance(),
            "points": [[x, y] for x, y in sorted([*s.points, *((lv, None) for lv in gaps)])]}
    dotted = [{"name": name, "color": colour, "dash": "dot", "width": 1, "legend": False, "points": [[x0, y0], [x1, y1]],
               "hover": T("gap_note", a=x0, b=x1, levels=", ".join(map(str, skipped)))}
              for (x0, x1), (y0, y1), skipped in pieces if skipped]
    hollow = [{"name": name, "color": colour, "markers": True, "hollow": True, "line": False, "legend": False,
               "unit": "×", "points": [[x, y] for x, y in s.excluded if y is not None]}] if s.excluded else []
    marked = [{"name": f"{name} · {M(why)}", "color": colour, "markers": True, "hollow": True, "dash": "dash",
               "width": 1, "legend": False, "unit": "×", "hover": M(why), "marked": why,
               "points": [[x, y] for x, y, w in s.marked if w == why and y is not None]}
              for why in dict.fromkeys(w for _, _, w in s.marked)]
    return [main, *dotted, *hollow, *marked]


def _view(family: str, source: str, metric: str, T: Say, W: Say, lang: Lang) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """One choice's chart, readout rows and caveats, and its sources."""
    every, question, caveats = _chosen(family, source, metric, T, lang)
    shown = every[:MAX_SERIES]
    grid = sorted(set(LEVELS) | {x for s in shown for x, _ in s.points})
    names = [(arm_label(s.short, lang) if s.short else localized(s, "label", lang))[:40] for s in every]
    M = say("artefacts", lang)  # points a defect or a start-up stall produced
    series = [ln for i, s in enumerate(shown) for ln in _lines(s, names[i], *_style(family, source, s, i), grid, T, M)]
    series += [{"name": M(why), "color": palette.MARKS["gap"], "dash": "dash", "points": []}
               for why in dict.fromkeys(ln["marked"] for ln in series if ln.get("marked"))]  # the legend's key
    values = [y for s in shown for _, y in [*s.measured(), *s.excluded, *((x, v) for x, v, _ in s.marked)]
              if y is not None]
    recorded = source in ("gpu", "cpu") and not (family == "quant" and source == "gpu")
    y_title = (T("y_spec_throughput" if metric == "throughput" else "y_spec_decode") if recorded else T("y_spec")) \
        if family == "spec" else (T("y_quant_decode") if recorded and metric == "decode" else T("y_quant"))
    batch = bool(shown) and all(s.axis == "batch" for s in shown)
    # an article's own measurement is quoted here ("measured here" is our recorder only), as the page badges it
    kind = {s.key: "quoted" if s.kind == "measured" and s.source in articles() else s.kind for s in every}
    chart = {"title": question, "height": 430, "series": series, "hlines": [{"y": 1, "color": "black", "label": T("no_gain")}],
             "x": {"title": T("x_batch" if batch else "x_concurrency"), "log": True, "ticks": [1, 2, 4, 8, 16, 24, 32, 48, 64, 100]},
             "y": {"title": y_title, "range": [0, max(values + [1.0]) * 1.08]}, "current_label": T("selected"),
             "live": {"model": "level"}}
    rows = [{"name": names[i], "kind": word(kind[s.key], lang), "below": _below(s, grid, T, W, M),
             "at": {lv: _reading(s, lv, T, M) for lv in LEVELS}} for i, s in enumerate(every)]
    sources: list[tuple[str, str]] = [(kind[s.key], f"{names[i]} — {cite(s, lang)}")  # type: ignore[arg-type]
                                      for i, s in enumerate(every)]
    return {"question": question if every else T("empty_source"), "chart": chart, "rows": rows,
            "caveats": caveats}, sources


def chart(lang: Lang) -> Chart:
    T, W = say("concurrency", lang), say("embeds", lang)
    views: dict[str, dict[str, Any]] = {}
    sources: list[tuple[str, str]] = []
    for family, family_sources in SOURCES.items():
        for source in family_sources:
            metric_free = source in ("001", "004", "002") or (family, source) == ("quant", "gpu")
            for metric in METRICS[:1] if metric_free else METRICS:
                views[f"{family}/{source}/{metric}"], got = _view(family, source, metric, T, W, lang)
                sources += got
            if metric_free:  # the page greys its metric choice out here: both choices show the same series
                views[f"{family}/{source}/decode"] = views[f"{family}/{source}/throughput"]
    names = {k: T(f"src_{k}") for k in ("001", "004", "002", "gpu", "cpu")}
    controls: list[dict[str, Any]] = [
        {"name": "family", "label": T("family"), "kind": "select",
         "options": [["spec", T("family_spec")], ["quant", T("family_quant")]]},
        {"name": "source", "label": T("source"), "kind": "select", "depends": ["family"],
         "options_by": {f: [[s, names[s]] for s in srcs] for f, srcs in SOURCES.items()}},
        {"name": "metric", "label": T("metric"), "kind": "select",
         "options": [["throughput", T("metric_throughput")], ["decode", T("metric_decode")]]},
        {"name": "level", "label": T("level"), "kind": "steps", "options": LEVELS}]
    words = {"question": W("question"), "series": T("col_series"), "kind": T("col_kind"),
             "at": T("col_at", level="{level}"), "below": T("col_below")}
    ours = catalogue.landed(llamacpp_files.SWEEP)
    return Chart("concurrency", T("title"), T("intro"), controls,
                 {"family": "spec", "source": "cpu" if ours else "001", "metric": "throughput", "level": 8},
                 {"views": views, "words": words}, sources)
