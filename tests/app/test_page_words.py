"""Fewer words (issue 30): every page answers in at most 700 words outside its expanders, in both languages
(tests/apptest_helpers.prose_words; docs/explainer.md lists each page's count from bench/page_words.py)."""

from __future__ import annotations

import pytest

from specreplay.views import pages
from tests.apptest_helpers import open_page, prose_words

PAGES = [p.name for p in pages.PAGES]
MAX_WORDS = 700


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("name", PAGES)
def test_a_page_keeps_to_700_words_outside_its_expanders(name: str, lang: str) -> None:
    at = open_page(name, lang)
    assert not at.exception
    assert 0 < prose_words(at.main) <= MAX_WORDS


def test_expanders_and_markup_are_not_counted() -> None:
    at = open_page("ladder", "en")
    assert at.expander and prose_words(at.expander[0]) == 0  # an expander counts for nothing, whatever it holds
    assert prose_words(at.caption[0]) < len(at.caption[0].value.split())  # badge markup and escapes dropped
