"""Speedup against concurrency (or batch size), one question per chart: pick a source and a metric, read where
each of its series first drops below 1.0. Then the engineers' Pareto view and the break-even map
(views/concurrency_maps.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st
from specreplay.views import url_state
from specreplay.views.chart_download import download_chart
from specreplay.views.chart_parts import MAX_SERIES, opened, page_sources, short, sources
from specreplay.views.concurrency_maps import breakeven_section, defect_caption, pareto_section
from specreplay.views.full_scale import concurrency_panel
from specreplay.views.live_chart import live_chart, slider
from specreplay.views.tables import table
from specreplay.views.texts import Texts
from specreplay.views.ui import (
    FORMAT_COLOR,
    kind_label,
    kind_markdown,
    lang,
    localized,
    page_intro,
    shown_kind,
    source_line,
    times,
)

from specreplay import article_tables, axis_series, h200_qwen_files, llamacpp_files, palette, quant_series, sweep_series
from specreplay.locations import recording_file
from specreplay.recording import catalogue
from specreplay.recording.format import RecordingError
from specreplay.sweeps import PairRow, pair_rows
from specreplay.timing_sweep import TIMING_FILE
from specreplay.words import arm_label, word

T = Texts("concurrency")
MARKED = Texts("artefacts")  # points a defect or a start-up stall produced
LEVELS = [1, 2, 4, 8, 16, 32, 64]
SOURCES = {"spec": ("001", "004", "gpu", "cpu"), "quant": ("002", "gpu", "cpu")}
METRICS = ("throughput", "decode")
CONTROLS = [url_state.choice("family", "spec", tuple(SOURCES)),
            url_state.choice("source", "cpu" if catalogue.landed(llamacpp_files.SWEEP) else "001",
                             ("001", "004", "002", "gpu", "cpu")),
            url_state.choice("metric", "throughput", METRICS), url_state.whole("level", 8, 1, 64, LEVELS)]
# Rows of 001's tables by their stable keys (assets/articles_measured.csv `key`).
COLLAPSE_ROWS = ("baseline", "drafter_on")
COPY_PROSE_ROWS = ("copy", "free_prose")


def name(s: axis_series.Series) -> str:
    return short(arm_label(s.short, lang()) if s.short else localized(s, "label"))


def axis_grid(shown: list[axis_series.Series]) -> list[int]:
    """Every level on the chart's axis: the slider's and every shown series' (measured or not). A series' line
    is solid only between levels with none of these in between that it did not measure."""
    return sorted(set(LEVELS) | {x for s in shown for x, _ in s.points})


def levels_text(levels: tuple[int, ...] | list[int]) -> str:
    return ", ".join(str(lv) for lv in levels)


def between(s: axis_series.Series, a: int, b: int) -> str:
    return T("between_c" if s.axis == "concurrency" else "between_b", a=a, b=b)


def at_level(s: axis_series.Series, level: int) -> str:
    if s.axis == "concurrency":
        return T("at_c1") if level == 1 else T("at_c", level=level)
    return T("at_b", level=level)


def excluded_note(s: axis_series.Series) -> str:
    """The levels measured but left out (not like-for-like), with their values: said wherever the series is read."""
    if not s.excluded:
        return ""
    return T("excluded_note", got=", ".join(f"{at_level(s, lv)} {times(v)}" for lv, v in s.excluded))


def marked_note(s: axis_series.Series) -> str:
    """The levels an engine defect or a start-up stall produced, with their values: said wherever the series is read."""
    return "".join(T("marked_note", what=MARKED(why), got=", ".join(f"{at_level(s, lv)} {times(v)}"
                                                                   for lv, v, w in s.marked if w == why))
                   for why in dict.fromkeys(w for _, _, w in s.marked))


def crossing(s: axis_series.Series, grid: list[int]) -> str:
    """Where the series crosses 1.0, from measured points only: between two measured levels, never interpolated."""
    return _crossing(s, grid) + marked_note(s)


def _crossing(s: axis_series.Series, grid: list[int]) -> str:
    c = axis_series.crossing(s.points, grid)
    if c is None:
        top = max((x for x, _ in s.measured()), default=None)
        if top is None:
            return T("no_level") + excluded_note(s)
        if len(s.measured()) == 1:
            return T("one_point", at=at_level(s, top), v=times(s.value_at(top))) + excluded_note(s)
        which = T("lfl_levels") if s.excluded else T("measured_levels")
        return T("not_below", which=which, at=at_level(s, top)) + excluded_note(s)
    if len(s.measured()) == 1:
        return T("one_point", at=at_level(s, c.below), v=times(c.value)) + excluded_note(s)
    if c.above is None:
        values = [y for _, y in s.measured()]
        if max(values) < 1:
            return T("never_above", at=at_level(s, max(x for x, _ in s.measured())),
                     lo=times(min(values)), hi=times(max(values))) + excluded_note(s)
        return T("already_below", at=at_level(s, c.below), v=times(c.value)) + excluded_note(s)
    text = T("falls_below", between=between(s, c.above, c.below), a=times(c.above_value), b=times(c.value))
    if c.unmeasured:
        text += T("unknown_where", levels=levels_text(c.unmeasured))
    return text + excluded_note(s)


def reading(s: axis_series.Series, level: int) -> str:
    """The series at one level: its value; measured but excluded; an empty cell; or a level its source lacks."""
    v = s.value_at(level)
    if v is not None:
        return times(v)
    if marked := s.marked_at(level):
        return T("marked_reading", v=times(marked[1]), what=MARKED(marked[0]))
    excluded, value = s.excluded_at(level)
    if excluded:
        return T("excluded_reading", v=times(value))
    if s.kind == "quoted" and level not in dict(s.points):
        return T("not_quoted", src=s.source[:3])
    return T("not_measured")


def full_source(s: axis_series.Series) -> str:
    """The series' whole provenance, for the hover and the sources block (never the legend)."""
    if s.kind in ("measured", "quoted") and s.source[:3].isdigit():
        return source_line(s, markdown=False)
    return " · ".join(x for x in (arm_label(localized(s, "label"), lang()), s.source, *s.conditions.values()) if x)


def lines(s: axis_series.Series, color: str, grid: list[int], dash: str = "solid") -> list[dict[str, Any]]:
    """The series as the live chart draws it: solid only between consecutive measured levels with no level of the
    axis in between that it did not measure; a thin dotted piece, labelled, bridges each such gap; levels
    measured but excluded are hollow dots, not joined."""
    hover = f"{kind_label(shown_kind(s))} · {full_source(s)}"
    pieces = axis_series.segments(s.points, grid)
    gaps = {lv for _, _, skipped in pieces for lv in skipped}
    points = sorted([*s.points, *((lv, None) for lv in gaps if lv not in dict(s.points))])
    out: list[dict[str, Any]] = [{"name": name(s), "color": color, "markers": True, "unit": "×", "hover": hover,
                                  "dash": dash, "points": [[x, y] for x, y in points]}]
    for (x0, x1), (y0, y1), skipped in pieces:
        if skipped:
            note = T("gap_note", a=x0, b=x1, levels=levels_text(skipped))
            out.append({"name": f"{name(s)} · {note}", "color": color, "dash": "dot", "width": 1, "legend": False,
                        "unmeasured": list(skipped), "hover": note, "points": [[x0, y0], [x1, y1]]})
    if s.excluded:
        note = T("excluded_short")
        out.append({"name": f"{name(s)} · {note}", "color": color, "markers": True, "hollow": True, "line": False,
                    "legend": False, "unit": "×", "hover": note,
                    "points": [[x, y] for x, y in s.excluded if y is not None]})
    for why in dict.fromkeys(w for _, _, w in s.marked):  # an engine's artefacts: hollow, dashed, keyed below
        out.append({"name": f"{name(s)} · {MARKED(why)}", "color": color, "markers": True, "hollow": True,
                    "dash": "dash", "width": 1, "legend": False, "unit": "×", "hover": MARKED(why), "marked": why,
                    "points": [[x, y] for x, y, w in s.marked if w == why and y is not None]})
    return out


def quant_style(s: axis_series.Series) -> tuple[str, str]:
    """Weight formats in the roofline page's colours: the format's colour; 70B / GPTQ solid, 8B / AWQ dashed."""
    if s.key.startswith(("llamacpp/", "qwen-h200/")):  # the real Qwen's Q4_K_M file (CPU or H200)
        return palette.FORMATS["q4"], "solid"
    key = s.key.lower()  # 002's rows by their stable CSV keys; our timing sweep's by arm id (timing/<arm>)
    fmt = "int4" if ("int4" in key or "w4a16" in key) else "fp8"
    return FORMAT_COLOR[fmt], "dash" if "_8b_" in key or ("awq" in key and "70b" not in key) else "solid"


@st.cache_data(show_spinner=False, max_entries=4)
def _llamacpp_quant(path: str, mtime_ns: int) -> list[axis_series.Series] | str:
    """Q4_K_M ÷ its 16-bit copy from the llama.cpp sweep or the Qwen H200 one (cached on its path and mtime), or
    why the file could not be read."""
    name = Path(path).name
    try:
        return (quant_series.llamacpp_series if name == llamacpp_files.SWEEP else quant_series.h200_series)(
            catalogue.recording(path), name)
    except (RecordingError, OSError) as e:
        return str(e)


def sweep_defects(shown: list[axis_series.Series]) -> list[str]:
    """A caption per shown sweep recording whose speculative arms carry an engine defect (a recorded series' short
    name starts with its arm: "bf16-draft ÷ bf16 · …")."""
    notes = []
    for file in dict.fromkeys(s.source for s in shown if s.short):
        try:
            header = catalogue.header(recording_file(file))  # line 1 only: the series were read from the file already
        except (RecordingError, OSError):
            continue
        arms = [a.id for a in header.arms if any(s.source == file and s.short.startswith(f"{a.id} ÷ ")
                                                    for s in shown)]
        notes += [note] if (note := defect_caption(header, arms)) else []
    return notes


def chosen_series(family: str, source: str, metric: str) -> tuple[list[axis_series.Series], str, list[str], list[str]]:
    """The source's series for this metric, the chart's question, its caveats, and unreadable files."""
    caveats: list[str] = []
    problems: list[str] = []
    if family == "spec":
        if source == "001":
            return axis_series.series("concurrency_speedup", "speedup"), T("q_001"), caveats, problems
        if source == "004":
            return axis_series.series("batch_speedup", "speedup"), T("q_004"), [T("cav_004")], problems
        recorded, problems, _ = sweep_series.recorded_sweeps()
        shown = [s for s in recorded if s.family == source and s.metric == metric]
        caveats += sweep_defects(shown)  # first: the dashed hollow lines' reason
        if any("sampled" in s.short and "vLLM" in s.short and s.family == "cpu" for s in shown):
            caveats.append(T("cav_vllm_cpu_sampled"))
        if any("sampled" in s.short for s in shown):
            caveats.append(T("cav_sampled"))
        if any("llama" in s.short for s in shown):
            caveats.append(word("f16_note", lang()))
        if any(s.source == h200_qwen_files.SWEEP for s in shown):
            caveats.append(T("cav_qwen_h200_spec"))
        if metric == "throughput":
            caveats.append(T("cav_throughput"))
        return shown, T("q_gpu_spec" if source == "gpu" else "q_cpu_spec"), caveats, problems
    if source == "002":
        shown = [s for s in axis_series.series("h200_relative_throughput", "relative_throughput")
                 if "baseline" not in s.key]  # the BF16 rows (keys …_bf16_w16a16_baseline) are the 1.00 baseline itself
        return shown, T("q_002"), [T("cav_002")], problems
    if source == "gpu":
        try:
            shown = quant_series.timing_series(catalogue.recording(TIMING_FILE))
        except (RecordingError, OSError) as e:
            shown, problems = [], [str(e)]
        caveats = [T("cav_timing")] if shown else []
        path = recording_file(h200_qwen_files.SWEEP)  # the real Qwen 1.5B beside the timing-only 7B shapes
        got = _llamacpp_quant(str(path), path.stat().st_mtime_ns) if path.exists() else []
        if isinstance(got, str):
            problems.append(got)
        elif got:
            shown += [s for s in got if s.metric == "throughput"]
            caveats.append(T("cav_qwen_h200_quant"))
        return shown, T("q_gpu_quant"), caveats, problems
    path = recording_file(llamacpp_files.SWEEP)
    got = _llamacpp_quant(str(path), path.stat().st_mtime_ns) if path.exists() else []
    if isinstance(got, str):
        return [], T("q_cpu_quant"), [], [got]
    return [s for s in got if s.metric == metric], T("q_cpu_quant"), [word("f16_note", lang())], problems


def colours(family: str, source: str, shown: list[axis_series.Series]) -> list[tuple[str, str]]:
    if family == "quant":
        return [quant_style(s) for s in shown]
    return [(palette.series(i), "solid") for i in range(len(shown))]


@st.fragment
def explorer() -> None:
    """Controls, chart and readouts: a fragment, so a control move reruns only this part, not the app shell."""
    url_state.restore(CONTROLS)
    families = {"spec": T("family_spec"), "quant": T("family_quant")}
    family = st.radio(T("family"), list(families), format_func=families.get, horizontal=True, key="family")
    options = SOURCES[family]
    if st.session_state.get("source") not in options:
        ours = catalogue.landed(llamacpp_files.SWEEP)
        st.session_state["source"] = ("cpu" if ours else "002") if family == "quant" else CONTROLS[1].default
    names = {k: T(f"src_{k}") for k in ("001", "004", "002", "gpu", "cpu")}
    source = st.radio(T("source"), options, format_func=names.get, horizontal=True, key="source")
    recorded = source in ("gpu", "cpu") and not (family == "quant" and source == "gpu")
    metric_names = {"throughput": T("metric_throughput"), "decode": T("metric_decode")}
    metric = st.radio(T("metric"), METRICS, format_func=metric_names.get, horizontal=True, key="metric",
                      disabled=not recorded)
    level_label = T("level")
    level = st.select_slider(level_label, LEVELS, key="level")
    url_state.publish(CONTROLS)

    every, question, caveats, problems = chosen_series(family, source, metric)
    for p in problems:
        st.warning(T("skipped", problem=p))
    if not every:
        empty = "empty_cpu" if family == "spec" else "empty_cpu_quant"
        st.info(T(empty, file=llamacpp_files.SWEEP) if source == "cpu" else T("empty_source"),
                icon=":material/hourglass_empty:")
        return
    shown = every[:MAX_SERIES]
    if len(every) > MAX_SERIES:
        st.caption(T("too_many", n=len(every), max=MAX_SERIES))
    grid = axis_grid(shown)
    values = [y for s in shown for _, y in [*s.measured(), *s.excluded, *((x, v) for x, v, _ in s.marked)]
              if y is not None]
    series = [ln for s, (color, dash) in zip(shown, colours(family, source, shown))
              for ln in lines(s, color, grid, dash)]
    for why in dict.fromkeys(ln["marked"] for ln in series if ln.get("marked")):
        series.append({"name": MARKED(why), "color": palette.MARKS["gap"], "dash": "dash", "markers": True,
                       "hollow": True, "points": []})
    if any(ln.get("unmeasured") for ln in series):
        series.append({"name": T("dotted_key"), "color": palette.MARKS["gap"], "dash": "dot", "points": []})
    if any(ln.get("hollow") for ln in series):
        series.append({"name": T("hollow_key"), "color": palette.MARKS["gap"], "dash": "solid", "points": []})
    batch = all(s.axis == "batch" for s in shown)
    y_title = (T("y_spec_throughput" if metric == "throughput" else "y_spec_decode") if recorded else T("y_spec")) \
        if family == "spec" else (T("y_quant_decode") if recorded and metric == "decode" else T("y_quant"))
    live_chart({
        "title": question, "height": 430, "series": series,
        "x": {"title": T("x_batch" if batch else "x_concurrency"), "log": True,
              "ticks": [2 ** k for k in range(9)]},  # 1, 2, 4 … 256 only: labels in between run together
        "y": {"title": y_title, "range": [0, max(values + [1.0]) * 1.08]},
        "hlines": [{"y": 1, "color": "black", "label": T("no_gain")}],
        "current_label": T("selected"),
        "live": {"model": "level", "values": {"level": level}, "sliders": {"level": slider("level", LEVELS)}}},
        key="concurrency_chart")
    kinds = sorted({shown_kind(s) for s in shown})
    st.caption(" / ".join(kind_markdown(k) for k in kinds) + " " + T("cap_common"))
    download_chart("concurrency")
    for c in caveats:
        st.caption(f":material/info: {c}")

    st.markdown(f"**{T('readout', level=level)}**")
    rows = [{T("col_series"): name(s), T("col_at", level=level): reading(s, level), T("col_below"): crossing(s, grid),
             T("col_kind"): kind_label(shown_kind(s))} for s in every]  # the figures beside the pinned name
    table(rows, key="readout")
    sources([f"**{name(s)}** — {kind_markdown(shown_kind(s))} "
             f"{source_line(s) if s.source[:3].isdigit() else full_source(s)}" for s in every], markdown=True)


@st.cache_data(show_spinner=False, max_entries=8)
def recorded_rows(path: str, mtime_ns: int) -> list[PairRow] | str:
    """The paired levels of one sweep recording (cached on its path and mtime), or why it could not be read."""
    try:
        return pair_rows(catalogue.recording(path))
    except (RecordingError, OSError) as e:
        return str(e)


def level_table(files: list[str]) -> list[dict[str, object]]:
    """One row per recorded (speculative arm, mix, level): both speedups, acceptance, text check, badge and file."""
    rows: list[dict[str, object]] = []
    for file in files:
        path = recording_file(file)
        got = recorded_rows(str(path), path.stat().st_mtime_ns) if path.exists() else []
        for r in got if isinstance(got, list) else []:
            s = r.stats
            if not r.checkable:
                text = T("text_unchecked")
            else:
                b = r.base
                text = T("text_greedy", m=s.greedy_matches, n=s.greedy_runs)
                if s.greedy_own:
                    text += T("text_own", n=s.greedy_own)
                if s.greedy_diverged or b.greedy_diverged:
                    text += T("text_batch", n=s.greedy_diverged, b=b.greedy_diverged, bn=b.greedy_runs)
            kind = kind_label("measured") + ("" if r.like_for_like else T("kind_excluded"))
            rows.append({T("col_arms"): f"{r.speedup.arm} ÷ {r.speedup.baseline}", T("col_mix"): r.speedup.mix or "—",
                         T("col_conc"): r.speedup.concurrency, T("col_decode"): times(r.speedup.decode),
                         T("col_thr"): times(r.speedup.throughput),
                         T("col_len"): f"{s.acceptance_length:.2f}" if s.acceptance_length else "—",
                         T("col_text"): text,
                         T("col_host"): f"{s.host_busy:.0%}" if s.host_busy is not None else "—",
                         T("col_kind"): kind, T("col_file"): file})
    return rows


def recorded_levels() -> None:
    recorded, _, excluded = sweep_series.recorded_sweeps()
    if not recorded:
        return
    box = opened(T("levels_title"), "concurrency_levels_open")
    if box is None:
        return
    with box:
        st.caption(f"{kind_markdown('measured')} " + T("levels_caption"))
        table(level_table(sorted({s.source for s in recorded})), key="recorded_levels")
        if excluded:
            st.warning(T("excluded_warning") + "\n" + "\n".join(f"- {e}" for e in excluded))


def more_measurements() -> None:
    box = opened(T("more"), "concurrency_more_open")
    if box is None:
        return
    with box:
        base, drafted = (article_tables.cell("collapse_64", s, "throughput") for s in COLLAPSE_ROWS)
        copy, prose = (article_tables.cell("copy_vs_prose", s, "speedup") for s in COPY_PROSE_ROWS)
        st.markdown(kind_markdown(shown_kind(base)) + " " + T("more_001", base=base.value, on=drafted.value,
                                                        copy=times(copy.value), prose=times(prose.value)))
        h100 = article_tables.table_cells("h100_concurrency")
        levels = sorted({c.level for c in h100 if c.level is not None})
        val = {(c.level, c.metric): c.value for c in h100}
        table([{T("h100_conc"): lv, T("h100_thr"): val[(lv, "throughput")],
                       "TTFT p50 (ms)": val[(lv, "ttft_p50")]} for lv in levels])
        st.caption(kind_markdown("quoted") + " " + T("h100_note") + source_line(h100[0]))


page_intro(T("title"), T("intro"))
page_sources(["eagle3_table3", "spheron", "vllm", "llama.cpp"])
explorer()
pareto_section()
breakeven_section()
recorded_levels()
more_measurements()
with st.expander(T("panel_27b")):
    concurrency_panel()  # drafter on ÷ off and the break-even map at 27B-class on the H200 (issue #25)
