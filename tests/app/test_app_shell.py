"""The app shell in AppTest: every page loads without an exception, in both languages (tests/browser: in chromium)."""

import re
from pathlib import Path

import pytest

from specreplay import languages
from specreplay.views import pages
from tests.apptest_helpers import open_page
from tests.browser_fixtures import ROOT

PAGES = [p.name for p in pages.PAGES]


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("name", PAGES)
def test_page_renders_without_exception(name: str, lang: str) -> None:
    at = open_page(name, lang)
    assert not at.exception, at.exception


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_navigation_and_the_start_page_list_the_page_registry(lang: str) -> None:
    """specreplay/views/pages.py is the one page list: the sidebar shows its pages in its order with their titles and icons
    (AppTest keeps what st.navigation registered), and the start page links every other page in that order."""
    at = open_page("home", lang)
    shown = [(p["page_name"], p["icon"], p["script_path"]) for p in at._registered_pages.values()
             if p["script_path"] and p["script_path"] != pages.DOCS.file]  # the docs page is registered hidden
    assert shown == [(languages.text(lang, f"pages.{p.name}"), p.icon, p.file) for p in pages.PAGES]
    explore = [(link.proto.page, link.proto.icon) for link in at.get("page_link")][-(len(pages.PAGES) - 1):]
    assert explore == [(p.url_path, p.icon) for p in pages.PAGES if p != pages.START]


def test_the_page_registry_is_whole() -> None:
    """Every page has a script, an address of its own and a title in both languages (English without Hangul)."""
    assert len({p.name for p in pages.PAGES}) == len({p.url_path for p in pages.PAGES} | {"home"}) - 1
    for p in pages.PAGES:
        assert Path(p.file).is_file(), p
        assert all(languages.text(lang, f"pages.{p.name}").strip() for lang in languages.LANGUAGES), p
        assert not re.search("[\uac00-\ud7a3]", languages.text("en", f"pages.{p.name}")), p
    assert pages.START.name == "home" and pages.START.url_path != "home"  # /home is the shell's hidden redirect


def test_landing_page_speaks_the_chosen_language() -> None:
    assert "faster" in open_page("home", "en").title[0].value
    assert "빨라지는" in open_page("home", "ko").title[0].value


def test_no_pages_folder_next_to_a_main_script() -> None:
    """Streamlit would run a page in a pages/ folder beside the main script without the shell (docs/architecture.md,
    "Why specreplay/views/"): app.py in a checkout, specreplay/views/shell.py under `specreplay app`."""
    for main_script in (ROOT / "app.py", ROOT / "specreplay/views/shell.py"):
        assert main_script.is_file() and not (main_script.parent / "pages").exists()


def test_the_favicon_is_served_by_the_app_itself(monkeypatch) -> None:
    """A ":material/…:" page icon makes Streamlit point every visitor's browser at fonts.gstatic.com for the favicon;
    the app's own PNG is served from the app's /media/ path, so no request leaves the browser for it."""
    from streamlit.commands import page_config

    seen: list[str] = []
    real = page_config._get_favicon_string
    monkeypatch.setattr(page_config, "_get_favicon_string", lambda icon: seen.append(real(icon)) or seen[-1])
    at = open_page("home", "en")
    assert not at.exception and seen
    # AppTest's media manager answers /mock/media/…; a real server /media/…: a path on the app's own origin
    assert all(url.startswith(("/media/", "/mock/media/")) and url.endswith(".png") for url in seen), seen
