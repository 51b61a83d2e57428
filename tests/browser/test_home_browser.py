"""/home in a real browser: the start page, not Streamlit's "page not found" box (the start page is served at /)."""


def test_home_path_opens_the_start_page_without_page_not_found(app_url: str, page) -> None:
    page.goto(f"{app_url}/home?lang=en")
    page.get_by_text("Several times faster — and when it isn't").wait_for(timeout=30_000)
    page.get_by_text("Six kinds of numbers").wait_for(timeout=30_000)
    page.wait_for_timeout(1500)  # the not-found dialog, when there is one, comes with the first page render
    assert page.get_by_text("Page not found").count() == 0
    assert page.get_by_role("dialog").count() == 0
    assert page.url.split("?")[0].rstrip("/") == app_url and "lang=en" in page.url


def test_chooser_in_real_browser(app_url: str, page) -> None:
    page.goto(f"{app_url}/chooser?lang=en")
    page.get_by_text("Which speculative decoding to turn on").first.wait_for(timeout=30_000)
    page.get_by_text("yes", exact=True).first.click()  # the output copies the input
    page.get_by_text("PLD · CNN/DM (summarization) · temperature 0: 2.42×").first.wait_for(timeout=30_000)
    assert page.get_by_text("Page not found").count() == 0
