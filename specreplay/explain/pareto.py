"""The engineers' view of a sweep: interactivity (median tok/s per user) against system throughput (output tok/s
of all streams), one point per concurrency level, and each setup's Pareto front.

A point is better when it is both more interactive and higher in throughput; a setup's front is its points that
no other point of the same setup beats on both. Where a speculative arm's front lies below its baseline's at the
same interactivity, the drafter costs throughput there: `staircase` outlines what the baseline's front beats,
and `beaten` names the baseline level that beats a speculative point on both counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from specreplay.explain.sweeps import level_table
from specreplay.recording.format import Recording


@dataclass(frozen=True)
class Point:
    arm: str
    mix: str | None
    concurrency: int
    interactivity: float  # median per-request decode tok/s (first token excluded)
    throughput: float  # output tokens of every request ÷ the level's wall time


def points(rec: Recording) -> dict[tuple[str, str | None], list[Point]]:
    """Per (arm, mix), the levels that have both numbers, by concurrency."""
    out: dict[tuple[str, str | None], list[Point]] = {}
    for s in level_table(rec):
        if s.decode_median is not None and s.throughput is not None:
            out.setdefault((s.arm, s.mix), []).append(
                Point(s.arm, s.mix, s.concurrency, s.decode_median, s.throughput))
    for pts in out.values():
        pts.sort(key=lambda p: p.concurrency)
    return out


def front(pts: list[Point]) -> list[Point]:
    """The points no other point beats on both axes, by interactivity ascending."""
    keep = [p for p in pts if not any(q.interactivity >= p.interactivity and q.throughput >= p.throughput and
                                      (q.interactivity, q.throughput) != (p.interactivity, p.throughput) for q in pts)]
    return sorted(keep, key=lambda p: p.interactivity)


def beaten(p: Point, by: list[Point]) -> Point | None:
    """A point of `by` at least as good as p on both axes and better on one (the first such), else None."""
    return next((q for q in by if q.interactivity >= p.interactivity and q.throughput >= p.throughput and
                 (q.interactivity, q.throughput) != (p.interactivity, p.throughput)), None)


def staircase(fr: list[Point]) -> list[tuple[float, float]]:
    """The outline of everything a front beats (both axes from 0): the shaded region of the chart. A point
    inside it is beaten on both counts by some point of that front."""
    if not fr:
        return []
    pts = sorted(fr, key=lambda p: p.interactivity)
    outline = [(0.0, pts[0].throughput)]
    for a, b in zip(pts, pts[1:]):
        outline += [(a.interactivity, a.throughput), (a.interactivity, b.throughput)]
    outline += [(pts[-1].interactivity, pts[-1].throughput), (pts[-1].interactivity, 0.0), (0.0, 0.0)]
    return outline
