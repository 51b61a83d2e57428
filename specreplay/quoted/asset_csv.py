"""The transcribed CSV files in assets/: how one is read and the checks every one of them shares.

The articles' tables (specreplay.quoted.article_tables), the article list (specreplay.quoted.articles) and the chooser's rules
(specreplay.explain.chooser) read their files here, so neither of them imports the other for the plumbing.
"""

from __future__ import annotations

import csv
import re

from specreplay import resources

ASSETS = resources.ASSETS
KEY_RE = re.compile(r"^[a-z0-9_]+$")
HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")
SOURCE_RE = re.compile(r"^\d{3}_[0-9a-f]{16}\.txt$")  # an article file: 001_<16 hex>.txt


class DataError(ValueError):
    """A transcription file that breaks the schema; the message names file, line and column."""


def read_rows(name: str, columns: tuple[str, ...]) -> list[tuple[str, dict[str, str]]]:
    """Every row of assets/<name> with where it is ("file.csv:3"); DataError unless the header is `columns`."""
    path = ASSETS / name
    if not path.exists():
        raise DataError(f"{path}: missing transcription file")
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if tuple(reader.fieldnames or ()) != columns:
            raise DataError(f"{name}: header must be {','.join(columns)}, got {','.join(reader.fieldnames or [])}")
        return [(f"{name}:{i}", row) for i, row in enumerate(reader, start=2)]
