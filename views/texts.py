"""A page's words in one place: each page keeps its Korean/English pairs in one `<page>_text.py` dict, and the
page asks for them by key (`T("title")`, `T("between", a=4, b=8)`), never writing a pair inline."""

from __future__ import annotations

from collections.abc import Mapping

from specreplay.views.ui import lang


class Texts:
    def __init__(self, pairs: Mapping[str, tuple[str, str]]):
        self.pairs = pairs

    def __call__(self, key: str, **values: object) -> str:
        ko, en = self.pairs[key]
        text = en if lang() == "en" else ko
        return text.format(**values) if values else text
