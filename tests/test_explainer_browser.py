"""The explainer pages in a real browser (Debian's chromium): moving a slider changes the chart."""

CURRENT_X = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .map(d => (d.data || []).find(t => t.meta === 'current')).filter(Boolean).map(t => t.x[0])"""


def test_moving_alpha_slider_moves_the_chart_point(app_url: str, page) -> None:
    page.goto(f"{app_url}/acceptance?lang=en")
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
    page.wait_for_function(f"() => ({CURRENT_X})()[0] === 0.8", timeout=30_000)
    thumb = page.get_by_role("slider", name="Acceptance rate α")
    thumb.focus()
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => ({CURRENT_X})()[0] === 0.77", timeout=30_000)
    page.get_by_text("3.44", exact=True).first.wait_for(timeout=30_000)  # E[τ] at α 0.77, γ 5


def test_concurrency_slider_moves_the_marker_and_reads_measured_cells(app_url: str, page) -> None:
    page.goto(f"{app_url}/concurrency?lang=en")
    page.locator(".js-plotly-plot").first.wait_for(timeout=60_000)
    page.wait_for_function(f"() => ({CURRENT_X})().includes(8)", timeout=30_000)
    page.get_by_role("slider", name="Concurrency (log scale)").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({CURRENT_X})().includes(16)", timeout=30_000)
    page.get_by_text("Read at 16, and where each crosses 1.0").wait_for(timeout=30_000)


def test_pages_work_embedded(app_url: str, page) -> None:
    for name in ("acceptance", "concurrency", "ladder", "cost"):
        page.goto(f"{app_url}/{name}?embed=true&lang=en")
        page.locator(".js-plotly-plot, [data-testid=stMetric]").first.wait_for(timeout=60_000)
        assert page.locator("[data-testid=stException]").count() == 0, name
