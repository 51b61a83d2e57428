"""Explainer pages: navigation → first chart drawn, on a warm server, for every page.

Not a test: run it by hand, copy the figures into docs/explainer.md.

    .venv/bin/python bench/page_bench.py [--rounds 5]

Starts `streamlit run app.py` on 127.0.0.1 (no file watcher, as deployed), opens every explainer page once to warm
the server, then for each round and page navigates from the start page by the sidebar link (a page switch inside
the running app, as a reader moves between pages) and times until the page's first chart has drawn: a live chart's
SVG, a Plotly chart's SVG, the cost page's first metric, or for the chooser (which has no chart) its first answer.
Both times are the page's own clock, the chart checked every animation frame (see ARM). Prints one JSON object.
The pages' screenshots in docs/ come from `make screenshot` (tests/browser/test_screens_browser.py).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.app_session import app_page, report, spread  # noqa: E402
from specreplay import languages  # noqa: E402
from specreplay.views import pages  # noqa: E402

TARGET_MS = 1500
# page name → what counts as its first chart, for every explainer page of the registry (specreplay/views/pages.py: every page
# but the start page and the replay); its sidebar link is its English title (the language files' `pages` table).
FIRST_CHART = {
    "acceptance": "[data-live-chart] svg",
    "concurrency": "[data-live-chart] svg",
    "ladder": ".js-plotly-plot .main-svg",
    "cost": "[data-testid='stMetric']",
    "roofline": ".js-plotly-plot .main-svg",
    "chooser": "[data-testid='stRadio']",
}
EXPLAINERS = [p.name for p in pages.PAGES if p.name not in (pages.START.name, "replay")]
if set(FIRST_CHART) != set(EXPLAINERS):  # a page added to or dropped from the registry must be measured here too
    raise SystemExit(f"bench/page_bench.py: FIRST_CHART names {sorted(FIRST_CHART)}, the registry's explainer "
                     f"pages are {sorted(EXPLAINERS)}")


# Armed in the page before the click: the click's time, then every animation frame until the page's first chart is
# on screen (the address is the page's, the chart in the main area, not a stale element, with a size). Both times
# are read off the page's own clock: Playwright's wait_for polls every 500 ms after its first few tries, which
# rounded every figure up by as much as half a second; and without the address check the start page's own metrics
# and the sidebar's language radio passed for the cost page's and the chooser's first answer.
ARM = """([selector, path]) => {
  const bench = window.__bench = {click: null, drawn: null};
  addEventListener('click', () => { bench.click ??= performance.now(); }, {capture: true, once: true});
  const drawn = (el) => {
    if (el.closest("[data-stale='true']")) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const poll = () => {
    if (bench.click !== null && location.pathname.endsWith(path) && [...document.querySelectorAll("[data-testid='stMain'] " + selector)].some(drawn))
      bench.drawn = performance.now();
    else requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}"""


def first_chart_ms(page: Page, base: str, name: str) -> float:
    """From the sidebar click on the page's link to its first chart drawn (the frame it is painted in)."""
    link, selector = languages.text("en", f"pages.{name}"), FIRST_CHART[name]
    page.goto(f"{base}/?lang=en")
    page.get_by_role("link", name=link).first.wait_for(timeout=60_000)
    page.wait_for_timeout(300)
    page.evaluate(ARM, [selector, f"/{pages.page(name).url_path}"])
    page.get_by_role("link", name=link).first.click()
    page.wait_for_function("() => window.__bench.drawn !== null", timeout=60_000, polling="raf")
    return float(page.evaluate("window.__bench.drawn - window.__bench.click"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pages", nargs="+", choices=EXPLAINERS, default=EXPLAINERS, help="only these pages")
    args = ap.parse_args()
    load_before = os.getloadavg()[0]
    times: dict[str, list[float]] = {name: [] for name in args.pages}
    with app_page() as (base, _, page):
        for name in args.pages:  # warm: the first visit of a page imports its modules and reads its files
            page.goto(f"{base}/{pages.page(name).url_path}?lang=en")
            page.locator(FIRST_CHART[name]).first.wait_for(timeout=120_000)
        for _ in range(args.rounds):
            for name in args.pages:
                times[name].append(first_chart_ms(page, base, name))
    report({"pages": {name: spread(ms, "ms", 0, TARGET_MS) for name, ms in times.items()}}, load_before)

if __name__ == "__main__":
    main()
