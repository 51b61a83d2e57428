"""One palette for every chart and the player (assets/palette.json): a colour family per source, grey baselines.

    colour("cpu", 0)    # our CPU recordings' first series
    BASELINE[0]         # a drafter-off / 16-bit baseline
"""

from __future__ import annotations

import json
from typing import Literal

from specreplay.resources import ASSETS

Family = Literal["articles", "gpu", "cpu", "imported"]

_DATA = json.loads((ASSETS / "palette.json").read_text(encoding="utf-8"))
FAMILIES: dict[str, list[str]] = _DATA["families"]
BASELINE: list[str] = _DATA["baseline"]
KINDS: dict[str, str] = _DATA["kinds"]
FORMATS: dict[str, str] = _DATA["formats"]
MARKS: dict[str, str] = _DATA["marks"]


def colour(family: Family, i: int) -> str:
    """The i-th colour of a source's family (wrapping: a chart shows at most six series)."""
    shades = FAMILIES[family]
    return shades[i % len(shades)]


def baseline(i: int = 0) -> str:
    return BASELINE[i % len(BASELINE)]
