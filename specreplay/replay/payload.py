"""The browser player's input: a list of Panes turned into plain JSON.

Each pane carries its chunks as three parallel arrays (t_us, n, text) so the
player applies the same visible-at-t rule as specreplay.timeline; numbers that
only make sense for the whole run (final decode rate, ratio to the slowest
arm) are computed here once, so the player and the video show the same values.
"""

from __future__ import annotations

from typing import Any

from specreplay.panes import Pane, finish_ratio
from specreplay.timeline import decode_rate, first_token_us
from specreplay.words import PLAYER_KEYS, Lang, words

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)
TAIL_US = 500_000  # the clock runs a little past the last chunk so every pane is seen finished


def pane_payload(pane: Pane, ratio: float | None) -> dict[str, Any]:
    track = pane.track
    return {
        "key": pane.key,
        "label": pane.label,
        "subtitle": pane.subtitle,
        "kind": pane.kind,
        "details": pane.details,
        "t_us": list(track.t_us),
        "n": list(track.n),
        "text": list(track.text),
        "tokens": track.tokens,
        "end_us": track.end_us,
        "ttft_us": first_token_us(track),
        "rate": decode_rate(track),
        "ratio": ratio,
        "counts": pane.counts,
    }


def player_payload(panes: list[Pane], *, speed: float = 1.0, lang: Lang = "ko") -> dict[str, Any]:
    """Everything the player needs; the clock runs from 0 to duration_us."""
    if speed not in SPEEDS:
        raise ValueError(f"speed must be one of {SPEEDS}, got {speed}")
    ratios = finish_ratio(panes)
    end = max((p.track.end_us for p in panes), default=0)
    return {
        "lang": lang,
        "speed": speed,
        "speeds": list(SPEEDS),
        "duration_us": end + TAIL_US,
        "labels": words(PLAYER_KEYS, lang),
        "panes": [pane_payload(p, r) for p, r in zip(panes, ratios)],
    }
