"""The explainer pages in a real browser (Debian's chromium): moving a slider changes the chart."""

import pytest

from tests.browser_fixtures import LABELS_APART

# What each live chart (assets/explainer/live_chart.js) shows now: its current x, in page order.
CURRENT_X = """() => Array.from(document.querySelectorAll('[data-live-chart]')).map(d => Number(d.dataset.currentX))"""
CHART = "[data-live-chart] svg"


def test_moving_alpha_slider_moves_the_chart_point(app_url: str, page) -> None:
    page.goto(f"{app_url}/acceptance?lang=en")
    page.locator(CHART).first.wait_for(timeout=60_000)
    page.wait_for_function(f"() => ({CURRENT_X})()[0] === 0.8", timeout=30_000)
    thumb = page.get_by_role("slider", name="Acceptance rate α")
    thumb.focus()
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => ({CURRENT_X})()[0] === 0.77", timeout=30_000)
    # The curves follow too: the γ chart's current speedup is recomputed in the browser (theory.speedup(0.77, 5, 0.05) = 2.7533).
    ys = page.evaluate("() => JSON.parse(document.querySelectorAll('[data-live-chart]')[1].dataset.currentYs)")
    assert abs(ys[0] - 2.7533) < 1e-3, ys
    page.get_by_text("3.44", exact=True).first.wait_for(timeout=30_000)  # E[τ] at α 0.77, γ 5


def test_concurrency_slider_moves_the_marker_and_reads_measured_cells(app_url: str, page) -> None:
    page.goto(f"{app_url}/concurrency?lang=en&source=001")  # article 001: our llama.cpp sweep is the default
    page.locator(CHART).first.wait_for(timeout=60_000)
    page.wait_for_function(f"() => ({CURRENT_X})().includes(8)", timeout=30_000)
    page.get_by_role("slider", name="Concurrency (log scale)").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({CURRENT_X})().includes(16)", timeout=30_000)
    page.get_by_text("Read at 16, and where each crosses 1.0").wait_for(timeout=30_000)


def test_pages_work_embedded(app_url: str, page) -> None:
    for name in ("acceptance", "concurrency", "ladder", "cost"):
        page.goto(f"{app_url}/{name}?embed=true&lang=en")
        page.locator("[data-live-chart] svg, [data-testid=stMetric]").first.wait_for(timeout=60_000)
        assert page.locator("[data-testid=stException]").count() == 0, name


def test_quick_key_presses_keep_slider_and_chart_in_step(app_url: str, page) -> None:
    """Presses faster than the reruns: no "Cached ForwardMsg MISS" error dialog (it took focus from the slider
    in ~1 of 4 quick moves before .streamlit/config.toml's minCachedMessageSize), and the chart ends on the slider."""
    page.goto(f"{app_url}/acceptance?lang=en")
    page.locator(CHART).first.wait_for(timeout=60_000)
    thumb = page.get_by_role("slider", name="Acceptance rate α")
    thumb.focus()
    for n in range(48):  # two left, one right: ends 16 steps left
        page.keyboard.press("ArrowRight" if n % 3 == 2 else "ArrowLeft")
        page.wait_for_timeout(30 + (n % 7) * 20)  # land presses at different points of the rerun in flight
    page.wait_for_function(f"() => ({CURRENT_X})()[0] === 0.64", timeout=30_000)
    page.get_by_text("2.59", exact=True).first.wait_for(timeout=30_000)  # E[τ] at α 0.64, γ 5: the rerun caught up
    assert page.locator("[role=dialog]").count() == 0
    assert thumb.evaluate("e => e === document.activeElement")


def test_concurrency_chart_dots_and_labels_what_nobody_measured(app_url: str, page) -> None:
    """001's NVFP4 row: 1 → 4, 4 → 16 and 16 → 64 are thin dotted pieces titled with the levels in between nobody
    measured (its own empty cells 2 and 8; 32 is on the chart's axis); the legend says what dotted means; dot
    tooltips round to two decimals."""
    page.goto(f"{app_url}/concurrency?lang=en&source=001")  # article 001: our llama.cpp sweep is the default
    page.locator(CHART).first.wait_for(timeout=60_000)
    pieces = page.evaluate("""() => Array.from(document.querySelectorAll('[data-live-chart] svg path'))
        .filter(p => p.querySelector('title'))
        .map(p => [p.querySelector('title').textContent, p.getAttribute('stroke-dasharray'), p.getAttribute('stroke-width')])""")
    nvfp4 = [p for p in pieces if p[0].startswith("NVFP4-GPTQ · 131k · batch 256 · not measured between")]
    assert sorted(p[0].split(" · ")[-1] for p in nvfp4) == [
        "not measured between 1 and 4 (2)", "not measured between 16 and 64 (32)",
        "not measured between 4 and 16 (8)"]
    assert all(dash == "2 4" and width == "1" for _, dash, width in nvfp4)  # dotted and thin
    page.get_by_text("dotted: not measured in between").wait_for(timeout=30_000)
    tips = page.evaluate("() => Array.from(document.querySelectorAll('[data-live-chart] svg circle title')).map(t => t.textContent)")
    assert tips and not [t for t in tips if __import__("re").search(r"\d\.\d{3,}×", t)]


def test_acceptance_reference_bands_and_labels_never_overlap(app_url: str, page) -> None:
    """000's prose 2.2–2.5 and 001's free prose 2.2 sit on one height: their labels are stacked, not overprinted."""
    page.goto(f"{app_url}/acceptance?lang=en")
    page.locator(CHART).first.wait_for(timeout=60_000)
    chart = page.locator("[data-live-chart]").first
    assert chart.locator("rect.lc-band").count() == 4
    boxes = chart.locator("text.lc-ref-label").evaluate_all(
        "ts => ts.map(t => { const b = t.getBBox(); return [t.textContent, b.x, b.y, b.width, b.height]; })")
    assert sorted(b[0] for b in boxes) == ["code 5.3–5.6 (000) quoted", "copy 3.1 (001) quoted",
                                           "free prose 2.2 (001) quoted", "prose 2.2–2.5 (000) quoted"]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1] or a[2] + a[4] <= b[2] or b[2] + b[4] <= a[2]
            assert apart, (a, b)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_acceptance_band_labels_stay_apart_on_a_phone(browser, app_url: str, lang: str) -> None:
    """At 390 px a band says only its value, at the left edge, its full label in the legend: no label over another
    or over a cell (the full labels ran over both)."""
    ctx = browser.new_context(viewport={"width": 390, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(f"{app_url}/acceptance?lang={lang}")
        chart = page.locator("[data-live-chart=etau_chart]")
        chart.locator("svg .lc-ref-label").first.wait_for(timeout=60_000)
        assert sorted(chart.locator("text.lc-ref-label").all_text_contents()) == ["2.2", "2.2–2.5", "3.1", "5.3–5.6"]
        legend = " ".join(chart.locator(".lc-legend").all_text_contents())
        assert ("copy 3.1 (001) quoted" if lang == "en" else "(001) 인용") in legend
        assert not page.evaluate(LABELS_APART)
    finally:
        ctx.close()


def test_a_closed_table_is_filled_when_the_reader_opens_it(app_url: str, page) -> None:
    # specreplay/views/chart_parts.opened: nothing inside until opened, then the table, the page's settings untouched
    page.goto(f"{app_url}/concurrency?lang=en&source=001&level=16")
    levels = page.locator("[data-testid=stExpander]").filter(has=page.locator("summary", has_text="Every recorded level"))
    levels.locator("summary").wait_for(timeout=60_000)
    assert levels.locator("[data-testid=stDataFrame]").count() == 0
    address = page.url
    levels.locator("summary").click()
    levels.locator("[data-testid=stDataFrame]").wait_for(timeout=30_000)
    assert page.url == address and page.locator("[data-testid=stException]").count() == 0
