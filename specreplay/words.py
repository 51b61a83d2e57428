"""The words the player, the video and the HTML export show: the `words` table of each language file
(specreplay.languages). A page's own sentences live in its own table, read through views.texts; words that more than
one renderer shows, or that a renderer outside Streamlit needs, live in `words` once.
"""

from __future__ import annotations

from specreplay import languages
from specreplay.languages import Lang

# The language the recordings' arm labels are written in: arm_label swaps its `arm_words` for the reader's.
RECORDED_IN = "en"

# The keys the browser player reads (its payload carries just these).
PLAYER_KEYS = ("play", "pause", "restart", "speed", "bursts", "tokens", "elapsed", "rate", "ttft", "waiting",
               "finished", "ratio", "vs", "reference", "system", "level", "keys", "measured", "timing_only", "simulated", "imported",
               "chunks", "chunk_rate", "speed_real", "speed_slow", "speed_fast")


def arm_label(label: str, lang: Lang) -> str:
    """An arm's label in `lang`: the recording's own (English) label with each of its terms (the `arm_words` table,
    longest phrase first) said in `lang`."""
    for key, term in languages.table(RECORDED_IN, "arm_words").items():
        label = label.replace(term, languages.table(lang, "arm_words")[key])
    return label


def word(key: str, lang: Lang) -> str:
    return languages.text(lang, f"words.{key}")


def words(keys: tuple[str, ...], lang: Lang) -> dict[str, str]:
    return {key: word(key, lang) for key in keys}
