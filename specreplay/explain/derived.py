"""The rules every derived table shares, written once: a ratio, a percentage, where a series first goes below 1.0,
the break-even read between two measured points, and tokens per engine step.

    ratio(rate, base)                    # None when either side is missing (or the base is 0)
    percent(0.83) == "83 %"              # a share;  change_percent(0.12) == "+12%"  a change
    first_below({1: 1.4, 2: 0.8}) == 2   # the first measured level under 1.0; None: never
    sustained_below(points)              # the level from which every measured one up stays under 1.0
    break_even([(2, 0.9), (3, 1.3)])     # (2.25, False): where it reaches 1.0, read linearly
    tokens_per_step(decoded, accepted)   # each engine step yields one token plus the drafts it accepted

The table builders (sweeps, full_scale, breakeven, drafter_sizes, roofline, ceiling, acceptance_measured, …) and
the pages call these; none keeps its own copy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Points = Mapping[int, float | None] | Iterable[tuple[int, float | None]]


def ratio(value: float | None, base: float | None) -> float | None:
    """value ÷ base; None when the value is missing or the base is missing or 0 (nothing to compare against)."""
    return value / base if value is not None and base else None


def percent(share: float | None) -> str:
    """'83 %': a share of a whole (0.83); '—' without one."""
    return "—" if share is None else f"{100 * share:.0f} %"


def change_percent(change: float) -> str:
    """'+12%' / '-3%': a relative change; '0%' when it rounds to nothing (no '+0%')."""
    return "0%" if abs(change) < 0.005 else f"{change:+.0%}"


def _items(points: Points) -> list[tuple[int, float | None]]:
    return sorted(points.items() if isinstance(points, Mapping) else points)


def first_below(points: Points, threshold: float = 1.0) -> int | None:
    """The first measured level (ascending) whose value is below the threshold; None ('never') if none is."""
    return next((x for x, y in _items(points) if y is not None and y < threshold), None)


def sustained_below(points: Points, threshold: float = 1.0) -> int | None:
    """The lowest level from which every measured level up is below the threshold; None if the last one is not.
    A dip between levels above it is not a crossing (on the H200 servers it was a one-off stall: vLLM compiles a
    Triton kernel the first time a batch shape appears; that level's TTFT shows it)."""
    start = None
    for x, y in _items(points):
        if y is None:
            continue
        start = (start or x) if y < threshold else None
    return start


def bracket(points: Iterable[tuple[float, float]]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The two consecutive measured points (ascending x) between which the value first rises to 1.0 or above
    from below it; None when it never does."""
    pts = sorted(points)
    return next(((a, b) for a, b in zip(pts, pts[1:]) if a[1] < 1 <= b[1]), None)


def break_even(points: Iterable[tuple[float, float]]) -> tuple[float | None, bool]:
    """(x, value) points → the x where the value first reaches 1.0, read linearly between the two measured points
    around it; (smallest x, True) when it is already ≥ 1.0 there; (None, False) when it never reaches 1.0."""
    pts = sorted(points)
    if not pts:
        return None, False
    if pts[0][1] >= 1:
        return pts[0][0], True
    around = bracket(pts)
    if around is None:
        return None, False
    (x0, y0), (x1, y1) = around
    return x0 + (1 - y0) * (x1 - x0) / (y1 - y0), False


def tokens_per_step(decoded: int, accepted: int) -> float | None:
    """Tokens after the first ÷ engine steps: each step yields one token plus the drafts it accepted (a step that
    drafted nothing yields one). None when no step is left to count."""
    steps = decoded - accepted
    return decoded / steps if steps > 0 else None
