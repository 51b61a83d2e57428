"""The app shell in AppTest: every page loads without an exception, in both languages (tests/browser: in chromium)."""

import pytest

from tests.apptest_helpers import open_page
from tests.browser_fixtures import ROOT

PAGES = ["home", "replay", "acceptance", "concurrency", "ladder", "cost", "roofline"]


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("name", PAGES)
def test_page_renders_without_exception(name: str, lang: str) -> None:
    at = open_page(name, lang)
    assert not at.exception, at.exception


def test_landing_page_speaks_the_chosen_language() -> None:
    assert "faster" in open_page("home", "en").title[0].value
    assert "빨라지는" in open_page("home", "ko").title[0].value


def test_no_pages_folder_next_to_a_main_script() -> None:
    """Streamlit would run a page in a pages/ folder beside the main script without the shell (docs/architecture.md,
    "Why views/"): app.py in a checkout, views/shell.py under `specreplay app`."""
    for main_script in (ROOT / "app.py", ROOT / "views/shell.py"):
        assert main_script.is_file() and not (main_script.parent / "pages").exists()
