"""Every page's text home: each key has Korean and English, the English has no Hangul, and a formatted text's
placeholders are the same in both languages."""

import importlib
import re

import pytest

HANGUL = re.compile("[\uac00-\ud7a3]")
HOMES = ["home_text", "acceptance_text", "concurrency_text", "ladder_text", "cost_text", "chooser_text"]


@pytest.mark.parametrize("home", HOMES)
def test_each_text_has_both_languages_with_the_same_placeholders(home: str) -> None:
    texts = importlib.import_module(f"specreplay.views.{home}").TEXT
    assert texts
    for key, (ko, en) in texts.items():
        assert ko.strip() and en.strip(), key
        assert not HANGUL.search(en), key
        assert set(re.findall(r"\{(\w+)", ko)) == set(re.findall(r"\{(\w+)", en)), key
