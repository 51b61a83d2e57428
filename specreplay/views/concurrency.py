"""Speedup against concurrency (or batch size), one question per chart: pick a source and a metric, read where
each of its series first drops below 1.0. Then the engineers' Pareto view and the break-even map
(specreplay/views/concurrency_maps.py)."""

from __future__ import annotations

import streamlit as st

from specreplay.charts import concurrency
from specreplay.explain import sweep_series
from specreplay.explain.sweeps import PairRow, pair_rows
from specreplay.quoted import article_tables
from specreplay.recording import catalogue
from specreplay.recording.format import RecordingError
from specreplay.recording.locations import recording_file
from specreplay.views import url_state
from specreplay.views.chart_download import download_chart
from specreplay.views.chart_parts import MAX_SERIES, opened, page_sources, sources
from specreplay.views.concurrency_maps import breakeven_section, pareto_section
from specreplay.views.full_scale import concurrency_panel
from specreplay.views.live_chart import live_chart, slider
from specreplay.views.tables import table
from specreplay.views.texts import Texts
from specreplay.views.ui import (
    kind_label,
    kind_markdown,
    lang,
    page_intro,
    shown_kind,
    source_line,
    times,
)

T = Texts("concurrency")
CONTROLS = [url_state.choice("family", "spec", tuple(concurrency.SOURCES)),
            url_state.choice("source", concurrency.default_source("spec"), ("001", "004", "002", "gpu", "cpu")),
            url_state.choice("metric", "throughput", concurrency.METRICS),
            url_state.whole("level", 8, 1, 64, concurrency.LEVELS)]
# Rows of 001's tables by their stable keys (assets/articles_measured.csv `key`).
COLLAPSE_ROWS = ("baseline", "drafter_on")
COPY_PROSE_ROWS = ("copy", "free_prose")


@st.fragment
def explorer() -> None:
    """Controls, chart and readouts: a fragment, so a control move reruns only this part, not the app shell."""
    url_state.restore(CONTROLS)
    families = {"spec": T("family_spec"), "quant": T("family_quant")}
    family = st.radio(T("family"), list(families), format_func=families.get, horizontal=True, key="family")
    options = concurrency.SOURCES[family]
    if st.session_state.get("source") not in options:
        st.session_state["source"] = concurrency.default_source(family)
    names = {k: T(f"src_{k}") for k in ("001", "004", "002", "gpu", "cpu")}
    source = st.radio(T("source"), options, format_func=names.get, horizontal=True, key="source")
    metric_names = {"throughput": T("metric_throughput"), "decode": T("metric_decode")}
    metric = st.radio(T("metric"), concurrency.METRICS, format_func=metric_names.get, horizontal=True, key="metric",
                      disabled=concurrency.metric_free(family, source))
    level = st.select_slider(T("level"), concurrency.LEVELS, key="level")
    url_state.publish(CONTROLS)

    v = concurrency.view(family, source, metric, lang())
    for p in v.problems:
        st.warning(T("skipped", problem=p))
    if not v.series:
        empty = "empty_cpu" if family == "spec" else "empty_cpu_quant"
        st.info(T(empty) if source == "cpu" else T("empty_source"),
                icon=":material/hourglass_empty:")
        return
    if len(v.series) > MAX_SERIES:
        st.caption(T("too_many", n=len(v.series), max=MAX_SERIES))
    live_chart({**v.chart, "live": {"model": "level", "values": {"level": level},
                                    "sliders": {"level": slider("level", concurrency.LEVELS)}}},
               key="concurrency_chart")
    kinds = sorted({shown_kind(s) for s in v.shown})
    st.caption(" / ".join(kind_markdown(k) for k in kinds) + " " + T("cap_common"))
    download_chart("concurrency")
    for c in v.caveats:
        st.caption(f":material/info: {c.page}")

    st.markdown(f"**{T('readout', level=level)}**")
    name = {s.key: concurrency.name(s, lang()) for s in v.series}
    rows = [{T("col_series"): name[s.key], T("col_at", level=level): concurrency.reading(s, level, lang()),
             T("col_below"): concurrency.crossing(s, v.grid, lang()),
             T("col_kind"): kind_label(shown_kind(s))} for s in v.series]  # the figures beside the pinned name
    table(rows, key="readout")
    sources([f"**{name[s.key]}** — {kind_markdown(shown_kind(s))} "
             f"{source_line(s) if s.source[:3].isdigit() else concurrency.full_source(s, lang())}"
             for s in v.series], markdown=True)


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
