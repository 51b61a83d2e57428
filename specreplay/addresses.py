"""Public addresses of the sources behind the figures (assets/addresses.csv): the papers, vendor pages and documents
the articles cite, and the engines and models we recorded. A source with no known public address has no row: it
stays named, not linked."""

from __future__ import annotations

import csv
from functools import lru_cache

from specreplay import resources
from specreplay.languages import Lang, localized

FILE = resources.ASSETS / "addresses.csv"


@lru_cache(maxsize=1)
def _rows() -> tuple[dict[str, str], ...]:
    with FILE.open(newline="", encoding="utf-8") as f:
        return tuple(csv.DictReader(f))


def addresses() -> dict[str, str]:
    return {row["id"]: row["url"] for row in _rows()}


def addresses_named(lang: Lang) -> dict[str, str]:
    """id → what the address is, in the reader's language (`what`, `what_ko`: languages.localized)."""
    return {row["id"]: localized(row, "what", lang) for row in _rows()}


def address(source: str) -> str | None:
    """The public address of an original source (assets/original_sources.csv id), engine or model; None if unknown."""
    return addresses().get(source)


def link(label: str, source: str) -> str:
    """Markdown: the label linked to the source's address, or the label alone when none is known. The label must
    be Markdown-safe already."""
    url = address(source)
    return f"[{label}]({url})" if url else label
