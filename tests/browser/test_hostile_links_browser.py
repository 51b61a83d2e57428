"""Crafted share links in a real browser: their text shows as text, never as a link, an image or a traceback."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

EVIL = "https://evil.example/login"
PIXEL = "http://127.0.0.1:9/pixel.png"


def test_share_link_text_cannot_become_a_link_an_image_or_a_traceback(page, app_url: str) -> None:
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    query = urlencode({
        "lang": "en",
        "recording": f"[log in again]({EVIL})",
        "arms": f"![x]({PIXEL}),sim:200/1e12/0.7/5/600,sim:200/inf/0.7/5/600",
        "speed": f"**[fast]({EVIL})**",
    })
    page.goto(f"{app_url}/replay?{query}")
    page.wait_for_selector("[data-testid='stAlertContentWarning']", timeout=120_000)
    page.wait_for_timeout(1500)  # let every warning of the run arrive
    body = page.inner_text("body")
    assert "log in again" in body and "TTFT must be 0–30 s" in body
    assert page.locator(f"a[href^='{EVIL}']").count() == 0
    assert page.locator("img[src*='127.0.0.1:9']").count() == 0
    assert not [u for u in requests if urlsplit(u).netloc in ("evil.example", "127.0.0.1:9")]
    assert page.locator("[data-testid='stException']").count() == 0
    assert "Traceback" not in body and "/work/" not in body
