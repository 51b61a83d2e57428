"""A page's words: each page's sentences are one table of the language files (assets/lang/<code>.toml, read through
specreplay.languages), and the page asks for them by key (`T("title")`, `T("between", a=4, b=8)`) in the reader's
language, never writing a sentence inline."""

from __future__ import annotations

from specreplay import languages
from specreplay.views.ui import lang


class Texts:
    def __init__(self, home: str):
        self.home = home  # the table's name, e.g. "acceptance"

    def __call__(self, key: str, **values: object) -> str:
        return languages.text(lang(), f"{self.home}.{key}", **values)

    def __contains__(self, key: str) -> bool:
        return key in languages.table(lang(), self.home)
