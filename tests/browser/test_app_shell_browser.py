"""The app shell in a real browser: links, the language across pages and in the sidebar, embedded mode, a deep link."""

from tests.browser_fixtures import streamlit_server


def test_landing_page_in_real_browser(app_url: str, page) -> None:
    page.goto(f"{app_url}/?lang=en")
    page.get_by_text("Several times faster — and when it isn't").wait_for(timeout=30_000)
    page.get_by_role("link", name="Arms recorded separately").first.click()
    page.wait_for_url("**/replay**", timeout=30_000)


def test_language_survives_page_switch_in_real_browser(app_url: str, page) -> None:
    page.goto(f"{app_url}/?lang=en")
    page.get_by_text("Several times faster — and when it isn't").wait_for(timeout=30_000)
    page.get_by_role("link", name="Arms recorded separately").first.click()
    page.wait_for_url("**/replay**", timeout=30_000)
    page.get_by_text("Side-by-side replay").first.wait_for(timeout=30_000)
    assert "lang=en" in page.url


def test_switching_language_in_the_sidebar_changes_the_page(app_url: str, page) -> None:
    page.goto(f"{app_url}/")
    page.get_by_text("빨라지는 이유").first.wait_for(timeout=30_000)
    page.get_by_text("English").click()
    page.get_by_text("Several times faster — and when it isn't").wait_for(timeout=30_000)


def test_embedded_page_hides_the_intro_in_real_browser(app_url: str, page) -> None:
    title = "h1:has-text('Acceptance rate & draft length')"
    page.goto(f"{app_url}/acceptance?embed=true&lang=en")
    page.locator("[data-testid='stSlider']").first.wait_for(timeout=30_000)
    assert page.locator(title).count() == 0
    page.goto(f"{app_url}/acceptance?lang=en")
    page.locator(title).first.wait_for(timeout=30_000)


def test_deep_link_on_a_fresh_server_runs_the_app_shell(page) -> None:
    """A blog iframe's first request is a deep link; it must still get app.py's navigation and language."""
    with streamlit_server() as url:
        page.goto(f"{url}/acceptance?lang=en")
        page.get_by_text("Acceptance rate & draft length").first.wait_for(timeout=30_000)
        page.get_by_text("언어 / Language").wait_for(timeout=30_000)  # the shell's sidebar
        assert page.get_by_role("link", name="Side-by-side replay").count() == 1  # titles, not file names
