"""What the browser benches share: the app served as deployed, one chromium page on it, and the printed result."""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import Page, sync_playwright

from tests.browser_fixtures import CHROMIUM, CHROMIUM_ARGS, streamlit_app

# As deployed: no source-file watcher. Streamlit's dev watcher polls the project's files and, while other
# work writes into the tree, keeps the server busy (~0.5 CPU s per second idle here), which is not the
# cost of what a bench times.
SERVER_FLAGS = ("--server.fileWatcherType", "none", "--server.runOnSave", "false")


@contextmanager
def app_page() -> Iterator[tuple[str, int, Page]]:
    """The app's URL, its server's pid (for its CPU time) and a 1400 x 900 chromium page; all closed afterwards."""
    with streamlit_app(flags=SERVER_FLAGS) as (url, proc), sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield url, proc.pid, browser.new_page(viewport={"width": 1400, "height": 900})
        finally:
            browser.close()


def spread(values: list[float], unit: str, digits: int, target: float) -> dict[str, Any]:
    """n, median, p90, min and max in `unit`, and whether the median meets the target."""
    s = sorted(values)
    median = statistics.median(s)
    places = digits or None  # 0 places: whole numbers, not 145.0
    return {"n": len(s), f"median_{unit}": round(median, places), f"p90_{unit}": round(s[int(0.9 * (len(s) - 1))], places),
            f"min_{unit}": round(s[0], places), f"max_{unit}": round(s[-1], places), f"target_{unit}": target,
            "meets_target": median <= target}


def report(results: dict[str, Any], load_before: float) -> None:
    """One JSON object: the results, the machine, how busy it was (other work slows every figure), when."""
    print(json.dumps({**results,
                      "machine": f"{platform.machine()} · {os.cpu_count()} CPUs · python {platform.python_version()}",
                      "load_avg_1m_before_after": [round(load_before, 1), round(os.getloadavg()[0], 1)],
                      "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, indent=2))
