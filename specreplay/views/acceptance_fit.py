"""The acceptance page's measured sections: the formula fitted to our arms (predicted vs measured, residual, and
a way to carry a cell's α, γ, c into the calculator), the drafter's measured c on the F16 and the Q4_K_M target,
and acceptance length per prompt kind."""

from __future__ import annotations

from pathlib import Path
from statistics import median

import plotly.graph_objects as go
import streamlit as st

from specreplay import palette, theory
from specreplay.explain import panels, trained_head
from specreplay.explain.acceptance_measured import AcceptanceCell
from specreplay.explain.arm_fit import arm_fits, residual
from specreplay.explain.derived import change_percent
from specreplay.recording import wanted
from specreplay.recording.arm import Arm
from specreplay.recording.format import Recording
from specreplay.views.chart_parts import MAX_SERIES, on_scale, plotly, short, sources
from specreplay.views.pages import page
from specreplay.views.tables import table
from specreplay.views.texts import Texts
from specreplay.views.ui import kind_markdown, lang, times
from specreplay.words import word

T = Texts("acceptance")
H = Texts("trained_head")
ENGINES = ("llamacpp", "vllm")


def engine_of(c: AcceptanceCell) -> str:
    return "llamacpp" if c.engine_name == "llama.cpp" else "vllm"


def series_name(c: AcceptanceCell) -> str:
    return short(f"{c.arm} · {Path(c.file).stem}")


def kinds_of(cells: list[AcceptanceCell]) -> str:
    """The badges of the kinds of number these cells are: measured here, and timing only where an arm's acceptance
    was set."""
    return " / ".join(kind_markdown(k) for k in dict.fromkeys(c.number_kind for c in cells))


def cell_line(c: AcceptanceCell) -> str:
    temp = "—" if c.temperature is None else f"{c.temperature:g}"
    return (f"{c.file} · {c.arm} ÷ {c.baseline} · {c.prompt} · γ {c.gamma} · T {temp} · {c.engine} · {c.machine} · "
            f"{c.created[:10]}")


def calculator_link(c: AcceptanceCell) -> str:
    """The acceptance page's address with this cell's α, γ and c (views.url_state reads them)."""
    return (f"/{page('acceptance').url_path}?alpha={min(max(c.alpha, 0), 1):.2f}&gamma={min(max(c.gamma, 1), 16)}"
            f"&c={min(max(c.cost_ratio, 0), 2):.2f}&lang={lang()}")


def _use(c: AcceptanceCell) -> None:
    """Button callback: the calculator's sliders take the cell's values before the page is drawn again."""
    st.session_state["alpha"] = round(min(max(c.alpha, 0.0), 1.0), 2)
    st.session_state["gamma"] = int(min(max(c.gamma, 1), 16))
    st.session_state["c"] = round(min(max(c.cost_ratio, 0.0), 2.0), 2)


def f16_note(cells: list[AcceptanceCell]) -> None:
    """Wherever a cell of an F16 arm (the 4-bit model's values in 16-bit weights) is shown, say what it is."""
    if any(c.f16_of_4bit for c in cells):
        st.caption(word("f16_note", lang()))


def arm_names(cells: list[AcceptanceCell]) -> str:
    return ", ".join(dict.fromkeys(f"{c.arm} · {Path(c.file).stem}" for c in cells))


def defect_links(cells: list[AcceptanceCell]) -> str:
    return ", ".join(dict.fromkeys(c.defect.markdown(lang()) for c in cells if c.defect))


def ngram_v1_note(cells: list[AcceptanceCell]) -> None:
    """Wherever the n-gram arm of the trained head's file is shown: why it is slow there is not known yet."""
    if trained_head.ngram_v1_cells(cells):
        st.caption(":material/info: " + H("ngram_v1"))


def defect_note(cells: list[AcceptanceCell]) -> None:
    """Wherever a cell of an arm with an engine defect is shown, say so with the fix's link."""
    flawed = [c for c in cells if c.defect]
    if flawed:
        st.caption(":material/bug_report: " + T("defect_rows", arms=arm_names(flawed), defect=defect_links(flawed)))


def fit_section(cells: list[AcceptanceCell], problems: list[str]) -> None:
    st.subheader(T("fit_title"))
    st.markdown(T("fit_intro"))
    for p in problems:
        st.warning(T("problem", problem=p))
    names = {"llamacpp": T("engine_llamacpp"), "vllm": T("engine_vllm")}
    engine = st.radio(T("fit_engine"), ENGINES, format_func=names.get, horizontal=True, key="fit_engine")
    shown = [c for c in cells if engine_of(c) == engine and c.counts.drafts and not c.defect]
    left_out = [c for c in cells if engine_of(c) == engine and c.counts.drafts and c.defect]
    if not shown:
        st.info(T("fit_empty"), icon=":material/hourglass_empty:")
        return
    groups: dict[tuple[str, str], list[AcceptanceCell]] = {}
    heads = {c.id for c in trained_head.head_cells(shown)}
    for c in sorted(shown, key=lambda c: c.id not in heads):  # the head trained here drawn first
        groups.setdefault((c.file, c.arm), []).append(c)
    fig = go.Figure()
    drawn = list(groups.values())[:MAX_SERIES - 1]
    edge = max(1.2, on_scale(v for cs in drawn for c in cs for v in (c.predicted, c.measured_speedup)))
    top = edge * 1.1
    fig.add_trace(go.Scatter(x=[0, top], y=[0, top], mode="lines", name=T("fit_diag"), hoverinfo="skip",
                             line={"color": palette.MARKS["formula"], "dash": "dash", "width": 1}))
    for i, cs in enumerate(drawn):
        fig.add_trace(go.Scatter(
            # a point far above the rest sits at the edge as a triangle pointing off scale; its hover has its values
            x=[min(c.predicted, top) for c in cs], y=[min(c.measured_speedup, top) for c in cs], mode="markers",
            name=series_name(cs[0]), marker={"color": palette.series(i), "size": 9, "symbol": [
                "triangle-right" if c.predicted > top else "triangle-up" if c.measured_speedup > top else "circle"
                for c in cs]},
            text=[f"{c.prompt}: α {c.alpha:.2f}, c {c.cost_ratio:.2f}, {change_percent(residual(c))}<br>{T('fit_x')} "
                  f"{times(c.predicted)}<br>{T('fit_y')} {times(c.measured_speedup)}" for c in cs],
            hovertemplate="%{text}<extra></extra>", cliponaxis=False))  # an edge marker whole, not halved
    fig.add_hline(y=1, line_dash="dot", line_color=palette.baseline(1))
    fig.update_layout(title=T("fit_title"), height=420, margin={"l": 10, "r": 10, "t": 50, "b": 10},
                      xaxis={"title": T("fit_x"), "range": [0, top]}, yaxis={"title": T("fit_y"), "range": [0, top]},
                      legend={"orientation": "h", "y": -0.2})
    plotly(fig, key="fit_chart")
    st.caption(f"{kinds_of(shown)} / {kind_markdown('computed')} " + T("fit_caption"))
    if len(groups) > len(drawn):
        st.caption(T("fit_too_many", n=len(groups), max=len(drawn)))
    if left_out:  # an engine defect's step times are not a drafter's cost: kept out of the fit, named here
        st.caption(f":material/bug_report: {kind_markdown('computed')} " + T(
            "fit_defect", arms=arm_names(left_out), defect=defect_links(left_out),
            step_lo=min(c.step_ratio for c in left_out), step_hi=max(c.step_ratio for c in left_out)))
    f16_note(shown)
    ngram_v1_note(shown)
    sources([cell_line(cs[0]).split(" · γ")[0] + f" · {cs[0].engine} · {cs[0].machine} · {cs[0].created[:10]}"
             for cs in drawn])

    # what a row is, pinned, then the multipliers the table exists for; the long file name last
    rows = [{T("col_cell"): f"{c.prompt} · {c.arm}", T("col_measured"): times(c.measured_speedup),
             T("col_tokens"): c.tokens, T("col_formula"): times(c.predicted), T("col_ideal"): times(c.predicted_ideal),
             T("col_residual"): change_percent(residual(c)), "γ": c.gamma, T("col_length"): round(c.acceptance_length, 2),
             "α": round(c.alpha, 3), T("col_step"): round(c.step_ratio, 2), "c": round(c.cost_ratio, 3),
             T("col_undrafted"): f"{c.undrafted_steps / c.steps:.0%}", T("col_recording"): c.file,
             T("col_link"): calculator_link(c)}
            for c in shown]
    table(rows, key="fit_table",
                 column_config={T("col_link"): st.column_config.LinkColumn(display_text="α · γ · c ↗"),
                                T("col_tokens"): st.column_config.NumberColumn(help=T("fit_tokens_help"))})
    st.caption(T("fit_one_pair"))  # one pair, several multipliers: the reason beside them
    worst = max(shown, key=lambda c: abs(residual(c)))
    ratios = [c.step_ratio for c in shown]
    st.caption(f"{kind_markdown('computed')} " + T(
        "fit_gap", lo=min(ratios), hi=max(ratios), cell=f"{worst.prompt} · {worst.arm} · {Path(worst.file).stem}",
        gap=change_percent(residual(worst)), undrafted=f"{worst.undrafted_steps / worst.steps:.0%}"))
    # More verify steps counted than the tokens allow: say so where it shows (folded away when there are many).
    over = [f":material/warning: {kind_markdown(c.number_kind)} " + T(
        "fit_overcount", cell=f"{c.prompt} · {c.arm} · {Path(c.file).stem}", drafts=c.counts.drafts, steps=c.steps)
        for c in shown if c.counts.drafts > c.steps]
    with st.expander(T("fit_overcount_title", n=len(over))) if len(over) > 2 else st.container():
        for line in over:
            st.caption(line)
    by_id = {c.id: c for c in shown}
    pick = st.selectbox(T("try_label"), list(by_id), key="fit_cell",
                        format_func=lambda i: f"{by_id[i].arm} · {by_id[i].prompt} · {Path(by_id[i].file).stem}"
                        if i in by_id else i)
    if pick in by_id:
        st.button(T("try_button"), on_click=_use, args=(by_id[pick],), key="fit_use", icon=":material/tune:")
        st.caption(T("try_note"))


def _draft_model_arms(rec: Recording) -> list[Arm]:
    """The arms with a draft model of their own acceptance (not a set one), each against its baseline."""
    return [a for a in rec.arms if a.baseline and a.speculative_kind == "draft model" and a.set_acceptance is None]


def cost_section(cells: list[AcceptanceCell]) -> None:
    """c of each draft-model arm of the llama.cpp ladder, per prompt: F16 target next to Q4_K_M."""
    st.subheader(T("c_title"))
    st.markdown(T("c_intro"))
    got = wanted.read(panels.CPU_LADDER)
    if not isinstance(got, Recording):
        if isinstance(got, str):
            st.warning(T("problem", problem=got))
        st.info(T("c_empty"), icon=":material/hourglass_empty:")
        return
    arms = [a.id for a in _draft_model_arms(got)]
    mine = [c for c in cells if c.file == Path(got.path).name and c.arm in arms and c.counts.drafts]
    if not mine:
        st.info(T("c_empty"), icon=":material/hourglass_empty:")
        return
    fig = go.Figure()
    fits = {f.arm: f for f in arm_fits(mine)}
    for i, arm in enumerate(a for a in arms if a in fits):
        cs = fits[arm].cells
        colour = palette.series(i) if got.arm(arm).quantized else palette.baseline(0)
        fig.add_trace(go.Bar(x=[c.prompt for c in cs], y=[c.cost_ratio for c in cs], name=short(arm),
                             marker_color=colour, hovertemplate="%{x}: c = %{y:.2f}<extra>" + arm + "</extra>"))
    fig.update_layout(barmode="group", title=T("c_title"), height=340, yaxis_title=T("c_y"),
                      margin={"l": 10, "r": 10, "t": 50, "b": 10}, legend={"orientation": "h", "y": -0.2})
    plotly(fig, key="c_chart")
    cols = st.columns(max(len(fits), 1))
    for col, f in zip(cols, fits.values()):
        col.metric(T("c_metric", arm=f.arm), f"{f.cost_ratio:.2f}")
    f16 = next((f for f in fits.values() if not got.arm(f.arm).quantized), None)
    q4 = next((f for f in fits.values() if got.arm(f.arm).quantized), None)
    if f16 and q4:
        alpha = median([f16.alpha, q4.alpha])
        st.markdown(f"{kind_markdown('computed')} " + T(
            "c_same_alpha", alpha=f"{alpha:.2f}", gamma=q4.gamma,
            f16=times(theory.speedup(alpha, f16.gamma, max(f16.cost_ratio, 0))),
            q4=times(theory.speedup(alpha, q4.gamma, max(q4.cost_ratio, 0)))))
    st.caption(f"{kind_markdown('measured')} " + word("f16_note", lang()))
    sources([f"{f.file} · {f.arm} ÷ {f.baseline} · {f.cells[0].engine} · {f.cells[0].machine}" for f in fits.values()])


def kind_section(cells: list[AcceptanceCell]) -> None:
    """Acceptance length per prompt of the llama.cpp ladder, one bar per speculative arm."""
    st.subheader(T("kind_title"))
    name = wanted.newest(panels.CPU_LADDER)
    mine = [c for c in cells if c.file == name and c.counts.drafts]
    if not mine:
        st.info(T("kind_empty"), icon=":material/hourglass_empty:")
        return
    fig = go.Figure()
    for i, f in enumerate(arm_fits(mine)[:MAX_SERIES]):
        fig.add_trace(go.Bar(x=[f"{c.prompt}" for c in f.cells], y=[c.acceptance_length for c in f.cells],
                             name=short(f.arm), marker_color=palette.series(i),
                             hovertemplate="%{x}: %{y:.2f}<extra>" + f.arm + "</extra>"))
    fig.update_layout(barmode="group", title=T("kind_title"), height=340, yaxis_title=T("kind_y"),
                      margin={"l": 10, "r": 10, "t": 50, "b": 10}, legend={"orientation": "h", "y": -0.2})
    plotly(fig, key="kind_chart")
    st.caption(f"{kind_markdown('measured')} " + T("kind_caption"))
    f16_note(mine)
    sources([f"{name} · {mine[0].engine} · {mine[0].machine} · {mine[0].created[:10]}"])
