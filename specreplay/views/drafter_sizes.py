"""The target-size panel (issue #29): break-even acceptance against target size, one line per drafter kind, with
article 000's acceptance marked; numbers from specreplay.explain.drafter_sizes, on the acceptance page under c.
Beside the timing-only shapes, the EAGLE-3 head trained here (issue #38): its real c and the acceptance length from
which it pays on real text (specreplay.explain.trained_head)."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from specreplay import palette
from specreplay.explain import acceptance_measured, trained_head
from specreplay.explain import drafter_sizes as ds
from specreplay.quoted import article_tables
from specreplay.views.chart_parts import plotly
from specreplay.views.tables import table as shown_table
from specreplay.views.texts import Texts
from specreplay.views.ui import Kind, kind_badge, kind_markdown, localized, times

T = Texts("drafter_sizes")
H = Texts("trained_head")
PR = "https://github.com/vllm-project/vllm/pull/47460"
TOP, BOTTOM = 6.0, 1.4  # where a drafter that never pays / always pays is marked, off the measured 1.5-5 scale


def _size(size: str) -> str:
    return size.upper()


def _prose() -> article_tables.Reference | None:
    return next((r for r in article_tables.acceptance_references()
                 if r.source.startswith("000") and r.label_en == "prose"), None)


def chart(rows: list[ds.SizeRow], heads: list[trained_head.HeadCost]) -> None:
    fig = go.Figure()
    for ref in article_tables.acceptance_references():
        if ref.source.startswith("000"):
            fig.add_hrect(y0=ref.low, y1=ref.high, fillcolor=palette.MARKS.get("band", "#cccccc"), opacity=0.35,
                          line_width=0, annotation_text=T("band", label=localized(ref, "label"),
                                                          low=ref.low, high=ref.high),
                          annotation_position="top left")
    for i, kind in enumerate(ds.KINDS):
        mine = [r for r in rows if r.kind == kind]
        if not mine:
            continue
        y = [TOP if r.break_even is None else BOTTOM if r.pays_everywhere else r.break_even for r in mine]
        symbols = ["triangle-up" if r.break_even is None else "triangle-down" if r.pays_everywhere else "circle"
                   for r in mine]
        hover = [T("never") if r.break_even is None else T("everywhere") if r.pays_everywhere
                 else f"{r.break_even:.2f}" for r in mine]
        fig.add_trace(go.Scatter(
            x=[ds.SIZES[r.size] for r in mine], y=y, mode="lines+markers", name=T(f"kind_{kind}"),
            marker={"symbol": symbols, "size": 11}, line={"color": palette.series(i)},
            customdata=hover, hovertemplate="%{x}B: %{customdata}<extra>" + T(f"kind_{kind}") + "</extra>"))
    h = next((h for h in heads if h.fit.gamma == ds.DRAFT_LENGTH["eagle3"]), None)  # the shape's K: one point
    if h and h.break_even is not None:
        fig.add_trace(go.Scatter(
            x=[ds.SIZES["1.5b"]], y=[h.break_even], mode="markers", name=H("sizes_trace", card=_card(h)),
            marker={"symbol": "star", "size": 16, "color": palette.series(len(ds.KINDS))},
            customdata=[H("sizes_hover", arm=h.fit.arm, length=h.break_even, c=h.fit.cost_ratio)],
            hovertemplate="%{customdata}<extra></extra>"))
    fig.update_xaxes(type="log", tickvals=list(ds.SIZES.values()), ticktext=[_size(s) for s in ds.SIZES],
                     title=T("x"))
    fig.update_yaxes(range=[1.2, 6.2], tickvals=[BOTTOM, 2, 3, 4, 5, TOP],
                     ticktext=["≤ 1.5", "2", "3", "4", "5", T("never_cell")], title=T("y"))
    fig.update_layout(title=T("chart_title"), height=380, margin={"l": 10, "r": 10, "t": 50, "b": 10},
                      legend={"orientation": "h", "y": -0.25})
    plotly(fig, key="drafter_sizes_chart")


def table(rows: list[ds.SizeRow]) -> None:
    out = []
    for r in rows:
        row = {T("col_target"): _size(r.size), T("col_kind"): T(f"kind_{r.kind}"),
               T("col_step"): f"{r.target_step_ms:.1f}" if r.target_step_ms else "—",
               T("col_drafter_step"): f"{r.drafter_step_ms:.1f}" if r.drafter_step_ms else "—",
               T("col_cost"): f"{r.cost:.2f}" if r.cost is not None else "—",
               T("col_break_even"): T("never_cell") if r.break_even is None
               else T("everywhere_cell") if r.pays_everywhere else f"{r.break_even:.2f}"}
        for c in r.cells:
            row[T("col_at", length=c.set_length)] = times(c.speedup)
        out.append(row)
    shown_table(out)


def smallest_paying(rows: list[ds.SizeRow], low: float) -> str:
    found = []
    for kind in ds.KINDS:
        sizes = [r.size for r in rows if r.kind == kind and r.break_even is not None and r.break_even <= low]
        found.append(f"{T(f'kind_{kind}')} {_size(sizes[0]) if sizes else T('none_size')}")
    return " · ".join(found)


def section() -> None:
    """A closed expander under c (the page's first screen answers its own question; this one is the next)."""
    with st.expander(T("title")):
        rows = ds.size_table()
        if not rows:
            st.info(T("empty"), icon=":material/hourglass_empty:")
            return
        kind: Kind = next((rec.kind() for _, rec in ds.recordings()), "measured")  # the size files are one kind
        kind_badge(kind, T("badge"))
        st.markdown(T("intro"))
        heads = trained_head.head_costs(acceptance_measured.recorded_cells()[0])
        chart(rows, heads)
        prose = _prose()
        if prose:
            st.markdown(f"{kind_markdown('computed')} " + T("article", low=prose.low, high=prose.high,
                                                            found=smallest_paying(rows, prose.low)))
        table(rows)
        head_section(rows, heads)
        for before, after in ds.unpatched():
            if after and before.rate and after.rate:
                st.caption(f"{kind_markdown(kind)} " + T("before_after", length=before.set_length,
                                                               size=_size(before.size), before=before.rate,
                                                               after=after.rate))
        st.caption(T("note", pr=PR))


def _card(h: trained_head.HeadCost) -> str:
    return trained_head.card(h.fit.cells[0].machine)


def head_section(rows: list[ds.SizeRow], heads: list[trained_head.HeadCost]) -> None:
    """The trained head beside the shapes: per K its real c and where it pays along its prompts' acceptance."""
    shape = next((r for r in rows if (r.size, r.kind) == ("1.5b", "eagle3")), None)
    at_k = next((h for h in heads if h.fit.gamma == ds.DRAFT_LENGTH["eagle3"]), None)
    if at_k is None or at_k.break_even is None:
        return
    first = at_k.fit.cells[0]
    st.markdown(f"{kind_markdown('measured')} {kind_markdown('computed')} " + H(
        "sizes_text", k=at_k.fit.gamma, c=at_k.fit.cost_ratio, step=at_k.step_ratio, length=at_k.break_even,
        shape="—" if shape is None or shape.cost is None else f"{shape.cost:.2f}", card=_card(at_k),
        engine=trained_head.engine(first.engine, first.engine_name)))
    shown_table([{H("col_arm"): h.fit.arm, "K": h.fit.gamma,
                  H("col_lengths"): f"{min(c.acceptance_length for c in h.fit.cells):.2f}–"
                                    f"{max(c.acceptance_length for c in h.fit.cells):.2f}",
                  H("col_step"): f"{h.step_ratio:.2f}", T("col_cost"): f"{h.fit.cost_ratio:.3f}",
                  T("col_break_even"): "—" if h.break_even is None else f"{h.break_even:.2f}",
                  H("col_speedups"): f"{times(min(c.measured_speedup for c in h.fit.cells))}–"
                                     f"{times(max(c.measured_speedup for c in h.fit.cells))}"} for h in heads])
