"""The 27B-class H200 recordings on three pages (issue #25): one panel each for the ladder, concurrency and
roofline pages, called at the end of the page. Numbers come from specreplay.explain.full_scale; a drafter arm's
acceptance was set to an article's figure, so its numbers are badged "measured timing, quoted acceptance"."""

from __future__ import annotations

from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

from specreplay import engines, palette
from specreplay.explain import artefacts, ceiling, panels
from specreplay.explain import full_scale as fs
from specreplay.quoted import article_tables
from specreplay.recording import wanted
from specreplay.recording.format import Recording
from specreplay.recording.wanted import Wanted
from specreplay.views.chart_parts import log2_axis, plotly, ratio_heatmap
from specreplay.views.tables import table
from specreplay.views.texts import Texts
from specreplay.views.ui import FORMAT_COLOR, kind_badge, kind_markdown, localized, plain, source_line, times

T = Texts("full_scale")
MARKED = Texts("artefacts")  # points a defect or a start-up stall produced
LEVELS_SHOWN = (2.2, 2.5, 3.1, 5.3, 5.6)  # the articles' figures; the chart keeps to six series with 1.0


def _get(what: Wanted) -> tuple[str, Recording] | None:
    """The newest recording the panel shows, by its file name; None (said on the page) when none is here or it
    cannot be read."""
    got = wanted.read(what)
    if isinstance(got, str):
        st.warning(plain(got, 500), icon=":material/warning:")
        return None
    if got is None:
        st.info(T("missing"))
        return None
    return Path(got.path).name, got


def _source(name: str, rec: Recording) -> str:
    """'recordings/… · vLLM 0.23.0 · <machine>': the engine as its server reported itself."""
    engine = rec.arms[0].engine
    return f"recordings/{name} · {engines.label(engine.name)} {engine.version} · {rec.machine_line}"


def _badges(name: str, rec: Recording) -> None:
    kind_badge(rec.kind(), _source(name, rec))  # the kind says timing only
    st.caption(f"{kind_markdown(rec.kind())} {kind_markdown('quoted')} **{T('badge')}**: "
               + T("badge_note") + T("shape_note"))


def _rounded(rate: float | None) -> float | None:
    """A rate for a table cell; None (an empty cell) where the file has no finished run of that arm yet."""
    return None if rate is None else round(rate, 1)


def _nothing_yet(name: str, arms: str) -> None:
    """The empty state of a panel whose file has no level of the arms it compares (a file in its first seconds of
    recording, or one whose arms were renamed)."""
    st.info(T("no_levels", name=name, arms=arms), icon=":material/hourglass_empty:")


def ladder_panel() -> None:
    st.subheader(T("ladder_title"))
    got = _get(panels.FULL_LADDER)
    if got is None:
        return
    name, rec = got
    _badges(name, rec)
    if not fs.quoted_ladders(rec):
        _nothing_yet(name, "bf16, w4, w4-dflash@…")
        return
    rows = []
    prompt = rec.prompts[0].id  # timing only: one prompt
    for q in fs.quoted_ladders(rec):
        bf16, w4, drafted = q.ladder.steps
        # the multipliers beside the pinned row name, the rates and acceptance after them
        rows.append({T("col_article_row"): f"{q.source[:3]} · {localized(q, 'label')}",
                     T("col_x_w4"): times(w4.vs_previous), T("col_x_drafter"): times(drafted.vs_previous),
                     T("col_product"): times(q.ladder.product),
                     T("col_set_acceptance"): f"{q.ladder.acceptance:g}",
                     T("col_recorded_acceptance"): f"{q.ladder.measured_acceptance:.2f}"
                     if q.ladder.measured_acceptance else "—",
                     "bf16 tok/s": _rounded(bf16.rate), T("col_w4_rate"): _rounded(w4.rate),
                     T("col_drafter_rate"): _rounded(drafted.rate),
                     T("col_draft_cost"): f"{fs.draft_cost(q.ladder):.3f}"
                     if fs.draft_cost(q.ladder) is not None else "—",
                     T("col_ceiling"): " · ".join(ceiling.percent(ceiling.ceiling(rec, s.arm, prompt))
                                                  for s in q.ladder.steps)})
    table(rows)
    article = [c.value for c in article_tables.table_cells("ladder_overall", "decode_rate")]
    st.caption(T("ladder_note", article=" → ".join(f"{v:g}" for v in article if v)))
    drafter = _get(panels.FULL_DRAFTER)
    if drafter is None:
        return
    pair = drafter[1]
    cells = {c.key: c for c in article_tables.table_cells("quant_vs_drafter", "decode_rate")}
    rows = []
    for length in LEVELS_SHOWN:
        off, on = fs.pair_rates(pair, length)
        steps = fs.ladder(rec, length)
        rows.append({T("col_set_acceptance"): f"{length:g}",
                     T("col_bf16_drafter"): f"{off:.1f} → {on:.1f} ({times(on / off)})"
                     if off and on else "—",
                     T("col_w4_drafter"):
                     f"{steps.steps[1].rate:.1f} → {steps.steps[2].rate:.1f} ({times(steps.steps[2].vs_previous)})"
                     if steps and steps.steps[1].rate and steps.steps[2].rate else "—"})
    table(rows)
    b0, b1, q0, q1 = (cells[k].value for k in ("bf16_no_drafter", "bf16_drafter", "4_bit_no_drafter", "4_bit_drafter"))
    st.caption(T("article_001", b0=b0, b1=b1, q0=q0, q1=q1) + source_line(cells["bf16_drafter"]))


def concurrency_panel() -> None:
    st.subheader(T("concurrency_title"))
    got = _get(panels.FULL_LADDER_SWEEP)
    if got is None:
        return
    name, rec = got
    _badges(name, rec)
    curves = [c for c in fs.drafter_curves(rec, "w4") if c.acceptance in LEVELS_SHOWN and c.throughput]
    if not curves:
        _nothing_yet(name, "w4, w4-dflash@…")
        return
    fig = go.Figure()
    for i, c in enumerate(curves):
        counted = {lv: (None if lv in c.left_out else v) for lv, v in c.throughput.items()}  # a gap at a marked level
        fig.add_trace(go.Scatter(x=list(counted), y=list(counted.values()), mode="lines+markers",
                                 name=T("trace_w4_drafter", length=c.acceptance), line={"color": palette.series(i)},
                                 hovertemplate=T("hover_streams") + "<extra></extra>"))
    marked_points(fig, [(lv, c.throughput[lv], why, palette.series(i)) for i, c in enumerate(curves)
                        for lv, why in c.left_out.items()])
    fig.add_hline(y=1.0, line={"color": "#444", "dash": "dot"}, annotation_text=T("drafter_off"))
    fig.update_layout(title=T("drafter_question"),
                      height=400, margin={"l": 10, "r": 10, "t": 50, "b": 10}, legend={"orientation": "h", "y": -0.25},
                      xaxis={"title": T("streams_log"), **log2_axis(lv for c in curves for lv in c.throughput)},
                      yaxis={"title": T("on_off"), "rangemode": "tozero"})
    plotly(fig, key="full_scale_drafter")
    st.markdown("\n".join(
        "- " + (T("crossing", length=c.acceptance, crossing=c.crossing) if c.crossing else
                T("pays_to_at", length=c.acceptance, top=times(c.throughput[max(c.throughput)]),
                  level=max(c.throughput)))
        for c in curves))
    bf16 = wanted.read(panels.FULL_DRAFTER_SWEEP)
    where = {c.acceptance: c for c in fs.drafter_curves(bf16, "bf16")
             if c.acceptance in LEVELS_SHOWN and c.throughput} if isinstance(bf16, Recording) else {}
    if where and isinstance(bf16, Recording):
        st.caption(T("bf16_lead", file=Path(bf16.path).name)
                   + " · ".join(f"L {L:g}: " + (T("below_from", level=c.crossing) if c.crossing
                                                else T("pays_to", level=max(c.throughput)))
                                for L, c in where.items())
                   + T("bf16_tail"))
    grid = fs.drafter_curves(rec, "w4")
    levels = sorted({lv for c in grid for lv in c.throughput})
    z = [[c.counted().get(lv) for lv in levels] for c in grid]  # a marked cell stays empty, outlined below
    # streams as categories: 1, 2, 4 … 64 evenly spaced (a log axis), each cell as wide as the next
    heat = go.Figure(ratio_heatmap(z, x=[str(lv) for lv in levels], y=[f"{c.acceptance:g}" for c in grid],
                                   colorbar={"title": T("on_off")}, hovertemplate="L %{y} · %{x}: %{text}<extra></extra>"))
    marked_points(heat, [(str(lv), f"{c.acceptance:g}", why, c.throughput[lv]) for c in grid
                         for lv, why in c.left_out.items()], cells=True)
    heat.update_layout(title=T("breakeven_title"), showlegend=True, legend={"orientation": "h", "y": -0.2},
                       height=420, margin={"l": 10, "r": 10, "t": 50, "b": 10},
                       xaxis={"title": T("streams"), "type": "category"},
                       yaxis={"title": T("set_length"), "type": "category"})
    plotly(heat, key="full_scale_breakeven")
    edge = fs.break_even(rec, "w4")
    st.caption(T("edge_lead")
               + " · ".join(f"{lv}: {v:.2f}" if v else f"{lv}: —" for lv, v in edge.items())
               + T("edge_tail"))
    if any(c.left_out for c in grid):
        st.caption(MARKED("stall_rule", factor=artefacts.STALL_TTFT))


def marked_points(fig: go.Figure, points: list[tuple], cells: bool = False) -> None:
    """Points an engine defect or a start-up stall produced (specreplay.explain.artefacts), drawn hollow, one legend entry
    per reason. A line chart's points are (level, ratio, reason, colour); a heat map's (column, row, reason,
    ratio), an open square over the empty cell with the ratio written in it."""
    for why in dict.fromkeys(p[2] for p in points):
        mine = [p for p in points if p[2] == why]
        if cells:
            fig.add_trace(go.Scatter(x=[p[0] for p in mine], y=[p[1] for p in mine], mode="markers+text",
                                     text=[times(p[3]) for p in mine], name=MARKED(why),
                                     marker={"symbol": "square-open", "size": 28, "color": "#444"},
                                     hovertemplate="L %{y} · %{x}: %{text} · " + MARKED(why) + "<extra></extra>"))
        else:
            fig.add_trace(go.Scatter(x=[p[0] for p in mine], y=[p[1] for p in mine], mode="markers", name=MARKED(why),
                                     marker={"symbol": "circle-open", "size": 11, "color": [p[3] for p in mine],
                                             "line": {"width": 2}},
                                     hovertemplate=T("hover_streams") + " · " + MARKED(why) + "<extra></extra>"))


def roofline_panel() -> None:
    st.subheader(T("roofline_title"))
    got = _get(panels.FULL_LADDER_SWEEP)
    if got is None:
        return
    name, rec = got
    kind_badge(rec.kind(), _source(name, rec))
    w4 = {lv: v for lv, v in fs.quant_curve(rec, "w4").items() if v}
    low = [v for lv, v in w4.items() if lv <= 16]
    if not low:
        _nothing_yet(name, "bf16, w4")
        return
    fig = go.Figure()
    for arm, fmt_name, label in (("w4", "int4", T("w4_marlin")),
                                 ("fp8", "fp8", "fp8 (W8A8)")):
        curve = fs.quant_curve(rec, arm)
        fig.add_trace(go.Scatter(x=list(curve), y=list(curve.values()), mode="lines+markers", name=f"27B · {label}",
                                 line={"color": FORMAT_COLOR[fmt_name]},
                                 hovertemplate=T("hover_streams") + "<extra></extra>"))
    fig.add_hline(y=1.0, line={"color": "#444"}, annotation_text="BF16 = 1.0")
    fig.update_layout(title=T("quant_question"),
                      height=380, margin={"l": 10, "r": 10, "t": 50, "b": 10}, legend={"orientation": "h", "y": -0.25},
                      xaxis={"title": T("streams_log"), **log2_axis(x for t in fig.data for x in t.x)},
                      yaxis={"title": T("vs_bf16"), "rangemode": "tozero"})
    plotly(fig, key="full_scale_quant")
    st.caption(T("quant_note", measured=kind_markdown(rec.kind()), low=times(min(low)), top=times(w4[max(w4)]),
                 level=max(w4)) + T("shape_note"))
