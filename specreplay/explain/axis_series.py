"""A series: one row of a source table (or one recorded sweep arm) along concurrency or batch size, with its
unmeasured levels kept as gaps, and where it crosses a threshold, read from measured points only.

    s = series("concurrency_speedup", "speedup")   # one Series per table row
    crossing(s[2].points)                           # where it first goes under 1.0 (derived.first_below), None if never
"""

from __future__ import annotations

from dataclasses import dataclass, field

from specreplay.explain.derived import first_below
from specreplay.quoted.article_tables import DataError, SeriesKind, TableCell, table_cells


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
    points: tuple[tuple[int, float | None], ...]  # (level, value); None = not measured (or excluded, below)
    conditions: dict[str, str] = field(default_factory=dict)
    # Levels measured but left out of the series because the arms did not do the same work (sweeps.like_for_like),
    # with the value that was measured there (None: the ratio had no value).
    excluded: tuple[tuple[int, float | None], ...] = ()
    section_en: str = ""
    conditions_en: dict[str, str] = field(default_factory=dict)
    original: str = ""  # the quoted table's id in assets/original_sources.csv
    # Recorded series: which ratio ("throughput": system tok/s, "decode": median per-request tok/s), where it was
    # measured ("gpu", "cpu"), and a legend name of at most 40 characters (the label carries the full provenance).
    metric: str = ""
    family: str = ""
    short: str = ""
    # A recorded sweep's arm facts, from its typed Arm (the caveats read these, never the names): the speculative
    # arm, its engine's name ("vllm", "llama.cpp") and whether every prompt it ran was sampled.
    arm: str = ""
    engine: str = ""
    sampled: bool = False
    # Levels an engine defect or a start-up stall produced (specreplay.explain.artefacts): drawn marked, left out of the
    # points and so of every crossing, as (level, value measured, reason).
    marked: tuple[tuple[int, float | None, str], ...] = ()

    def value_at(self, level: int) -> float | None:
        """The measured value at exactly this level; None when the level was not measured (or was excluded)."""
        return dict(self.points).get(level)

    def excluded_at(self, level: int) -> tuple[bool, float | None]:
        """Whether this level was measured but excluded as not like-for-like, and the value it measured."""
        got = dict(self.excluded)
        return level in got, got.get(level)

    def marked_at(self, level: int) -> tuple[str, float | None] | None:
        """Why this level was left out as an engine's artefact, and the value it measured; None: it was not."""
        return next(((why, v) for lv, v, why in self.marked if lv == level), None)

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
        out.append(Series(key=f"{table}/{first.key}", label=name, label_en=first.series_en, kind=first.kind,
                          source=first.source, section=first.section, unit=first.unit, axis=first.axis,
                          points=tuple(sorted((c.level, c.value) for c in cs)),  # type: ignore[misc]
                          conditions=first.conditions, section_en=first.section_en,
                          conditions_en=first.conditions_en, original=first.original))
    return out


def segments(points: tuple[tuple[int, float | None], ...],
             grid: tuple[int, ...] | list[int] = ()) -> list[tuple[tuple[int, int], tuple[float, float], tuple[int, ...]]]:
    """Line pieces between consecutive measured points: ((x0, x1), (y0, y1), levels skipped in between).

    A level is skipped when the series has an unmeasured cell there, or when `grid` (the levels of the chart's
    axis, e.g. other series' levels) has a level there that this series did not measure. A piece that skips a
    level is not data between its ends: draw it dotted, never as a measured line.
    """
    out = []
    prev: tuple[int, float] | None = None
    have = {x for x, _ in points}
    for x, y in sorted(points):
        if y is None:
            continue
        if prev is not None:
            between = sorted(lv for lv in have | set(grid) if prev[0] < lv < x)
            out.append(((prev[0], x), (prev[1], y), tuple(between)))
        prev = (x, y)
    return out


@dataclass(frozen=True)
class Crossing:
    """Where a series first goes below a threshold, read from measured points only."""

    below: int  # the first measured level below the threshold
    value: float
    above: int | None  # the measured level just before it (at or above the threshold); None: already below at first
    above_value: float | None
    unmeasured: tuple[int, ...]  # levels between `above` and `below` that were not measured (see segments)


def crossing(points: tuple[tuple[int, float | None], ...], grid: tuple[int, ...] | list[int] = (),
             threshold: float = 1.0) -> Crossing | None:
    """The first measured level below the threshold and the measured level before it; None if never below.

    Nothing is interpolated: the crossing lies somewhere between `above` and `below`, and where levels in between
    were not measured (`unmeasured`), nobody knows where.
    """
    at = first_below(points, threshold)
    if at is None:
        return None
    value = dict(points)[at]
    assert value is not None
    piece = next((p for p in segments(points, grid) if p[0][1] == at), None)
    if piece is None:
        return Crossing(at, value, None, None, ())
    return Crossing(at, value, piece[0][0], piece[1][0], piece[2])
