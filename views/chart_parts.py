"""What every explainer chart shares: at most six series, legend names of at most 40 characters (the full
provenance goes on hover and into one collapsible sources block per chart), the one palette, one way to draw a
Plotly figure."""

from __future__ import annotations

from collections.abc import Iterable

import plotly.graph_objects as go
import streamlit as st
from streamlit.elements.lib.mutable_expander_container import ExpanderContainer

from specreplay.addresses import address, addresses_named
from specreplay.articles import originals
from specreplay.views.chart_parts_text import TEXT
from specreplay.views.texts import Texts
from specreplay.views.ui import plain, tr

T = Texts(TEXT)
MAX_SERIES = 6
MAX_NAME = 40


def short(name: str) -> str:
    """A legend name cut to MAX_NAME characters (the hover and the sources block carry the rest)."""
    return name if len(name) <= MAX_NAME else name[:MAX_NAME - 1] + "…"


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
    page benchmark). The margins already make room for the labels."""
    fig.update_xaxes(ticklabeloverflow="allow")
    fig.update_yaxes(ticklabeloverflow="allow")
    st.plotly_chart(fig, key=key)


def opened(label: str, key: str) -> ExpanderContainer | None:
    """A collapsed expander whose content is computed and sent only once the reader opens it (opening reruns the
    page): a closed expander's tables otherwise load with the page and delay its first chart (docs/explainer.md,
    page benchmark). Write into the returned expander; None while it is closed."""
    box = st.expander(label, key=key, on_change="rerun")
    return box if box.open else None


def page_sources(ids: list[str]) -> None:
    """One line under a page's intro: the public sources behind its figures, each linked (specreplay.addresses);
    ids are original-source ids (assets/original_sources.csv), engines or models."""
    named = addresses_named()
    items = [f"[{plain(tr(*originals()[i]) if i in originals() else named[i], 120)}]({address(i)})" for i in ids
             if address(i)]
    if items:
        st.caption(T("page_sources") + " · ".join(items))
