"""Who wrote the source articles, and one line that cites a figure: article, section, original source, conditions.

The pages never show an article's file name (000_<hash>.txt): they show its title and byline
(assets/articles.csv) and, where the article quotes someone else's table, that table
(assets/original_sources.csv). Both files are validated like the tidy tables (DataError).

    cite(cell, "en")  # 'article 004 "Speculative decoding: which method is how fast" · … · original: EAGLE-3 paper …'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from specreplay import languages
from specreplay.languages import localized
from specreplay.quoted.asset_csv import HANGUL, KEY_RE, SOURCE_RE, DataError, read_rows
from specreplay.recording.kinds import Kind

ARTICLES_FILE = "articles.csv"
ORIGINALS_FILE = "original_sources.csv"
ARTICLE_COLUMNS = ("id", "file", "title_ko", "title_en", "byline_ko", "byline_en", "date", "note")
ORIGINAL_COLUMNS = ("id", "name_ko", "name_en")


def shown_kind(item: Any) -> Kind:
    """The badge for an article table's cell or series (anything with .kind and .source): an article's own
    measurement is quoted here ("measured here" is our recorder only); a recorded series keeps "measured"."""
    kind = item.kind
    return "quoted" if kind == "measured" and SOURCE_RE.match(str(getattr(item, "source", ""))) else kind


@dataclass(frozen=True)
class Article:
    id: str  # "000" … "004", the file name's prefix
    file: str
    title_ko: str
    title_en: str
    byline_ko: str  # author or publisher; empty where the text names none
    byline_en: str
    date: str  # publication date; empty where the text gives none


@lru_cache(maxsize=1)
def articles() -> dict[str, Article]:
    """The source articles by file name, validated."""
    out: dict[str, Article] = {}
    for where, row in read_rows(ARTICLES_FILE, ARTICLE_COLUMNS):
        if not SOURCE_RE.match(row["file"]) or not row["file"].startswith(row["id"] + "_"):
            raise DataError(f"{where}: file '{row['file']}' must be <id>_<16 hex>.txt for id '{row['id']}'")
        for key in ("title_ko", "title_en"):
            if not row[key]:
                raise DataError(f"{where}: column '{key}' is empty")
        for key in ("title_en", "byline_en"):
            if HANGUL.search(row[key]):
                raise DataError(f"{where}: column '{key}' has Korean text; write it in English")
        if bool(row["byline_ko"]) != bool(row["byline_en"]):
            raise DataError(f"{where}: byline_ko and byline_en are both given or both empty")
        out[row["file"]] = Article(**{k: row[k] for k in ARTICLE_COLUMNS if k != "note"})
    return out


@lru_cache(maxsize=1)
def originals() -> dict[str, dict[str, str]]:
    """Tables the articles quote, by id: their name columns {"name_ko": …, "name_en": …} (languages.localized)."""
    out = {}
    for where, row in read_rows(ORIGINALS_FILE, ORIGINAL_COLUMNS):
        if not KEY_RE.match(row["id"]) or not row["name_ko"] or not row["name_en"]:
            raise DataError(f"{where}: needs an id of a-z, 0-9, _ and both names")
        if HANGUL.search(row["name_en"]):
            raise DataError(f"{where}: column 'name_en' has Korean text; write it in English")
        out[row["id"]] = {"name_ko": row["name_ko"], "name_en": row["name_en"]}
    return out


def article_name(file: str, lang: str) -> str:
    """'기사 001 「title」 (byline, date)' / 'article 001 "title" (byline, date)'."""
    a = articles().get(file)
    if a is None:
        raise KeyError(f"{file} is not in assets/{ARTICLES_FILE}")
    extra = ", ".join(x for x in (localized(a, "byline", lang), a.date) if x)
    title = languages.text(lang, "articles.article", id=a.id, title=localized(a, "title", lang))
    return title + (f" ({extra})" if extra else "")


def original_name(original: str, lang: str) -> str:
    return languages.text(lang, "articles.original", name=localized(originals()[original], "name", lang))


class Cited(Protocol):
    source: str
    section: str
    section_en: str
    original: str


def cite(item: Cited, lang: str, conditions: bool = True) -> str:
    """One plain-text source line for a cell, series, math row or data row of the articles: article title and byline,
    section, original source, then the conditions (in the page's language). A recorded series (its source is a
    recording, not an article) gets its own provenance."""
    if item.source not in articles():
        provenance = getattr(item, "provenance", None)
        return provenance() if provenance else item.source
    parts = [article_name(item.source, lang), localized(item, "section", lang)]
    if item.original:
        parts.append(original_name(item.original, lang))
    if conditions:
        cond = dict((localized(item, "conditions", lang) if hasattr(item, "conditions") else None) or {})
        if cond.get("temperature", "").replace(".", "", 1).isdigit():  # a bare number says nothing without its name
            cond["temperature"] = languages.text(lang, "articles.temperature", value=cond["temperature"])
        parts += [v for v in cond.values() if v]
    return " · ".join(p for p in parts if p)
