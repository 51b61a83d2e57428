"""The languages: one TOML file each (assets/lang/<code>.toml), every word the app, the player, the video, the
exports and the CLI show, by semantic key in one table per home of the text (`words`, `pages`, `acceptance`, ...).

A language is its file plus its code in LANGUAGES; nothing else names one. Its `[language]` table gives the name
the switch shows and which bilingual column of the data files (assets/*.csv: `title_ko`, `title_en`) it reads.

    text("en", "words.level", n=4)          # '4 concurrent'
    localized(rule, "why", "en")            # rule.why_en
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from specreplay.resources import ASSETS

LANGUAGES: tuple[str, ...] = ("ko", "en")  # the switch's order; the first is the default
DIRECTORY: Path = ASSETS / "lang"

Lang = str  # one of LANGUAGES


@cache
def _read(path: Path) -> dict[str, dict[str, str]]:
    with path.open("rb") as f:
        return tomllib.load(f)


def language(code: str) -> dict[str, dict[str, str]]:
    """All of a language's tables, read once; ValueError for a code not in LANGUAGES."""
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}: one of {', '.join(LANGUAGES)}")
    return _read(DIRECTORY / f"{code}.toml")


def table(lang: Lang, name: str) -> Mapping[str, str]:
    return language(lang)[name]


def text(lang: Lang, key: str, **values: object) -> str:
    """The text at `table.key` in `lang`, its {placeholders} filled from `values` (a template when none are given)."""
    home, _, name = key.partition(".")
    chosen = table(lang, home)[name]
    return chosen.format(**values) if values else chosen


def name(lang: Lang) -> str:
    """What the language switch shows: the language's own name for itself."""
    return table(lang, "language")["name"]


def data(lang: Lang) -> str:
    """Which bilingual column of the data files this language reads ("ko" or "en")."""
    return table(lang, "language")["data"]


def localized(item: object, field: str, lang: Lang) -> Any:
    """A bilingual data field in `lang`'s column: `<field>_<data>` where the item (an object or a CSV row) has it,
    else the bare `<field>`, which holds the other column (Korean in most data files: `series` / `series_en`)."""
    column = f"{field}_{data(lang)}"
    if isinstance(item, Mapping):
        return item[column] if column in item else item[field]
    return getattr(item, column) if hasattr(item, column) else getattr(item, field)
