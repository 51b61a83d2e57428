"""How far a chart's axis reaches, for the pages and the exported charts alike."""

from __future__ import annotations

from collections.abc import Iterable


def on_scale(values: Iterable[float | None]) -> float:
    """The largest value a chart's axis reaches: the data's own, unless a few values lie far above the rest (each
    more than twice the next one down): those are drawn at the axis' edge as off-scale markers instead of stretching
    the axis over every other point."""
    vs = sorted(v for v in values if v is not None)
    while len(vs) > 1 and vs[-1] > 2 * vs[-2]:
        vs.pop()
    return vs[-1] if vs else 1.0
