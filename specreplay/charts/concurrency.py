"""Speedup against concurrency (or batch size), one question per (family, source, metric): the series, the live
chart's spec, the readout's texts and the caveats, built once for the concurrency page and its exported chart.

    v = view("spec", "cpu", "throughput", "en")
    v.chart                                # assets/explainer/live_chart.js's spec (the live level slider added by each)
    reading(v.series[0], 8, "en"), crossing(v.series[0], v.grid, "en")   # the readout's two texts
    v.caveats                              # the same caveats under the page and in the file

Unmeasured levels stay gaps (a line across one is dotted), levels measured but not like-for-like are hollow
dots, levels an engine defect or a start-up stall produced (specreplay.explain.artefacts) are hollow dots on a
dashed line with a legend key of their own, nothing is interpolated.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from specreplay import palette
from specreplay.charts import MAX_SERIES, Caveat, short
from specreplay.embeds.words import Say, say
from specreplay.engines.defects import draft_graphs_defect
from specreplay.explain import axis_series, derived, panels, quant_series, sweep_series, trained_head
from specreplay.languages import Lang, localized
from specreplay.multiplier import times
from specreplay.quoted.articles import cite, shown_kind
from specreplay.recording import catalogue, wanted
from specreplay.recording.format import Recording, RecordingError
from specreplay.recording.header import Header
from specreplay.recording.locations import recording_file
from specreplay.recording.wanted import Wanted
from specreplay.words import arm_label, word

LEVELS = [1, 2, 4, 8, 16, 32, 64]
SOURCES = {"spec": ("001", "004", "gpu", "cpu"), "quant": ("002", "gpu", "cpu")}
METRICS = ("throughput", "decode")
TICKS = [2 ** k for k in range(9)]  # 1, 2, 4 … 256 only: labels in between run together


def default_source(family: str) -> str:
    """Where each family opens: our CPU sweep once it is bundled, else an article's table."""
    ours = wanted.landed(panels.CPU_SWEEP)
    return ("cpu" if ours else "001") if family == "spec" else ("cpu" if ours else "002")


def metric_free(family: str, source: str) -> bool:
    """Sources with one metric only (the articles' tables, the H200 timing sweep): the metric choice is greyed out."""
    return source in ("001", "004", "002") or (family, source) == ("quant", "gpu")


@dataclass(frozen=True)
class View:
    """One choice of the concurrency chart."""

    family: str
    source: str
    metric: str
    question: str
    series: tuple[axis_series.Series, ...]  # every series of the choice; the chart draws the first MAX_SERIES
    caveats: tuple[Caveat, ...]
    problems: tuple[str, ...]  # files that could not be read
    grid: tuple[int, ...]  # every level on the axis
    chart: dict[str, Any]  # live_chart.js's spec without the level slider's value

    @property
    def shown(self) -> tuple[axis_series.Series, ...]:
        return self.series[:MAX_SERIES]


def name(s: axis_series.Series, lang: Lang) -> str:
    return short(arm_label(s.short, lang) if s.short else localized(s, "label", lang))


def full_source(s: axis_series.Series, lang: Lang) -> str:
    """The series' whole provenance, for the hover and the sources block (never the legend)."""
    if s.kind in ("measured", "quoted") and s.source[:3].isdigit():
        return cite(s, lang)  # type: ignore[arg-type]
    return " · ".join(x for x in (arm_label(localized(s, "label", lang), lang), s.source, *s.conditions.values()) if x)


def _levels_text(levels: tuple[int, ...] | list[int]) -> str:
    return ", ".join(str(lv) for lv in levels)


def _at(s: axis_series.Series, level: int, T: Say) -> str:
    if s.axis == "concurrency":
        return T("at_c1") if level == 1 else T("at_c", level=level)
    return T("at_b", level=level)


def _excluded_note(s: axis_series.Series, T: Say) -> str:
    """The levels measured but left out (not like-for-like), with their values: said wherever the series is read."""
    if not s.excluded:
        return ""
    return T("excluded_note", got=", ".join(f"{_at(s, lv, T)} {times(v)}" for lv, v in s.excluded))


def _marked_note(s: axis_series.Series, T: Say, lang: Lang) -> str:
    """The levels an engine defect or a start-up stall produced, with their values: said wherever the series is read."""
    M = say("artefacts", lang)
    return "".join(T("marked_note", what=M(why), got=", ".join(f"{_at(s, lv, T)} {times(v)}"
                                                               for lv, v, w in s.marked if w == why))
                   for why in dict.fromkeys(w for _, _, w in s.marked))


def crossing(s: axis_series.Series, grid: tuple[int, ...] | list[int], lang: Lang) -> str:
    """Where the series crosses 1.0, from measured points only: between two measured levels, never interpolated;
    then the levels an engine's artefact produced, which never count."""
    return _crossing(s, grid, lang) + _marked_note(s, say("concurrency", lang), lang)


def _crossing(s: axis_series.Series, grid: tuple[int, ...] | list[int], lang: Lang) -> str:
    T = say("concurrency", lang)
    c = axis_series.crossing(s.points, grid)
    note = _excluded_note(s, T)
    if c is None:
        top = max((x for x, _ in s.measured()), default=None)
        if top is None:
            return T("no_level") + note
        if len(s.measured()) == 1:
            return T("one_point", at=_at(s, top, T), v=times(s.value_at(top))) + note
        which = T("lfl_levels") if s.excluded else T("measured_levels")
        return T("not_below", which=which, at=_at(s, top, T)) + note
    if len(s.measured()) == 1:
        return T("one_point", at=_at(s, c.below, T), v=times(c.value)) + note
    if c.above is None:
        values = [y for _, y in s.measured()]
        if max(values) < 1:
            return T("never_above", at=_at(s, max(x for x, _ in s.measured()), T),
                     lo=times(min(values)), hi=times(max(values))) + note
        return T("already_below", at=_at(s, c.below, T), v=times(c.value)) + note
    between = T("between_c" if s.axis == "concurrency" else "between_b", a=c.above, b=c.below)
    text = T("falls_below", between=between, a=times(c.above_value), b=times(c.value))
    if c.unmeasured:
        text += T("unknown_where", levels=_levels_text(c.unmeasured))
    return text + note


def reading(s: axis_series.Series, level: int, lang: Lang) -> str:
    """The series at one level: its value; measured but excluded; an empty cell; or a level its source lacks."""
    T = say("concurrency", lang)
    v = s.value_at(level)
    if v is not None:
        return times(v)
    if marked := s.marked_at(level):
        return T("marked_reading", v=times(marked[1]), what=say("artefacts", lang)(marked[0]))
    excluded, value = s.excluded_at(level)
    if excluded:
        return T("excluded_reading", v=times(value))
    if s.kind == "quoted" and level not in dict(s.points):
        return T("not_quoted", src=s.source[:3])
    return T("not_measured")


def _lines(s: axis_series.Series, color: str, dash: str, grid: tuple[int, ...], lang: Lang) -> list[dict[str, Any]]:
    """The series as the live chart draws it: solid only between consecutive measured levels with no level of the
    axis in between that it did not measure; a thin dotted piece, labelled, bridges each such gap; levels
    measured but excluded are hollow dots, not joined; levels an engine's artefact produced are hollow dots on a thin
    dashed line."""
    T, M = say("concurrency", lang), say("artefacts", lang)
    hover = f"{word(shown_kind(s), lang)} · {full_source(s, lang)}"
    label = name(s, lang)
    pieces = axis_series.segments(s.points, grid)
    gaps = {lv for _, _, skipped in pieces for lv in skipped}
    points = sorted([*s.points, *((lv, None) for lv in gaps if lv not in dict(s.points))])
    out: list[dict[str, Any]] = [{"name": label, "color": color, "markers": True, "unit": "×", "hover": hover,
                                  "dash": dash, "points": [[x, y] for x, y in points]}]
    for (x0, x1), (y0, y1), skipped in pieces:
        if skipped:
            note = T("gap_note", a=x0, b=x1, levels=_levels_text(skipped))
            out.append({"name": f"{label} · {note}", "color": color, "dash": "dot", "width": 1, "legend": False,
                        "unmeasured": list(skipped), "hover": note, "points": [[x0, y0], [x1, y1]]})
    if s.excluded:
        note = T("excluded_short")
        out.append({"name": f"{label} · {note}", "color": color, "markers": True, "hollow": True, "line": False,
                    "legend": False, "unit": "×", "hover": note,
                    "points": [[x, y] for x, y in s.excluded if y is not None]})
    for why in dict.fromkeys(w for _, _, w in s.marked):  # an engine's artefacts: hollow, dashed, keyed below
        out.append({"name": f"{label} · {M(why)}", "color": color, "markers": True, "hollow": True,
                    "dash": "dash", "width": 1, "legend": False, "unit": "×", "hover": M(why), "marked": why,
                    "points": [[x, y] for x, y, w in s.marked if w == why and y is not None]})
    return out


def quant_style(s: axis_series.Series) -> tuple[str, str]:
    """Weight formats in the roofline page's colours: the format's colour; 70B / GPTQ solid, 8B / AWQ dashed.
    002's rows by their stable CSV keys; our timing sweep's by arm id (timing/<arm>)."""
    if s.key.startswith(("llamacpp/", "qwen-h200/")):  # the real Qwen's Q4_K_M file (CPU or H200)
        return palette.FORMATS["q4"], "solid"
    key = s.key.lower()
    fmt = "int4" if ("int4" in key or "w4a16" in key) else "fp8"
    return palette.FORMATS[fmt], "dash" if "_8b_" in key or ("awq" in key and "70b" not in key) else "solid"


def _q4_series(what: Wanted) -> list[axis_series.Series] | str:
    """Q4_K_M ÷ its 16-bit copy from the llama.cpp sweep or the Qwen GPU one; [] when none is here, or why it
    could not be read."""
    rec = wanted.read(what)
    if not isinstance(rec, Recording):
        return rec or []
    name = Path(rec.path).name
    return (quant_series.llamacpp_series if what is panels.CPU_SWEEP else quant_series.h200_series)(rec, name)


def defect_caveat(header: Header, arms: list[str], lang: Lang) -> Caveat | None:
    """One caveat naming the arms whose figures carry an engine defect (the page links the fix); None when none do."""
    found = {a: d for a in arms if (d := draft_graphs_defect(header.arm(a)))}
    if not found:
        return None
    T = say("concurrency", lang)
    return Caveat(T("cav_defect", arms=", ".join(found), defect=", ".join(dict.fromkeys(d.text(lang) for d in found.values()))),
                  T("cav_defect", arms=", ".join(found),
                    defect=", ".join(dict.fromkeys(d.markdown(lang) for d in found.values()))))


def _defect_caveats(shown: list[axis_series.Series], lang: Lang) -> list[Caveat]:
    """One caveat per shown sweep recording whose speculative arms carry an engine defect."""
    out = []
    for file in dict.fromkeys(s.source for s in shown if s.arm):
        try:
            header = catalogue.header(recording_file(file))  # line 1 only: the series were read from the file already
        except (RecordingError, OSError):
            continue
        arms = [a.id for a in header.arms if any(s.source == file and s.arm == a.id for s in shown)]
        out += [c] if (c := defect_caveat(header, arms, lang)) else []
    return out


def _head_caveat(s: axis_series.Series, lang: Lang) -> Caveat | None:
    """The trained head's pair (issue #38): which card and engine ran it, and where its gain stays below 1.0."""
    try:
        header = catalogue.header(recording_file(s.source))
    except (RecordingError, OSError):
        return None
    H = say("trained_head", lang)
    arm = header.arm(s.arm)
    where = {"arm": s.arm, "base": arm.baseline, "k": arm.draft_length, "card": trained_head.card(header.machine.line),
             "engine": trained_head.engine(arm.engine.line, arm.engine.name), "first": times(s.value_at(1))}
    level = derived.sustained_below(s.points)
    return Caveat(H("cav_below", level=level, last=times(s.value_at(level)), **where) if level
                  else H("cav_never", **where))


def _chosen(family: str, source: str, metric: str, T: Say, lang: Lang
            ) -> tuple[list[axis_series.Series], str, list[Caveat], list[str]]:
    """The source's series for this metric, the chart's question, its caveats, and unreadable files."""
    f16 = Caveat(word("f16_note", lang))
    if family == "spec":
        if source == "001":
            return axis_series.series("concurrency_speedup", "speedup"), T("q_001"), [], []
        if source == "004":
            return axis_series.series("batch_speedup", "speedup"), T("q_004"), [Caveat(T("cav_004"))], []
        recorded, unread, _ = sweep_series.recorded_sweeps()
        shown = [s for s in recorded if s.family == source and s.metric == metric]
        caveats = _defect_caveats(shown, lang)  # first: the dashed hollow lines' reason
        caveats += [Caveat(T("cav_vllm_cpu_sampled"))] * any(s.sampled and s.engine == "vllm" and s.family == "cpu"
                                                             for s in shown)
        caveats += [Caveat(T("cav_sampled"))] * any(s.sampled for s in shown)
        caveats += [f16] * any(s.engine == "llama.cpp" for s in shown)
        gpu_sweeps, head_sweeps = wanted.matching(panels.GPU_SWEEP), wanted.matching(panels.HEAD_SWEEP)
        caveats += [Caveat(T("cav_qwen_h200_spec"))] * any(s.source in gpu_sweeps for s in shown)
        caveats += [c for s in shown if s.source in head_sweeps and (c := _head_caveat(s, lang))]
        caveats += [Caveat(T("cav_throughput"))] * (metric == "throughput")
        return shown, T("q_gpu_spec" if source == "gpu" else "q_cpu_spec"), caveats, unread
    if source == "002":
        shown = [s for s in axis_series.series("h200_relative_throughput", "relative_throughput")
                 if "baseline" not in s.key]  # the BF16 rows (keys …_bf16_w16a16_baseline) are the 1.00 baseline itself
        return shown, T("q_002"), [Caveat(T("cav_002"))], []
    if source == "gpu":
        problems: list[str] = []
        timing = wanted.read(panels.QUANT_TIMING_SWEEP)
        shown = quant_series.timing_series(timing) if isinstance(timing, Recording) else []
        problems += [timing] if isinstance(timing, str) else []
        caveats = [Caveat(T("cav_timing"))] if shown else []
        got = _q4_series(panels.GPU_SWEEP)  # the real Qwen 1.5B beside the timing-only 7B shapes
        if isinstance(got, str):
            problems.append(got)
        elif got:
            shown += [s for s in got if s.metric == "throughput"]
            caveats.append(Caveat(T("cav_qwen_h200_quant")))
        return shown, T("q_gpu_quant"), caveats, problems
    got = _q4_series(panels.CPU_SWEEP)
    if isinstance(got, str):
        return [], T("q_cpu_quant"), [], [got]
    return [s for s in got if s.metric == metric], T("q_cpu_quant"), [f16], []


def view(family: str, source: str, metric: str, lang: Lang) -> View:
    """One choice's series, chart, caveats and the files it could not read."""
    T = say("concurrency", lang)
    every, question, caveats, problems = _chosen(family, source, metric, T, lang)
    shown = every[:MAX_SERIES]
    grid = tuple(sorted(set(LEVELS) | {x for s in shown for x, _ in s.points}))
    styles = [quant_style(s) for s in shown] if family == "quant" else [(palette.series(i), "solid")
                                                                           for i in range(len(shown))]
    series = [ln for s, (color, dash) in zip(shown, styles) for ln in _lines(s, color, dash, grid, lang)]
    M = say("artefacts", lang)  # points a defect or a start-up stall produced: the legend's key
    series += [{"name": M(why), "color": palette.MARKS["gap"], "dash": "dash", "markers": True, "hollow": True,
                "points": []} for why in dict.fromkeys(ln["marked"] for ln in series if ln.get("marked"))]
    if any(ln.get("unmeasured") for ln in series):
        series.append({"name": T("dotted_key"), "color": palette.MARKS["gap"], "dash": "dot", "points": []})
    if any(ln.get("hollow") for ln in series):
        series.append({"name": T("hollow_key"), "color": palette.MARKS["gap"], "dash": "solid", "points": []})
    values = [y for s in shown for _, y in [*s.measured(), *s.excluded, *((x, v) for x, v, _ in s.marked)]
              if y is not None]
    recorded = not metric_free(family, source)
    y_title = (T("y_spec_throughput" if metric == "throughput" else "y_spec_decode") if recorded else T("y_spec")) \
        if family == "spec" else (T("y_quant_decode") if recorded and metric == "decode" else T("y_quant"))
    batch = bool(shown) and all(s.axis == "batch" for s in shown)
    chart = {"title": question, "height": 430, "series": series,
             "x": {"title": T("x_batch" if batch else "x_concurrency"), "log": True, "ticks": TICKS},
             "y": {"title": y_title, "range": [0, max(values + [1.0]) * 1.08]},
             "hlines": [{"y": 1, "color": "black", "label": T("no_gain")}], "current_label": T("selected")}
    return View(family, source, metric, question, tuple(every), tuple(caveats), tuple(problems), grid, chart)
