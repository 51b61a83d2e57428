"""A bundled recording's title in the reader's language. A recording names itself in English (its header's `title`);
assets/recording_titles.csv holds the bundled files' titles in the other data column, read through
languages.localized like every bilingual data file. Any other file (an upload, a new recording) keeps its own.

    title(rec, "ko")   # of recordings/smollm2-vllm-cpu.jsonl: 'SmolLM2-135M, vLLM CPU: 기준 대 ngram k=4'
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from specreplay.languages import Lang, localized
from specreplay.quoted.asset_csv import read_rows
from specreplay.recording.format import Recording

FILE = "recording_titles.csv"


@lru_cache(maxsize=1)
def _titles() -> dict[str, dict[str, str]]:
    return {row["file"]: row for _, row in read_rows(FILE, ("file", "title_ko"))}


def title(rec: Recording, lang: Lang) -> str:
    """The recording's title in `lang`: the bundled file's translation where one is listed, else its own."""
    return title_for(Path(rec.path).name, rec.title, lang)


def title_for(file: str, own: str, lang: Lang) -> str:
    """The title of the file named `file` (its own title `own`) in `lang`."""
    row = _titles().get(file)
    return localized({**row, "title": own}, "title", lang) if row else own
