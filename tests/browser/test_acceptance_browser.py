"""The acceptance page in a real browser (Debian's chromium): moving α rings the nearest measured cell at once; a cell
far above the rest is drawn off scale."""

from specreplay.explain import acceptance_measured

NEAREST = """key => document.querySelector(`[data-live-chart="${key}"]`)?.dataset.nearest"""


def test_moving_alpha_rings_the_nearest_measured_cell(app_url: str, page) -> None:
    cells, _ = acceptance_measured.recorded_cells()  # the bundled recordings, as the app reads them
    start, low = acceptance_measured.nearest(cells, 0.8, 5), acceptance_measured.nearest(cells, 0.0, 5)
    assert start and low and start.id != low.id
    page.goto(f"{app_url}/acceptance?lang=en")
    page.locator("[data-live-chart=etau_chart] .lc-plot svg").wait_for(timeout=60_000)
    page.wait_for_function(f"() => ({NEAREST})('etau_chart') === {start.id!r}", timeout=30_000)
    assert page.locator("[data-live-chart=etau_chart] .lc-cell").count() == len(cells)
    # the one cell far above the rest (a copy prompt's 36.75) is a marker at the top edge, not a stretched axis
    off = page.locator("[data-live-chart=etau_chart] .lc-off-scale")
    assert off.count() == 1 and "→ 36.75" in off.locator("title").text_content()
    page.get_by_role("slider", name="Acceptance rate α").focus()
    page.keyboard.press("Home")  # α = 0
    for key in ("etau_chart", "positions_chart"):
        page.wait_for_function(f"() => ({NEAREST})({key!r}) === {low.id!r}", timeout=30_000)
    label = page.locator("[data-live-chart=etau_chart] .lc-nearest-label").text_content()
    assert label.startswith(f"{low.prompt} · {low.arm}")
    page.get_by_text(f"Nearest measured cell: {low.prompt} · {low.arm}").first.wait_for(timeout=30_000)  # the rerun
