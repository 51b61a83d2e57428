"""A real server's memory against visitors who upload a large recording and leave (issue #33's target: resident
memory a minute after six 18 MiB uploads end within 150 MB of where it started).

Not a test: run it by hand, copy the figures into docs/robustness.md.

    .venv/bin/python bench/upload_memory_bench.py [--visitors 6] [--after 60,120]

`streamlit run app.py` on a free port; N tabs of Debian's chromium (Playwright), each its own browser context,
upload the same ~18 MiB recording on the replay page and wait for its player; then every tab is closed. The
server's resident memory (VmRSS) is read before, once every tab shows its player, and the given seconds after the
tabs closed. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.load_bench import synthetic  # noqa: E402
from tests.browser_fixtures import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.local_server import free_port  # noqa: E402


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise LookupError(pid)


def open_uploader(page: Any) -> None:
    """Choose "Upload" on the replay page until its file input shows: on a busy machine a click that lands while
    the page's first run is still drawing was lost (2 of 4 runs waited 300 s for the input), so it is clicked
    again every 30 s, ten times at the most."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(10):
        page.get_by_role("radiogroup", name="Recording").get_by_text("Upload", exact=True).click()
        try:
            page.wait_for_selector("input[type=file]", state="attached", timeout=30_000)  # the input is hidden
            return
        except PlaywrightTimeout:
            continue
    raise TimeoutError("the replay page never showed its uploader")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--visitors", type=int, default=6)
    ap.add_argument("--after", default="60,120", help="seconds after the tabs closed to read the memory")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    upload = Path(tempfile.mkdtemp()) / "big.jsonl"
    upload.write_text(synthetic(ROOT, 18))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port",
                               str(port), "--server.headless", "true"], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                if httpx.get(f"{url}/_stcore/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        out: dict = {"visitors": args.visitors, "upload_mib": round(upload.stat().st_size / 2**20, 1)}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            warm = browser.new_page()  # the first visit imports the pages: not the uploads' memory
            warm.goto(f"{url}/replay?lang=en")
            warm.wait_for_selector("iframe", timeout=300_000)
            warm.close()
            out["base_mb"] = round(rss_mb(server.pid))
            contexts = []
            for _ in range(args.visitors):
                ctx = browser.new_context()
                ctx.set_default_timeout(300_000)  # a busy machine takes over 30 s to show the uploader
                page = ctx.new_page()
                page.goto(f"{url}/replay?lang=en")
                open_uploader(page)
                page.set_input_files("input[type=file]", str(upload))
                page.wait_for_selector("text=By concurrency level")  # only an upload of a sweep has it
                contexts.append(ctx)
            out["held_mb"] = round(rss_mb(server.pid))
            for ctx in contexts:
                ctx.close()
            closed = time.monotonic()
            for after in (float(x) for x in args.after.split(",")):
                time.sleep(max(0.0, closed + after - time.monotonic()))
                out[f"after_{after:g}s_mb"] = round(rss_mb(server.pid))
            browser.close()
        print(json.dumps(out))
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
