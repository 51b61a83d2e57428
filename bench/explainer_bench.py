"""Explainer latency: a slider moved in the browser → the chart shows the new point.

Not a test: run it by hand, copy the figure into docs/explainer.md.

    .venv/bin/python bench/explainer_bench.py [--moves 30]

For the acceptance page (α slider) and the concurrency page (concurrency slider) it starts
`streamlit run app.py` on 127.0.0.1, opens each page in Debian's chromium, then repeatedly
presses an arrow key on the slider and times until the live chart (assets/explainer/live_chart.js) has drawn
the new value (its data-current-x, set after drawing; polled every animation frame). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.app_session import app_page, report, spread  # noqa: E402

TARGET_MS = 150
# True once the page's chartIndex-th live chart has drawn its current point at the expected value.
SHOWN = """([chartIndex, expected]) => {
  const charts = Array.from(document.querySelectorAll('[data-live-chart]'));
  return charts.length > chartIndex && Math.abs(Number(charts[chartIndex].dataset.currentX) - expected) < 1e-9;
}"""


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_by_process(server_pid: int) -> dict[str, float]:
    """CPU seconds used so far by the streamlit server and by the browser (everything else this bench started).

    Wall time on a shared, busy box mostly measures the other work; CPU time per move does not.
    """
    tick = os.sysconf("SC_CLK_TCK")
    stats = {int(p.name): st for p in Path("/proc").iterdir() if p.name.isdigit() and (st := _stat(int(p.name)))}
    children: dict[int, list[int]] = {}
    for pid, st in stats.items():
        children.setdefault(int(st[1]), []).append(pid)
    out = {"server": 0.0, "browser": 0.0}
    todo = list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        st = stats[pid]
        out["server" if pid == server_pid else "browser"] += (int(st[11]) + int(st[12])) / tick
    return out


def time_moves(page: Page, url: str, slider_name: str, values: Sequence[float], start: float, moves: int,
               server_pid: int, gap_s: float) -> tuple[list[float], dict[str, float]]:
    """Milliseconds from each key press to the chart showing the slider's new value, and CPU ms per move."""
    page.goto(url)
    page.locator("[data-live-chart] svg").first.wait_for(timeout=60_000)
    page.wait_for_function(SHOWN, arg=[0, start], timeout=60_000)
    thumb = page.get_by_role("slider", name=slider_name)
    thumb.focus()
    i = values.index(start)
    out = []
    cpu0: dict[str, float] = {}
    for n in range(moves + 2):  # the first two moves warm up the rerun path and are dropped
        if n == 2:
            cpu0 = cpu_by_process(server_pid)
        step = -1 if (n // 3) % 2 == 0 else 1  # wander left and right so the value always changes
        i = min(max(i + step, 0), len(values) - 1)
        time.sleep(gap_s)
        t0 = time.perf_counter()
        page.keyboard.press("ArrowLeft" if step < 0 else "ArrowRight")
        page.wait_for_function(SHOWN, arg=[0, values[i]], timeout=30_000, polling="raf")
        if n >= 2:
            out.append((time.perf_counter() - t0) * 1000)
    cpu1 = cpu_by_process(server_pid)
    return out, {f"{k}_cpu_ms_per_move": round((cpu1[k] - cpu0[k]) * 1000 / moves, 1) for k in cpu1}


def summary(timed: tuple[list[float], dict[str, float]]) -> dict:
    return {**timed[1], **spread(timed[0], "ms", 1, TARGET_MS)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=30)
    args = ap.parse_args()
    load_before = os.getloadavg()[0]
    alphas = [round(i / 100, 2) for i in range(101)]
    levels = [1, 2, 4, 8, 16, 32, 64]
    results = {}
    with app_page() as (url, pid, page):
        # "single": a move on a settled page (the previous move's rerun has landed: 0.8 s apart), as a
        # reader nudges a slider. "rapid": the next key press as soon as the chart moved, while the
        # previous rerun is still arriving (the browser applies it first), as when holding an arrow key.
        for pace, gap_s in (("single", 0.8), ("rapid", 0.0)):
            results[f"acceptance_alpha_slider_{pace}"] = summary(time_moves(
                page, f"{url}/acceptance?lang=en", "Acceptance rate α", alphas, 0.8, args.moves, pid, gap_s))
            results[f"concurrency_slider_{pace}"] = summary(time_moves(
                page, f"{url}/concurrency?lang=en", "Concurrency (log scale)", levels, 8, args.moves, pid, gap_s))
    report(results, load_before)

if __name__ == "__main__":
    main()
