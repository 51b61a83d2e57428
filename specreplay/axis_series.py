"""A series: one row of a source table (or one recorded sweep arm) along concurrency or batch size, with its
unmeasured levels kept as gaps, and where it crosses a threshold, read from measured points only.

    s = series("concurrency_speedup", "speedup")   # one Series per table row
    first_below(s[2].points)                        # 8: first measured level under 1.0, None if never
"""

from __future__ import annotations

from dataclasses import dataclass, field

from specreplay.article_tables import DataError, SeriesKind, TableCell, table_cells


@dataclass(frozen=True)
class Series:
    """One row of a source table (or one recorded sweep arm) along concurrency or batch size."""

    key: str
    label: str
    label_en: str
    kind: SeriesKind
    source: str  # article file, or recording file for a recorded sweep
    section: str  # where in the source: table or section heading
    unit: str
    axis: str
    points: tuple[tuple[int, float | None], ...]  # (level, value); None = not measured
    conditions: dict[str, str] = field(default_factory=dict)

    def value_at(self, level: int) -> float | None:
        """The measured value at exactly this level; None when the level was not measured."""
        return dict(self.points).get(level)

    def measured(self) -> list[tuple[int, float]]:
        return [(x, y) for x, y in self.points if y is not None]

    def provenance(self) -> str:
        parts = [self.source, self.section] + [v for k, v in self.conditions.items() if v]
        return " · ".join(p for p in parts if p)


def series(table: str, metric: str) -> list[Series]:
    """The table's rows along its axis, in file order, unmeasured cells kept as None."""
    rows: dict[str, list[TableCell]] = {}
    for c in table_cells(table, metric):
        if c.level is None:
            raise DataError(f"{table}/{metric}: cell of {c.series!r} has no level; it is not a series")
        rows.setdefault(c.series, []).append(c)
    out = []
    for name, cs in rows.items():
        first = cs[0]
        out.append(Series(key=f"{table}/{name}", label=name, label_en=first.series_en, kind=first.kind,
                          source=first.source, section=first.section, unit=first.unit, axis=first.axis,
                          points=tuple(sorted((c.level, c.value) for c in cs)),  # type: ignore[misc]
                          conditions=first.conditions))
    return out


def first_below(points: tuple[tuple[int, float | None], ...] | list, threshold: float = 1.0) -> int | None:
    """The first measured level whose value is below the threshold; None ('never') if no measured one is."""
    return next((x for x, y in sorted(points) if y is not None and y < threshold), None)


def segments(points: tuple[tuple[int, float | None], ...]) -> list[tuple[tuple[int, int], tuple[float, float], bool]]:
    """Line pieces between consecutive measured points: ((x0, x1), (y0, y1), crosses_unmeasured).

    A piece that skips an unmeasured cell of the table is flagged, so it can be drawn as
    interpolated rather than passed off as data.
    """
    out = []
    prev: tuple[int, float] | None = None
    gap = False
    for x, y in sorted(points):
        if y is None:
            gap = prev is not None
            continue
        if prev is not None:
            out.append(((prev[0], x), (prev[1], y), gap))
        prev, gap = (x, y), False
    return out
