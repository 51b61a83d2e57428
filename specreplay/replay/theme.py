"""The player's colours (assets/player/theme.json, plus the badges' kind colours from the one palette,
assets/palette.json): CSS custom properties for the player page, RGB for the video."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Literal

from specreplay.palette import KINDS
from specreplay.resources import ASSETS

THEME_FILE = ASSETS / "player" / "theme.json"

Mode = Literal["light", "dark"]
RGB = tuple[int, int, int]


@lru_cache(maxsize=1)
def _load() -> dict[str, dict[str, str]]:
    data = json.loads(THEME_FILE.read_text(encoding="utf-8"))
    return {"light": {**data["light"], **KINDS}, "dark": data["dark"]}


def colours(mode: Mode) -> dict[str, str]:
    """name → '#rrggbb'; the dark theme is the light one with its own entries on top."""
    data = _load()
    return {**data["light"], **(data["dark"] if mode == "dark" else {})}


def rgb(mode: Mode, name: str) -> RGB:
    h = colours(mode)[name].lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def css() -> str:
    """:root custom properties, the dark ones under prefers-color-scheme (player.css uses var(--name))."""
    def props(d: dict[str, str]) -> str:
        return " ".join(f"--{k}: {v};" for k, v in d.items())
    data = _load()
    return f":root {{ {props(data['light'])} }}\n@media (prefers-color-scheme: dark) {{ :root {{ {props(data['dark'])} }} }}\n"
