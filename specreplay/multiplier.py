"""One multiplier format ("1.0×", "0.8×", "1.27×") for every page; assets/explainer/multiplier.js is its twin.

Both round to hundredths half away from zero on the same float arithmetic (floor(|v| · 100 + 0.5)), so Python
and the browser print the same text for the same number; assets/multiplier_cases.json holds the cases both
test suites read.
"""

from __future__ import annotations

import math

MISSING = "—"


def times(v: float | None, missing: str = MISSING) -> str:
    """A multiplier for reading: at most two decimals, at least one; `missing` for None."""
    if v is None:
        return missing
    hundredths = math.floor(abs(v) * 100 + 0.5)
    sign = "-" if v < 0 and hundredths else ""
    whole, frac = divmod(hundredths, 100)
    decimals = f"{frac:02d}".rstrip("0") or "0"
    return f"{sign}{whole}.{decimals}×"
