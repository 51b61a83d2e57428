"""The source articles' tables, transcribed into assets/*.csv: loaded, validated, looked up.

One loader reads the tidy CSVs (one row per table cell; an empty value is a cell
the article did not measure) and checks every column and unit; nothing here fills
a gap. Also the shapes pages read a table in: a ladder's rungs with their
multipliers, the quoted acceptance lengths, and article 004's worked α / c / γ
table. See assets/README.md for the files.

    cell("ladder_overall", "① 원본", "decode_rate").value   # 97.1
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from specreplay.explain.derived import ratio
from specreplay.quoted.articles import originals
from specreplay.quoted.asset_csv import HANGUL, KEY_RE, SOURCE_RE, DataError, read_rows

TIDY_FILES = ("articles_measured.csv", "quoted_h200_relative_throughput.csv", "quoted_methods.csv")
MATH_FILE = "quoted_speculative_math.csv"
COLUMNS = ("source", "table", "section", "section_en", "kind", "key", "series", "series_en", "hardware", "model",
           "model_en", "engine", "engine_en", "temperature", "temperature_en", "workload", "workload_en", "axis",
           "level", "metric", "value", "unit", "like_for_like", "original", "note")
MATH_COLUMNS = ("source", "table", "section", "section_en", "kind", "alpha", "c", "gamma", "expected_tokens",
                "speedup", "compute", "unit", "original", "note")
UNITS = {"tok/s", "×", "× BF16", "s", "ms", "%", "USD/h", "USD", "sessions", "tokens", "bytes", "GB", "count",
         "share"}
# measured: the article's authors measured it; quoted: the article cites someone else's measurement;
# computed: the article's own arithmetic on figures it printed (a ratio, a cost, a conversion).
KINDS = {"measured", "quoted", "computed"}
# Columns shown on English pages: where the Korean text has Hangul, its _en column must hold the English.
EN_PAIRS = (("section", "section_en"), ("series", "series_en"), ("model", "model_en"), ("engine", "engine_en"),
            ("temperature", "temperature_en"), ("workload", "workload_en"))
AXES = {"", "concurrency", "batch"}
CONDITION_KEYS = ("hardware", "model", "engine", "temperature", "workload")

SeriesKind = Literal["measured", "quoted", "computed"]


@dataclass(frozen=True)
class TableCell:
    """One cell of a source article's table (one CSV row)."""

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
    key: str = ""  # stable id of the row (ASCII), for code to look rows up by; series is the printed label
    section_en: str = ""
    conditions_en: dict[str, str] = field(default_factory=dict)
    original: str = ""  # id in assets/original_sources.csv where the article quotes someone else's table

    @property
    def workload(self) -> str:
        """The workload's Korean column, beside workload_en (languages.localized reads the pair)."""
        return self.conditions["workload"]


def _number(text: str, where: str) -> float | None:
    if text == "":
        return None
    try:
        value = float(text)
    except ValueError:
        raise DataError(f"{where}: '{text}' is not a number "
                        "(leave the cell empty if the source did not measure it)") from None
    if not math.isfinite(value):
        raise DataError(f"{where}: '{text}' is not a finite number")
    return value


def _cell(where: str, row: dict[str, str]) -> TableCell:
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
    if not KEY_RE.match(row["key"]):
        raise DataError(f"{where}: key '{row['key']}' must be a stable id of a-z, 0-9 and _")
    _check_english(where, row)
    _check_original(where, row["original"])
    en = {k: row[f"{k}_en"] or row[k] for k in CONDITION_KEYS if k != "hardware"}
    return TableCell(source=row["source"], table=row["table"], section=row["section"], kind=row["kind"],  # type: ignore[arg-type]
                series=row["series"], series_en=row["series_en"] or row["series"],
                conditions={k: row[k] for k in CONDITION_KEYS}, workload_en=row["workload_en"] or row["workload"],
                axis=row["axis"], level=None if level is None else int(level), metric=row["metric"],
                value=_number(row["value"], f"{where} value"), unit=row["unit"],
                like_for_like=row["like_for_like"] == "yes", note=row["note"], key=row["key"],
                section_en=row["section_en"], conditions_en={"hardware": row["hardware"], **en},
                original=row["original"])


def _check_english(where: str, row: dict[str, str]) -> None:
    """English pages show the _en columns: required where the Korean has Hangul, and free of Hangul themselves."""
    for ko, en in EN_PAIRS:
        if HANGUL.search(row.get(en, "")):
            raise DataError(f"{where}: column '{en}' has Korean text; write it in English")
        if HANGUL.search(row.get(ko, "")) and not row.get(en):
            raise DataError(f"{where}: column '{ko}' is Korean, so '{en}' needs its English")
    if HANGUL.search(row.get("hardware", "")):
        raise DataError(f"{where}: column 'hardware' has Korean text; it has no English column")


def _check_original(where: str, original: str) -> None:
    if original and original not in originals():
        raise DataError(f"{where}: original '{original}' is not an id in assets/original_sources.csv")


@lru_cache(maxsize=1)
def cells() -> tuple[TableCell, ...]:
    """Every transcribed cell, validated; cached (the files change only with a commit)."""
    out = tuple(_cell(where, row) for name in TIDY_FILES for where, row in read_rows(name, COLUMNS))
    seen: set[tuple] = set()
    for c in out:
        key = (c.table, c.series, tuple(c.conditions.values()), c.level, c.metric)
        if key in seen:
            raise DataError(f"duplicate cell {key}")
        seen.add(key)
    return out


def table_cells(table: str, metric: str | None = None) -> list[TableCell]:
    found = [c for c in cells() if c.table == table and (metric is None or c.metric == metric)]
    if not found:
        raise KeyError(f"no transcribed cells for table {table!r}" + (f", metric {metric!r}" if metric else ""))
    return found


def cell(table: str, series: str, metric: str, workload: str = "") -> TableCell:
    """The single cell of a table row (optionally of one workload); series is the row's key or its printed label."""
    found = [c for c in table_cells(table, metric)
             if series in (c.key, c.series) and (not workload or c.conditions["workload"] == workload)]
    if len(found) != 1:
        raise KeyError(f"{len(found)} cells for {table}/{series}/{metric}/{workload!r}, expected one")
    return found[0]


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
    by_row: dict[tuple[str, str], dict[str, TableCell]] = {}
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
    section_en: str = ""
    original: str = ""
    kind: SeriesKind = "computed"


def _required(text: str, where: str) -> float:
    value = _number(text, where)
    if value is None:
        raise DataError(f"{where}: required, got an empty cell")
    return value


@lru_cache(maxsize=1)
def speculative_math() -> tuple[MathRow, ...]:
    """Article 004's worked α / c / γ table (the article's own arithmetic; used to check theory.py)."""
    out = []
    for where, row in read_rows(MATH_FILE, MATH_COLUMNS):
        if not SOURCE_RE.match(row["source"]):
            raise DataError(f"{where}: source '{row['source']}' is not an article file name")
        if row["kind"] not in KINDS:
            raise DataError(f"{where}: kind '{row['kind']}' must be one of {sorted(KINDS)}")
        _check_english(where, row)
        _check_original(where, row["original"])
        num = {k: _required(row[k], f"{where} {k}") for k in ("alpha", "c", "gamma", "expected_tokens", "speedup",
                                                                "compute")}
        out.append(MathRow(alpha=num["alpha"], c=num["c"], gamma=int(num["gamma"]), expected_tokens=num["expected_tokens"],
                           speedup=num["speedup"], compute=num["compute"], source=row["source"], section=row["section"],
                           section_en=row["section_en"], original=row["original"], kind=row["kind"]))  # type: ignore[arg-type]
    return tuple(out)


@dataclass(frozen=True)
class Step:
    """One rung of a ladder: a measured rate and its computed multipliers."""

    label: str
    label_en: str
    value: float
    vs_previous: float | None  # computed: this / previous rung
    vs_first: float | None  # computed: this / first rung
    cell: TableCell


def ladder(table: str, metric: str = "decode_rate", workload: str | None = None,
           series_names: list[str] | None = None) -> list[Step]:
    """The table's rungs in file order (or in series_names order: each a row's stable key, or its printed label),
    with step and total multipliers."""
    cs = [c for c in table_cells(table, metric) if workload is None or c.conditions["workload"] == workload]
    if series_names is not None:
        by = {**{c.series: c for c in cs}, **{c.key: c for c in cs}}
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
                          vs_previous=ratio(c.value, prev), vs_first=ratio(c.value, first), cell=c))
    return steps


def workloads(table: str) -> list[dict[str, str]]:
    """A table's workload names, in file order, each as its data columns {"workload": …, "workload_en": …} (read
    through languages.localized)."""
    seen: dict[str, str] = {}
    for c in table_cells(table):
        seen.setdefault(c.conditions["workload"], c.workload_en)
    return [{"workload": ko, "workload_en": en} for ko, en in seen.items()]
