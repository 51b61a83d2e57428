"""Acceptance rate α, draft length γ and cost ratio c → tokens per step, speedup, compute (Leviathan et al. 2023)."""

from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

from specreplay import palette, theory
from specreplay.charts import acceptance as chart
from specreplay.explain import acceptance_measured, panels
from specreplay.explain.token_strip import expected_taus, stream, token_strip_html
from specreplay.quoted import article_tables
from specreplay.recording import wanted
from specreplay.views import drafter_sizes, url_state
from specreplay.views.acceptance_fit import (
    cost_section,
    defect_note,
    f16_note,
    fit_section,
    kind_section,
    kinds_of,
    ngram_v1_note,
)
from specreplay.views.chart_download import download_chart
from specreplay.views.chart_parts import legend_names, opened, page_sources, plotly
from specreplay.views.live_chart import live_chart, slider
from specreplay.views.tables import table
from specreplay.views.texts import Texts
from specreplay.views.ui import Kind, kind_badge, kind_markdown, lang, page_intro, shown_kind, source_line, times

T = Texts("acceptance")
SIM_TOKENS = 60
SIM_STEP_S = 0.25  # slowed display clock: one plain decoding step takes a quarter second on screen
GRAY = palette.baseline(1)
CONTROLS = [url_state.number("alpha", chart.DEFAULTS["alpha"], 0.0, 1.0),
            url_state.whole("gamma", int(chart.DEFAULTS["gamma"]), chart.GAMMAS[0], chart.GAMMAS[-1]),
            url_state.number("c", chart.DEFAULTS["c"], 0.0, chart.C_MAX),
            url_state.choice("fit_engine", "llamacpp" if wanted.landed(panels.CPU_LADDER) else "vllm",
                             ("llamacpp", "vllm"))]


def caveats(lines: tuple[tuple[Kind, str], ...]) -> str:
    """A chart's caveats as one caption, each with its kind's badge (the exported file shows the same lines)."""
    return " ".join(f"{kind_markdown(kind)} {text.strip()}" for kind, text in lines)


page_intro(T("title"), T("intro"))
page_sources(["leviathan", "eagle3_table1", "vllm", "llama.cpp"])


def nearest_readout(c: acceptance_measured.AcceptanceCell) -> None:
    """What the nearest measured cell says, in one line (the chart rings the same cell at once)."""
    st.markdown(f"{kind_markdown(c.number_kind)} " + T("nearest_cell", cell_label_c=chart.cell_label(c), c_acceptance_length=c.acceptance_length, c_alpha=c.alpha, c_gamma=c.gamma, rates_text_c=chart.rates_text(c), c_measured_speedup=c.measured_speedup) +
        f"{kind_markdown('computed')} " + T("check_004_formula", c_predicted=c.predicted, c_cost_ratio=c.cost_ratio))
    defect_note([c])


def positions_chart(cells: list[acceptance_measured.AcceptanceCell], alpha: float, gamma: int, sliders: dict) -> None:
    # an arm at a set acceptance has per-position counts the benchmark mode set, not the drafter's: left out
    cells = [c for c in cells if c.number_kind != "timing_only"]
    if not cells:
        return
    live_chart({
        "title": T("position_title"),
        "height": 300, "x": {"title": T("position_x")},  # ticks to the last position drawn (live_chart.js)
        "y": {"title": T("position_y"), "range": [0, 1]},
        "hlines": [], "cells": [chart.cell_spec(c, lang()) for c in cells], "cell_color": chart.GREEN, "others_color": GRAY,
        "others_name": T("position_other_cells"), "median_name": T("position_other_median"),
        "implied_name": T("position_implied_curve"),
        "curve": {"name": T("position_formula_curve"), "color": chart.BLUE},
        "current_name": T("position_current_alpha"),
        "live": {"model": "positions", "values": {"alpha": alpha, "gamma": gamma}, "sliders": sliders}}, key="positions_chart")
    st.caption(f"{kind_markdown('measured')} " + T("position_caption_counters") + f"{kind_markdown('computed')} " + T("position_caption_formula"))


@st.fragment
def explorer() -> None:
    """Sliders, readouts, charts and the simulated stream: a fragment, so a slider move reruns only this part."""
    left, right = st.columns([1, 2])
    with left:
        labels = {"alpha": T("slider_alpha"), "gamma": T("slider_gamma"),
                  "c": T("slider_c")}
        alpha = st.slider(labels["alpha"], 0.0, 1.0, step=0.01, key="alpha")
        gamma = st.slider(labels["gamma"], chart.GAMMAS[0], chart.GAMMAS[-1], key="gamma")
        c = st.slider(labels["c"], 0.0, chart.C_MAX, step=0.01, key="c")
        url_state.publish(CONTROLS)
        e_tau = theory.expected_tokens(alpha, gamma)
        gain = theory.speedup(alpha, gamma, c)
        compute = theory.compute_overhead(alpha, gamma, c)
        st.metric(T("metric_expected_tokens"), f"{e_tau:.2f}",
                  help="E[τ] = (1 − α^(γ+1)) / (1 − α)")
        st.metric(T("metric_speedup"), f"{gain:.2f}×", help="E[τ] / (1 + γc) — Leviathan et al. 2023, thm 3.8")
        st.metric(T("metric_compute"), f"{compute:.2f}×",
                  help="(1 − α)(γc + γ + 1) / (1 − α^(γ+1)) — Leviathan et al. 2023, thm 3.11 (ĉ = c)")
        kind_badge("computed", T("metric_source"))

    calc = chart.calculator(lang())
    cells = list(calc.cells)
    sliders = {name: slider(name) for name in labels}  # each slider is keyed by its name
    with right:
        live_chart({**calc.etau, "live": {"model": "etau", "values": {"alpha": alpha, "gamma": gamma},
                                          "sliders": sliders}}, key="etau_chart")
        st.caption(caveats(calc.etau_caveats))
        near = acceptance_measured.nearest(cells, alpha, gamma)
        if near:
            nearest_readout(near)

        live_chart({**calc.gamma, "live": {"model": "gamma", "values": {"alpha": alpha, "gamma": gamma, "c": c},
                                           "sliders": sliders}}, key="gamma_chart")
        st.caption(caveats(calc.gamma_caveats))
        download_chart("acceptance")
        if cells:  # after the γ chart, which pages and benches find as the second live chart
            positions_chart(cells, alpha, gamma, sliders)

    st.subheader(T("stream_title"))
    taus = expected_taus(alpha, gamma, SIM_TOKENS)
    spec_step = (1 + gamma * c) * SIM_STEP_S  # one verification, drafting included
    after_first = sum(taus)
    plain, spec = stream([1] * after_first, SIM_STEP_S), stream(taus, spec_step)
    st.html(token_strip_html(plain, spec, gamma, {
        "plain": T("strip_plain"),
        "spec": T("strip_spec", alpha=alpha, gamma=gamma),
        "accepted": T("strip_accepted"),
        "own": T("strip_own"),
        "strip": T("strip_title"),
        "replay": T("strip_replay"),
    }), unsafe_allow_javascript=True)  # our own markup (labels escaped); the script is the replay button
    per_step = after_first / len(taus)
    on_screen = (after_first * SIM_STEP_S) / (len(taus) * spec_step)
    st.markdown(f"{kind_markdown('simulated')} " + T("stream_summary", after_first=after_first, len_taus=len(taus), per_step=per_step, e_tau=e_tau, on_screen=on_screen, gain=gain))
    st.caption(f"{kind_markdown('simulated')} " + T("stream_simulated_note", SIM_STEP_S=SIM_STEP_S))


def temperature_of(c: article_tables.TableCell) -> float:
    """The cell's temperature as a number (the table prints e.g. '0 (논문 관행)'): a stable key, not a display string."""
    return float(c.conditions["temperature"].split()[0])


def measured_section(cells: list[acceptance_measured.AcceptanceCell], problems: list[str]) -> None:
    """Our recordings' acceptance per cell, then the formula's speedup from it next to the measured one."""
    st.subheader(T("measured_title"))
    for p in problems:
        st.warning(T("recording_not_read", p=p))
    if not cells:
        st.info(T("no_counter_recording"))
        return
    # what a row is, pinned, then its figures; the long file name last
    rows = [{T("col_cell"): f"{c.prompt} · {c.arm}", T("col_length"): round(c.acceptance_length, 2),
             T("col_implied_alpha"): round(c.alpha, 3), T("col_temperature"): c.temperature, "γ": c.gamma, T("col_repeats"): c.repeats,
             T("col_drafts"): c.counts.drafts, T("col_accepted"): c.counts.accepted,
             T("col_position_rates"): chart.rates_text(c), T("col_recording"): c.file} for c in cells]
    table(rows)
    st.caption(f"{kinds_of(cells)} " + T("counters_note") + f"{kind_markdown('computed')} " + T("implied_alpha_note"))
    f16_note(cells)
    ngram_v1_note(cells)


def temperature_section(cells: list[acceptance_measured.AcceptanceCell]) -> None:
    """Measured acceptance length and speedup against temperature, one line per prompt recorded at several."""
    sweeps = acceptance_measured.temperature_sweeps(cells)
    if not sweeps:
        return
    st.subheader(T("temperature_title"))
    f16_note([c for group in sweeps.values() for c in group])
    figs = {"length": go.Figure(), "speedup": go.Figure()}
    drawn = list(sweeps.items())[:6]
    names = legend_names([f"{group[0].kind} · {arm} · {Path(file).stem}" for (file, arm, _), group in drawn])
    for i, (name, (_, group)) in enumerate(zip(names, drawn)):
        xs = [c.temperature for c in group]
        hover = [chart.cell_hover(c, lang()) for c in group]
        line = {"color": palette.series(i)}
        figs["length"].add_trace(go.Scatter(x=xs, y=[c.acceptance_length for c in group], name=name, mode="lines+markers",
                                            hovertext=hover, line=line))
        figs["speedup"].add_trace(go.Scatter(x=xs, y=[c.measured_speedup for c in group], name=name, mode="lines+markers",
                                             line=line,
                                             text=[times(c.measured_speedup) for c in group], hovertext=hover,
                                             hovertemplate="%{x}: %{text}<br>%{hovertext}<extra></extra>"))
    figs["speedup"].add_hline(y=1, line_dash="dot", line_color="gray")
    titles = {"length": (T("temperature_length_title"), T("temperature_length_axis")),
              "speedup": (T("temperature_speedup_title"), "×")}
    cols = st.columns(2)
    for col, (name, fig) in zip(cols, figs.items()):
        fig.update_layout(title=titles[name][0], xaxis_title=T("col_temperature"), yaxis_title=titles[name][1],
                          height=340, margin={"l": 50, "r": 10, "t": 50, "b": 40}, legend={"orientation": "h", "y": -0.25})
        with col:
            plotly(fig, key=f"temperature_{name}")
    rows = [{T("col_cell"): f"{c.prompt} · {c.arm}", T("col_temperature"): c.temperature,
             T("col_speedup"): round(c.measured_speedup, 2),
             T("col_length"): round(c.acceptance_length, 2), T("col_implied_alpha"): round(c.alpha, 3),
             T("col_per_position"): chart.rates_text(c), T("col_same_token_count"): "✓" if c.like_for_like else "✗",
             T("col_copied_triples"): f"{c.base_copied:.0%} / {c.spec_copied:.0%}", T("col_recording"): c.file}
            for group in sweeps.values() for c in group]
    table(rows)
    defect_note([c for group in sweeps.values() for c in group])
    sampled = [c for group in sweeps.values() for c in group if c.temperature]
    worst = max(sampled, key=lambda c: c.base_copied - c.spec_copied, default=None)
    if worst and worst.base_copied - worst.spec_copied >= 0.5:  # not noise: most of one output, almost none of the other
        st.warning(T("copied_warning", cell_label_worst=chart.cell_label(worst), worst_temperature=worst.temperature, worst_base_copied=worst.base_copied, worst_spec_copied=worst.spec_copied, worst_counts_drafts=worst.counts.drafts, worst_counts_accepted=worst.counts.accepted))
    st.caption(f"{kind_markdown('measured')} " + T("like_for_like_note"))


url_state.restore(CONTROLS)
explorer()
measured_cells, measured_problems = acceptance_measured.recorded_cells()
fit_section(measured_cells, measured_problems)
with st.expander(T("c_title")):
    cost_section(measured_cells)
drafter_sizes.section()
with st.expander(T("kind_title")):
    kind_section(measured_cells)
url_state.publish(CONTROLS[3:])
if tables := opened(T("cells_expander"), "acceptance_tables_open"):
    with tables:
        measured_section(measured_cells, [])  # problems are named once, above the fit chart

t0, t1 = sorted(article_tables.table_cells("temperature_eagle3", "speedup"), key=temperature_of)
ng = {(temperature_of(c), c.metric): c.value for c in article_tables.table_cells("temperature_ngram")}
greedy_ng = f"{ng[(0.0, 'speedup_min')]:.1f}–{ng[(0.0, 'speedup_max')]:.1f}×"
hot_ng = f"{ng[(1.0, 'speedup_min')]:.1f}–{ng[(1.0, 'speedup_max')]:.1f}×"
st.caption(kind_markdown("quoted") + " " + T("temperature_quoted", times_t0_value=times(t0.value), times_t1_value=times(t1.value)) + kind_markdown("quoted") + " " + T("temperature_ngram", greedy_ng=greedy_ng, hot_ng=hot_ng))

with st.expander(T("temperature_title")):
    temperature_section(measured_cells)

if check := opened(T("check_004_title"), "acceptance_check_open"):
    with check:
        rows = [{"α": m.alpha, "c": m.c, "γ": m.gamma,
                 T("col_expected_article"): m.expected_tokens,
                 T("col_expected_computed"): round(theory.expected_tokens(m.alpha, m.gamma), 2),
                 T("col_speedup_article"): m.speedup,
                 T("col_speedup_computed"): round(theory.speedup(m.alpha, m.gamma, m.c), 2),
                 T("col_compute_article"): m.compute,
                 T("col_compute_computed"): round(theory.compute_overhead(m.alpha, m.gamma, m.c), 2)}
                for m in article_tables.speculative_math()]
        table(rows)
        src = article_tables.speculative_math()[0]
        st.caption(f"{kind_markdown(shown_kind(src))} {source_line(src)} — {kind_markdown('computed')} " +
                   T("check_004_note"))
