"""Explainer charts that follow their sliders in the browser (assets/explainer/live_chart.js).

A Plotly chart redraws only after the server's rerun, ~350 ms a move here; this SVG chart reads the page's
slider as it moves and redraws at once. Python sends the fixed parts (axes, measured points, texts) and the
slider values it knows; the chart recomputes what a slider changes with the same formulas as theory.py.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from specreplay.js_bundle import bundle
from specreplay.resources import ASSETS

_ASSETS = ASSETS / "explainer"
# The component takes one script: the modules it imports (shared with node's tests) are inlined.
_JS = bundle(_ASSETS / "live_chart.js")
_mount = st.components.v2.component(
    "specreplay_live_chart", js=_JS,
    css=(_ASSETS / "live_chart.css").read_text(encoding="utf-8"), isolate_styles=False)


def slider(key: str, options: list[Any] | None = None) -> dict[str, Any]:
    """A Streamlit slider the chart follows, found in the page by its widget key (Streamlit marks a keyed widget's
    container with the class st-key-<key>), not by its translated label; a select_slider also needs its options."""
    return {"key": key, "options": options}


def live_chart(spec: dict[str, Any], key: str) -> None:
    """Draw `spec` (see live_chart.js for its fields); `spec["live"]` names the model, the sliders and their values."""
    _mount(data={**spec, "key": key}, key=key)
