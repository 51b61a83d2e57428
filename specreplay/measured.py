"""The source articles' tables, transcribed into assets/*.csv, as validated series.

One loader reads the tidy CSVs (one row per table cell; an empty value is a cell
the article did not measure) and checks every column and unit. Series keep
those gaps: nothing here interpolates. See assets/README.md for the files.

    s = series("concurrency_speedup", "speedup")   # one Series per table row
    first_below(s[2].points)                        # 8: first measured level under 1.0, None if never
"""

from __future__ import annotations

import csv
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal, Mapping

from specreplay import resources, theory
from specreplay.locations import recording_files

ASSETS = resources.ASSETS
TIDY_FILES = ("articles_measured.csv", "quoted_h200_relative_throughput.csv")
MATH_FILE = "quoted_speculative_math.csv"
COLUMNS = ("source", "table", "section", "kind", "series", "series_en", "hardware", "model", "engine",
           "temperature", "workload", "workload_en", "axis", "level", "metric", "value", "unit",
           "like_for_like", "note")
MATH_COLUMNS = ("source", "table", "section", "kind", "alpha", "c", "gamma", "expected_tokens", "speedup",
                "compute", "unit", "note")
UNITS = {"tok/s", "×", "× BF16", "s", "ms", "%", "USD/h", "USD", "sessions", "tokens", "bytes", "GB", "count"}
KINDS = {"measured", "quoted"}
AXES = {"", "concurrency", "batch"}
SOURCE_RE = re.compile(r"^\d{3}_[0-9a-f]{16}\.txt$")
CONDITION_KEYS = ("hardware", "model", "engine", "temperature", "workload")

SeriesKind = Literal["measured", "quoted"]


class DataError(ValueError):
    """A transcription file that breaks the schema; the message names file, line and column."""


@dataclass(frozen=True)
class Cell:
    source: str
    table: str
    section: str
    kind: SeriesKind
    series: str
    series_en: str
    conditions: dict[str, str]
    workload_en: str
    axis: str
    level: int | None
    metric: str
    value: float | None  # None: the source did not measure this cell
    unit: str
    like_for_like: bool
    note: str


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


def _number(text: str, where: str) -> float | None:
    if text == "":
        return None
    try:
        value = float(text)
    except ValueError:
        raise DataError(f"{where}: '{text}' is not a number (leave the cell empty if the source did not measure it)")
    if not math.isfinite(value):
        raise DataError(f"{where}: '{text}' is not a finite number")
    return value


def _read(name: str, columns: tuple[str, ...]) -> list[tuple[str, dict[str, str]]]:
    path = ASSETS / name
    if not path.exists():
        raise DataError(f"{path}: missing transcription file")
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != columns:
            raise DataError(f"{name}: header must be {','.join(columns)}, got {','.join(reader.fieldnames or [])}")
        return [(f"{name}:{i}", row) for i, row in enumerate(reader, start=2)]


def _cell(where: str, row: dict[str, str]) -> Cell:
    for key in ("source", "table", "section", "kind", "series", "metric", "unit"):
        if not row[key]:
            raise DataError(f"{where}: column '{key}' is empty")
    if not SOURCE_RE.match(row["source"]):
        raise DataError(f"{where}: source '{row['source']}' is not an article file name like 001_<16 hex>.txt")
    if row["kind"] not in KINDS:
        raise DataError(f"{where}: kind '{row['kind']}' must be one of {sorted(KINDS)}")
    if row["unit"] not in UNITS:
        raise DataError(f"{where}: unit '{row['unit']}' is not one of {sorted(UNITS)}")
    if row["axis"] not in AXES:
        raise DataError(f"{where}: axis '{row['axis']}' must be concurrency, batch or empty")
    level = _number(row["level"], f"{where} level")
    if (level is None) != (row["axis"] == ""):
        raise DataError(f"{where}: a level needs an axis and an axis needs a level")
    if row["like_for_like"] not in ("", "yes"):
        raise DataError(f"{where}: like_for_like must be 'yes' or empty")
    return Cell(source=row["source"], table=row["table"], section=row["section"], kind=row["kind"],  # type: ignore[arg-type]
                series=row["series"], series_en=row["series_en"] or row["series"],
                conditions={k: row[k] for k in CONDITION_KEYS}, workload_en=row["workload_en"] or row["workload"],
                axis=row["axis"], level=None if level is None else int(level), metric=row["metric"],
                value=_number(row["value"], f"{where} value"), unit=row["unit"],
                like_for_like=row["like_for_like"] == "yes", note=row["note"])


@lru_cache(maxsize=1)
def cells() -> tuple[Cell, ...]:
    """Every transcribed cell, validated; cached (the files change only with a commit)."""
    out = tuple(_cell(where, row) for name in TIDY_FILES for where, row in _read(name, COLUMNS))
    seen: set[tuple] = set()
    for c in out:
        key = (c.table, c.series, tuple(c.conditions.values()), c.level, c.metric)
        if key in seen:
            raise DataError(f"duplicate cell {key}")
        seen.add(key)
    return out


def table_cells(table: str, metric: str | None = None) -> list[Cell]:
    found = [c for c in cells() if c.table == table and (metric is None or c.metric == metric)]
    if not found:
        raise KeyError(f"no transcribed cells for table {table!r}" + (f", metric {metric!r}" if metric else ""))
    return found


def cell(table: str, series: str, metric: str, workload: str = "") -> Cell:
    """The single cell of a table row (optionally of one workload)."""
    found = [c for c in table_cells(table, metric)
             if c.series == series and (not workload or c.conditions["workload"] == workload)]
    if len(found) != 1:
        raise KeyError(f"{len(found)} cells for {table}/{series}/{metric}/{workload!r}, expected one")
    return found[0]


def series(table: str, metric: str) -> list[Series]:
    """The table's rows along its axis, in file order, unmeasured cells kept as None."""
    rows: dict[str, list[Cell]] = {}
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


def recorded_series(points: Mapping[int, float | None], provenance: Mapping[str, str], label: str,
                    label_en: str = "") -> Series:
    """A recorded concurrency sweep (speedup of a speculative arm over its baseline) as just another series.

    provenance needs 'recording' (file) and should name engine, model, machine and date.
    """
    if not points:
        raise ValueError("a recorded sweep series needs at least one (concurrency → speedup) point")
    if any(int(k) != k or k < 1 for k in points):
        raise ValueError(f"concurrency levels must be whole numbers ≥ 1, got {sorted(points)}")
    if "recording" not in provenance:
        raise ValueError("provenance must name the recording file")
    conditions = {k: str(provenance.get(k, "")) for k in ("engine", "model", "machine", "date")}
    return Series(key=f"recording/{provenance['recording']}/{label}", label=label, label_en=label_en or label,
                  kind="measured", source=str(provenance["recording"]), section="", unit="×",
                  axis="concurrency", points=tuple(sorted((int(k), v) for k, v in points.items())),
                  conditions=conditions)


@dataclass(frozen=True)
class Reference:
    """A measured acceptance length (a single value or a low–high range) with where it comes from."""

    label: str
    label_en: str
    low: float
    high: float
    source: str
    section: str


def acceptance_references() -> list[Reference]:
    out = []
    by_row: dict[tuple[str, str], dict[str, Cell]] = {}
    for c in table_cells("acceptance_length"):
        by_row.setdefault((c.source, c.series), {})[c.metric] = c
    for (source, _), m in by_row.items():
        single = m.get("acceptance_length")
        lo, hi = (single, single) if single else (m["acceptance_length_min"], m["acceptance_length_max"])
        assert lo.value is not None and hi.value is not None, f"acceptance length of {lo.series} is empty"
        out.append(Reference(label=lo.series, label_en=lo.series_en, low=lo.value, high=hi.value,
                             source=source, section=lo.section))
    return out


@dataclass(frozen=True)
class MathRow:
    alpha: float
    c: float
    gamma: int
    expected_tokens: float
    speedup: float
    compute: float
    source: str
    section: str


def _required(text: str, where: str) -> float:
    value = _number(text, where)
    if value is None:
        raise DataError(f"{where}: required, got an empty cell")
    return value


@lru_cache(maxsize=1)
def speculative_math() -> tuple[MathRow, ...]:
    """Article 004's worked α / c / γ table (used to check theory.py, and shown as quoted)."""
    out = []
    for where, row in _read(MATH_FILE, MATH_COLUMNS):
        if not SOURCE_RE.match(row["source"]):
            raise DataError(f"{where}: source '{row['source']}' is not an article file name")
        num = {k: _required(row[k], f"{where} {k}") for k in ("alpha", "c", "gamma", "expected_tokens", "speedup",
                                                                "compute")}
        out.append(MathRow(alpha=num["alpha"], c=num["c"], gamma=int(num["gamma"]), expected_tokens=num["expected_tokens"],
                           speedup=num["speedup"], compute=num["compute"], source=row["source"], section=row["section"]))
    return tuple(out)


@dataclass(frozen=True)
class Step:
    """One rung of a ladder: a measured rate and its computed multipliers."""

    label: str
    label_en: str
    value: float
    vs_previous: float | None  # computed: this / previous rung
    vs_first: float | None  # computed: this / first rung
    cell: Cell


def ladder(table: str, metric: str = "decode_rate", workload: str | None = None,
           series_names: list[str] | None = None) -> list[Step]:
    """The table's rungs in file order (or in series_names order), with step and total multipliers."""
    cs = [c for c in table_cells(table, metric) if workload is None or c.conditions["workload"] == workload]
    if series_names is not None:
        by = {c.series: c for c in cs}
        missing = [n for n in series_names if n not in by]
        if missing:
            raise KeyError(f"{table}: no rung named {missing}")
        cs = [by[n] for n in series_names]
    steps: list[Step] = []
    for c in cs:
        if c.value is None:
            raise DataError(f"{table}/{c.series}: a ladder rung has no measured value")
        prev = steps[-1].value if steps else None
        first = steps[0].value if steps else None
        steps.append(Step(label=c.series, label_en=c.series_en, value=c.value,
                          vs_previous=theory.ratio(c.value, prev) if prev else None,
                          vs_first=theory.ratio(c.value, first) if first else None, cell=c))
    return steps


def workloads(table: str) -> list[tuple[str, str]]:
    """(Korean, English) workload names of a table, in file order."""
    seen: dict[str, str] = {}
    for c in table_cells(table):
        seen.setdefault(c.conditions["workload"], c.workload_en)
    return list(seen.items())


def recorded_sweeps(folder: Path | None = None) -> tuple[list[Series], list[str], list[str]]:
    """Every speculative arm x prompt mix of every sweep recording in `folder` (default: the recording folders,
    specreplay.locations), as two series of paired speedups
    over its baseline: system throughput, then per-request decode (median tok/s).

    A recording is a sweep when some non-warm-up run has concurrency > 1. Returns the series; one message
    per recording that could not be read (shown, not raised: one bad file must not hide the article data);
    and one message per level left out because it is not like-for-like, with its measured values.
    """
    paths = sorted(folder.glob("*.jsonl")) if folder else recording_files()
    files = tuple((p, p.stat().st_mtime_ns, p.stat().st_size) for p in paths)
    series, problems, excluded = _recorded_sweeps(files)
    return list(series), list(problems), list(excluded)


def _ratio_text(x: float | None) -> str:
    return f"{x:.2f}×" if x is not None else "—"


@lru_cache(maxsize=8)
def _recorded_sweeps(files: tuple[tuple[Path, int, int], ...]) -> tuple[tuple[Series, ...], tuple[str, ...], tuple[str, ...]]:
    """recorded_sweeps, cached on the files' (path, mtime, size): reading the bundled sweep takes ~0.2 s, too slow
    for every slider move; a new or rewritten recording changes the key and is read again."""
    from specreplay.format import RecordingError, engine_name, load
    from specreplay.sweeps import pair_rows

    out: list[Series] = []
    problems: list[str] = []
    excluded: list[str] = []
    for path, _, _ in files:
        try:
            rec = load(path)
        except (RecordingError, OSError) as e:
            problems.append(str(e))
            continue
        if rec.timing_only or not any(r.concurrency > 1 and not r.warmup for r in rec.runs):
            continue  # timing-only sweeps (dummy weights) compare quantizations, not speculative decoding
        curves: dict[tuple[str, str | None], dict[str, dict[int, float | None]]] = {}
        unchecked: set[tuple[str, str | None]] = set()
        for row in pair_rows(rec):
            s, stats = row.speedup, row.stats
            if not row.checkable:
                unchecked.add((s.arm, s.mix))
            # Like-for-like rule (sweeps.like_for_like): where batching changed the speculative arm's greedy text
            # more than the baseline's, the two arms did different work, so the level is not plotted; its measured
            # values are listed instead.
            differs = not row.like_for_like
            if differs:
                where = " · ".join(x for x in (path.name, s.arm, s.mix, str(s.concurrency)) if x)
                excluded.append(f"{where}: {stats.greedy_diverged}/{stats.greedy_runs} greedy runs changed by "
                                f"batching (baseline {row.base.greedy_diverged}/{row.base.greedy_runs}); system "
                                f"{_ratio_text(s.throughput)}, per-request {_ratio_text(s.decode)} not plotted")
            c = curves.setdefault((s.arm, s.mix), {"throughput": {}, "decode": {}})
            c["throughput"][s.concurrency] = None if differs or s.throughput is None else round(s.throughput, 2)
            c["decode"][s.concurrency] = None if differs or s.decode is None else round(s.decode, 2)
        for (arm_id, mix), by_metric in curves.items():
            arm = rec.arm(arm_id)
            base = f"{arm.get('label', arm_id)} ÷ {rec.arm(str(arm.get('baseline'))).get('label', '')}"
            mix_ko = f" · {mix}" if mix else ""
            note = (" · 텍스트 확인 불가 (샘플링)", " · text not checkable (sampled)") if (arm_id, mix) in unchecked \
                else ("", "")
            for metric, (ko, en) in (("throughput", ("시스템 처리량", "system throughput")),
                                     ("decode", ("요청당 디코드", "per-request decode"))):
                out.append(recorded_series(by_metric[metric], {
                    "recording": path.name,
                    "engine": engine_name(arm),
                    "model": str(arm.get("model", "")),
                    "machine": rec.machine_line,
                    "date": str(rec.header.get("created", "")),
                }, label=f"{base}{mix_ko} · {ko}{note[0]}", label_en=f"{base}{mix_ko} · {en}{note[1]}"))
    return tuple(out), tuple(problems), tuple(excluded)
