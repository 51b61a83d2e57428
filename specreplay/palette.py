"""One palette for every chart and the player (assets/palette.json): one qualitative series palette, grey baselines.

    series(0)           # a chart's first data series
    BASELINE[0]         # a drafter-off / 16-bit baseline
"""

from __future__ import annotations

import json

from specreplay.resources import ASSETS

_DATA = json.loads((ASSETS / "palette.json").read_text(encoding="utf-8"))
SERIES: list[str] = _DATA["series"]
BASELINE: list[str] = _DATA["baseline"]
KINDS: dict[str, str] = _DATA["kinds"]
FORMATS: dict[str, str] = _DATA["formats"]
MARKS: dict[str, str] = _DATA["marks"]


def series(i: int) -> str:
    """The i-th series colour of a chart (wrapping: a chart shows at most six series)."""
    return SERIES[i % len(SERIES)]


def baseline(i: int = 0) -> str:
    return BASELINE[i % len(BASELINE)]
