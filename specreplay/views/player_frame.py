"""The replay player inside a page (the start page's hero, the replay page): one frame that follows its content.

The player is `height` px tall on a wide screen and as tall as its stacked panes on a phone (player.css,
html.sized); st.iframe's height="content" sizes the frame and its container to that, so the player never draws
over what follows it, at any width and in embeds.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from specreplay.replay.html import player_html


def player_frame(payload: dict[str, Any], *, height: int, alt: str) -> None:
    st.iframe(player_html(payload, height=height), height="content", alt=alt)
