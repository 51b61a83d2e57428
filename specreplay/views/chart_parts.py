"""What every explainer chart shares: at most six series, legend names of at most 40 characters (the full
provenance goes on hover and into one collapsible sources block per chart), the one palette, one way to draw a
Plotly figure, log axes labelled at powers of two, ratio heatmaps centred on 1.0, outliers off scale."""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Sequence

import plotly.graph_objects as go
import streamlit as st
from plotly.colors import sample_colorscale
from streamlit.elements.lib.mutable_expander_container import ExpanderContainer

from specreplay.addresses import address, addresses_named
from specreplay.charts import MAX_NAME, MAX_SERIES, on_scale, short  # noqa: F401  (the pages' chart rules, re-exported)
from specreplay.quoted.articles import originals
from specreplay.views.texts import Texts
from specreplay.views.ui import lang, localized, plain

T = Texts("chart_parts")
CHART_TITLE = "chart-title"  # a chart's title as the page's text (views/shell.py styles it as Plotly did)


def legend_names(names: list[str]) -> list[str]:
    """short() of each name, unless two would then read alike: those keep their start and their end around a "…"
    ("chat · f16-draft · q…cpu-temperature"), where such names differ."""
    shorts = [short(n) for n in names]
    clash = {s for s in shorts if shorts.count(s) > 1}
    half = (MAX_NAME - 1) // 2
    return [n[:half] + "…" + n[-(MAX_NAME - 1 - half):] if s in clash and len(n) > MAX_NAME else s
            for n, s in zip(names, shorts)]


def sources(lines: Iterable[str], key: str = "", markdown: bool = False) -> None:
    """One collapsible block under a chart with each series' full source, one line each."""
    items = list(dict.fromkeys(lines))
    if not items:
        return
    with st.expander(T("sources") + f" ({len(items)})", expanded=False):
        st.markdown("\n".join(f"- {line if markdown else plain(line, 600)}" for line in items))


def plotly(fig: go.Figure, key: str | None = None) -> None:
    """Every Plotly figure of the pages, drawn one way. Tick labels are not tested one by one for overflowing the
    chart (Plotly's default for numeric axes): that test reads each label's box while the page is still arriving,
    and each read lays out the whole page again, about 60 ms of a chart page's first second here (docs/explainer.md,
    page benchmark). The margins already make room for the labels.

    The title is drawn above the chart as the page's text, which wraps: Plotly draws it on one line, cut off in a
    narrow column (two charts side by side beside the sidebar at 1000 px, a phone)."""
    title = fig.layout.title.text
    if title:
        st.markdown(f'<p class="{CHART_TITLE}">{html.escape(title)}</p>', unsafe_allow_html=True)
        fig.update_layout(title_text=None, margin_t=max(10, (fig.layout.margin.t or 100) - 40))
    fig.update_xaxes(ticklabeloverflow="allow")
    fig.update_yaxes(ticklabeloverflow="allow")
    st.plotly_chart(fig, key=key)


def opened(label: str, key: str) -> ExpanderContainer | None:
    """A collapsed expander whose content is computed and sent only once the reader opens it (opening reruns the
    page): a closed expander's tables otherwise load with the page and delay its first chart (docs/explainer.md,
    page benchmark). Write into the returned expander; None while it is closed."""
    box = st.expander(label, key=key, on_change="rerun")
    return box if box.open else None


def log2_axis(values: Iterable[float]) -> dict:
    """A log axis labelled at 1, 2, 4 … only, spanning the values: Plotly's own log ticks add minor labels that run
    together ("8 9 1 2 3 … 10 2 3")."""
    vs = [v for v in values if v and v > 0]
    lo, hi = (math.floor(math.log2(min(vs))), math.ceil(math.log2(max(vs)))) if vs else (0, 6)
    ticks = [2 ** k for k in range(lo, hi + 1)]
    return {"type": "log", "tickvals": ticks, "ticktext": [f"{t:g}" for t in ticks]}


RATIO_SCALE = "RdBu"  # red below 1.0 (a loss), blue above (a gain), white at 1.0


def ratio_heatmap(z: Sequence[Sequence[float | None]], colorbar: dict | None = None, **heatmap: object) -> go.Heatmap:
    """A heatmap of ratios (×): coloured by log2, so ×0.5 and ×2 are equally far from the white of 1.0, with the
    colour bar bounded by the data and labelled in ×; each cell prints its ratio."""
    logs = [[None if v is None or v <= 0 else math.log2(v) for v in row] for row in z]
    seen = [v for row in logs for v in row if v is not None] or [0.0]
    lo, hi = min(seen), max(seen)
    reach = max(abs(lo), abs(hi), 1e-9)  # one colour per ratio, as on a scale symmetric about 1.0
    colours = sample_colorscale(RATIO_SCALE, [(lo / reach + 1) / 2, (hi / reach + 1) / 2])
    middle = [[(0 - lo) / (hi - lo), sample_colorscale(RATIO_SCALE, [0.5])[0]]] if lo < 0 < hi else []
    ticks = [k for k in range(math.floor(lo), math.ceil(hi) + 1)]
    return go.Heatmap(z=logs, zmin=lo, zmax=hi if hi > lo else lo + 1e-9,
                      colorscale=[[0, colours[0]], *middle, [1, colours[1]]],
                      text=[["" if v is None else f"{v:.2f}×" for v in row] for row in z], texttemplate="%{text}",
                      colorbar={"tickvals": ticks, "ticktext": [f"×{2 ** k:g}" for k in ticks], **(colorbar or {})},
                      **heatmap)


def page_sources(ids: list[str]) -> None:
    """One line under a page's intro: the public sources behind its figures, each linked (specreplay.addresses);
    ids are original-source ids (assets/original_sources.csv), engines or models."""
    named = addresses_named(lang())
    items = [f"[{plain(localized(originals()[i], 'name') if i in originals() else named[i], 120)}]({address(i)})" for i in ids
             if address(i)]
    if items:
        st.caption(T("page_sources") + " · ".join(items))
