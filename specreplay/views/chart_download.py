"""The "download this chart" button beside an explainer chart: the chart as one self-contained HTML file
(specreplay.embeds, the same file as `specreplay export-chart`), opening in the page's current state and language.
The file is made only when the reader clicks (a deferred download), not on every rerun."""

from __future__ import annotations

import streamlit as st

from specreplay.embeds.export import STATE_KEYS, export_chart
from specreplay.views.texts import Texts
from specreplay.views.ui import lang

T = Texts("chart_download")


def download_chart(name: str) -> None:
    """The button for chart `name` (specreplay.embeds.export.CHARTS), with the page's values of its controls."""
    state = {k: str(st.session_state[k]) for k in STATE_KEYS[name] if k in st.session_state}
    language = lang()
    st.download_button(T("download"), data=lambda: export_chart(name, language, state),
                       file_name=f"specreplay-{name}-{language}.html", mime="text/html", on_click="ignore",
                       icon=":material/download:", key=f"download_chart_{name}", help=T("download_help"))
