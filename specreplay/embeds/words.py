"""The words of the exported charts: the app's own page tables where the chart shows the same thing, and the
`embeds` table for the few only an exported file needs (specreplay.languages)."""

from __future__ import annotations

from collections.abc import Callable

from specreplay import languages
from specreplay.languages import Lang

Say = Callable[..., str]


def say(home: str, lang: Lang) -> Say:
    """The words of one table in one language, by key, with values filled in: say("concurrency", "en")("col_at",
    level=8)."""
    def text(key: str, **values: object) -> str:
        return languages.text(lang, f"{home}.{key}", **values)
    return text
