"""Playback speed: the speeds offered, the rule that picks the opening speed, and the line that says it.

A replay that is over in half a second (an H200 run) shows nothing at 1×, so recordings that finish within a few
seconds open slowed down: the opening speed is the fastest offered speed, at most 1×, at which the longest pane
takes at least MIN_REPLAY_S seconds to play. Every player, video frame and export shows the speed beside the
clock ("0.1× — slowed 10×").
"""

from __future__ import annotations

from fractions import Fraction

from specreplay.words import word

SPEEDS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
# The bounds of every speed: the page's offered ones, ?speed=, export-html's and video's --speed, the video plan
SLOWEST, FASTEST = SPEEDS[0], SPEEDS[-1]
MIN_REPLAY_S = 5.0


def default_speed(end_us: int) -> float:
    """The opening speed for a replay whose last chunk arrives at end_us (1× for anything ≥ MIN_REPLAY_S)."""
    slow_enough = [s for s in SPEEDS if s <= 1 and end_us / 1e6 / s >= MIN_REPLAY_S]
    return max(slow_enough) if slow_enough else SPEEDS[0]


def _g(x: float | Fraction) -> str:
    return f"{float(x):.3g}"


def speed_note(speed: float | Fraction, lang: str) -> str:
    """'0.1× — slowed 10×', '2× — sped up 2×', '1× — real time' (Korean unless lang is 'en')."""
    if speed == 1:
        return word("speed_real", lang).format(x="1")
    key, factor = ("speed_slow", 1 / Fraction(speed)) if speed < 1 else ("speed_fast", Fraction(speed))
    return word(key, lang).format(x=_g(speed), n=_g(factor))
