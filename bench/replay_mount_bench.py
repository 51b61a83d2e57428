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
import os
import sys
import time
from pathlib import Path

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.app_session import app_page, report, spread  # noqa: E402

TARGET_S = 1.5
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=10)
    args = ap.parse_args()
    load_before = os.getloadavg()[0]
    with app_page() as (url, _, page):
        results = {name: spread(time_loads(page, f"{url}/{path}", args.loads), "s", 3, TARGET_S)
                   for name, path in PAGES.items()}
    report(results, load_before)

if __name__ == "__main__":
    main()
