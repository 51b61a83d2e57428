"""A command line's numbers, bounded as argparse reads them: before anything computes with them, any value (NaN,
1e999999999, a 5,000-digit integer) gets argparse's one line naming the option, at once. Shared by every command
(the recorder's, video, export-html)."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def bounded(kind: type, low: float, high: float, above: bool = False) -> Callable[[str], float]:
    """An option's number, finite and within [low, high] (low excluded if `above`). `int` refuses more than
    4,300 digits itself and `float` turns any exponent into inf or 0 at once, so parsing is cheap for any text."""
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {'a whole number' if kind is int else 'a number'}, "
                                             f"got {text[:40]!r}") from None
        if not ((value > low) if above else (value >= low)) or not value <= high:  # NaN fails both
            raise argparse.ArgumentTypeError(f"{text[:40]} is outside the allowed {'more than ' if above else ''}"
                                             f"{low:g}–{high:g}")
        return value
    return parse
