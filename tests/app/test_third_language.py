"""A language is one file plus its code in one list (issue 32 item 5): English copied to xx.toml under its own name,
and "xx" added to LANGUAGES, shows every page, the switch, the player's words, a video frame and the HTML export,
with no other change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from specreplay import languages
from specreplay.views import pages
from tests.apptest_helpers import open_page

XX_NAME = "Xx-lingo"


@pytest.fixture(autouse=True)
def third_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for code in languages.LANGUAGES:
        shutil.copy(languages.DIRECTORY / f"{code}.toml", tmp_path / f"{code}.toml")
    english = (languages.DIRECTORY / "en.toml").read_text(encoding="utf-8")
    assert english.count('name = "English"') == 1
    (tmp_path / "xx.toml").write_text(english.replace('name = "English"', f'name = "{XX_NAME}"'), encoding="utf-8")
    monkeypatch.setattr(languages, "DIRECTORY", tmp_path)
    monkeypatch.setattr(languages, "LANGUAGES", (*languages.LANGUAGES, "xx"))


@pytest.mark.parametrize("name", [p.name for p in pages.PAGES])
def test_every_page_shows_in_the_third_language(name: str) -> None:
    at = open_page(name, "xx")
    assert not at.exception, at.exception
    assert at.title[0].value == languages.text("en", f"{name}.title")
    shown = [p["page_name"] for p in at._registered_pages.values() if p["script_path"]]
    assert shown == [languages.text("en", f"pages.{p.name}") for p in (*pages.PAGES, pages.DOCS)]
    switch = at.sidebar.radio[0]
    assert switch.value == "xx" and switch.options[-1] == XX_NAME
    assert at.query_params["lang"] == "xx"


def test_the_player_the_video_and_the_export_speak_it() -> None:
    from specreplay.recording import catalogue
    from specreplay.replay.export_html import export_recording
    from specreplay.replay.payload import player_payload
    from specreplay.replay.selection import selection
    from specreplay.resources import RECORDINGS
    from specreplay.video.draw import FrameDrawer
    from specreplay.words import word

    rec = catalogue.recording(RECORDINGS / "qwen-coder-1.5b-llamacpp-cpu.jsonl")
    sel = selection(rec)
    panes = {lang: sel.panes(rec, word("simulated", lang)) for lang in ("xx", "en")}
    payload = {lang: player_payload(panes[lang], lang=lang) for lang in ("xx", "en")}
    assert payload["xx"]["labels"] == payload["en"]["labels"]
    assert payload["xx"]["panes"] == payload["en"]["panes"]
    assert word("export_note", "en") in export_recording(rec, sel, "xx")
    frames = {lang: FrameDrawer(panes[lang], 640, 360, lang=lang) for lang in ("xx", "en")}
    drawn = {lang: f.draw(f.state(2_000_000)) for lang, f in frames.items()}
    assert (drawn["xx"] == drawn["en"]).all()
