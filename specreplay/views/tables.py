"""Every table of the pages, drawn one way: its first column (what a row is) pinned, so at a narrow width the other
columns scroll inside the table's own frame beside it, never off the page. A page lists a table's multipliers right
after that column, so the figures the table exists for are the first ones seen."""

from __future__ import annotations

from typing import Any

import streamlit as st

HEADER_PX = 38  # a table's header row and frame


def table(rows: Any, *, key: str | None = None, column_config: dict[str, Any] | None = None,
          row_height: int | None = None) -> None:
    """st.dataframe of `rows` (dicts, or a frame with .columns), index hidden, the first column pinned; a missing
    value (a cell the source did not measure, the reference's own multiplier) shows empty, not as "None". A
    `row_height` over 4 rem lets a narrow column's text wrap; the table is then as tall as its rows."""
    first = next(iter(rows[0]), None) if isinstance(rows, list) and rows else next(iter(getattr(rows, "columns", [])), None)
    config = dict(column_config or {})
    if first is not None:
        config[first] = {**(config.get(first) or {}), "pinned": True}
    # tall rows: the frame shows them all (its default height would scroll the last ones out of sight)
    st.dataframe(rows, hide_index=True, key=key, column_config=config, placeholder="", row_height=row_height,
                 height=HEADER_PX + len(rows) * row_height if row_height else "auto")
