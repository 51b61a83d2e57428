"""Replay latency: page navigation → the player mounted, on a warm server.

Not a test: run it by hand, copy the figure into docs/replay.md.

    .venv/bin/python bench/replay_mount_bench.py [--loads 10]

Starts `streamlit run app.py` on 127.0.0.1 (no file watcher, as deployed), opens chromium and, for the start page
(its hero replay) and the replay page (the default replay, and a sweep by concurrency level), loads the URL
`--loads` times after one warm-up load, timing from `page.goto` to the player's root carrying
`data-mounted="true"` (set by assets/player/player.js once the panes are built and the first frame drawn). The
server keeps its caches between loads: this is a warm server, the case a visitor meets. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.browser_fixtures import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.local_server import free_port, local_server  # noqa: E402

TARGET_S = 1.5
SERVER_FLAGS = ["--server.fileWatcherType", "none", "--server.runOnSave", "false"]
PAGES = {
    "start_page_hero": "?lang=en",
    "replay_default": "replay?lang=en",
    "replay_by_level": "replay?lang=en&recording=smollm2-h200-sweep-greedy&mode=levels",
}


def time_loads(page: Page, url: str, loads: int) -> list[float]:
    out = []
    for n in range(loads + 1):  # the first load warms the server's caches and is dropped
        t0 = time.perf_counter()
        page.goto(url)
        page.frame_locator("iframe").first.locator("#player[data-mounted='true']").wait_for(timeout=60_000)
        if n:
            out.append(time.perf_counter() - t0)
    return out


def summary(seconds: list[float]) -> dict:
    s = sorted(seconds)
    return {"n": len(s), "median_s": round(statistics.median(s), 3), "p90_s": round(s[int(0.9 * (len(s) - 1))], 3),
            "min_s": round(s[0], 3), "max_s": round(s[-1], 3), "target_s": TARGET_S,
            "meets_target": statistics.median(s) <= TARGET_S}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=10)
    args = ap.parse_args()
    load_before = os.getloadavg()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with local_server([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
                       "--server.address", "127.0.0.1", "--server.headless", "true",
                       "--browser.gatherUsageStats", "false", *SERVER_FLAGS], f"{url}/_stcore/health", "streamlit",
                      60, cwd=ROOT):
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            results = {name: summary(time_loads(page, f"{url}/{path}", args.loads)) for name, path in PAGES.items()}
            browser.close()
    print(json.dumps({**results,
                      "machine": f"{platform.machine()} · {os.cpu_count()} CPUs · python {platform.python_version()}",
                      "load_avg_1m_before_after": [round(load_before[0], 1), round(os.getloadavg()[0], 1)],
                      "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, indent=2))


if __name__ == "__main__":
    main()
