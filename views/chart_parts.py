"""What every explainer chart shares: at most six series, legend names of at most 40 characters (the full
provenance goes on hover and into one collapsible sources block per chart), the one palette."""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

from specreplay.views.chart_parts_text import TEXT
from specreplay.views.texts import Texts
from specreplay.views.ui import plain

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
