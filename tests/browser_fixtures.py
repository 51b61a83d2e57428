"""Fixtures for tests that need the real app in a real browser.

`app_url` starts `streamlit run app.py` on a free 127.0.0.1 port for the test
session and stops it afterwards; it reads the bundled recordings and the test ones
(`test_recordings`), which live in a temporary folder so they are never bundled.
`page` is a fresh tab in Debian's chromium driven by Playwright (its own browser
download does not work here).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.local_server import free_port, local_server
from tests.replay_recordings import write_recording

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags chromium keeps dialling out, which this closed network refuses.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextmanager
def streamlit_app(env: dict[str, str] | None = None,
                  flags: tuple[str, ...] = ()) -> Iterator[tuple[str, subprocess.Popen]]:
    """`streamlit run app.py` on a free 127.0.0.1 port, `env` added to its environment and `flags` to its command
    line; yields its URL and process (the benches read its CPU time), stops it afterwards."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with local_server([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
                       "--server.address", "127.0.0.1", "--server.headless", "true",
                       "--browser.gatherUsageStats", "false", *flags], f"{url}/_stcore/health", "streamlit", 60,
                      cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}) as proc:
        yield url, proc


@contextmanager
def streamlit_server(env: dict[str, str] | None = None) -> Iterator[str]:
    """streamlit_app's URL only."""
    with streamlit_app(env) as (url, _):
        yield url


@pytest.fixture(scope="session")
def test_recordings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the browser tests' recordings: test-basic and test-markup (tests/replay_recordings.py), and
    test-serve-c64, a 64-stream `vllm bench serve` result imported (tests/bench_serve_file.py)."""
    from specreplay.importers import vllm_bench
    from specreplay.importers.common import write_recording as import_recording
    from tests.bench_serve_file import write_bench_serve

    folder = tmp_path_factory.mktemp("recordings")
    write_recording(folder / "test-basic.jsonl")
    write_recording(folder / "test-markup.jsonl", markup=True)
    served = write_bench_serve(tmp_path_factory.mktemp("serve") / "serve-c64.json")
    import_recording(folder / "test-serve-c64.jsonl", vllm_bench.read(served))
    return folder


@pytest.fixture(scope="session")
def app_url(test_recordings: Path) -> Iterator[str]:
    with streamlit_server({"SPECREPLAY_RECORDINGS": os.pathsep.join([str(ROOT / "recordings"),
                                                                    str(test_recordings)])}) as url:
        yield url


# Module scope: Playwright's sync API keeps an asyncio loop running in this thread while it is open, which
# would make asyncio.run() in later, non-browser test modules fail.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser) -> Iterator[object]:
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = ctx.new_page()
    yield pg
    ctx.close()


# Every live chart's reference labels (the articles' bands) and its nearest-cell label: none overlaps another, and no
# reference label lies over a measured cell's dot (issue #41: at 390 px the band labels ran over each other and the
# cells). Returns the problems, each naming both texts.
LABELS_APART = """() => {
  const out = [], near = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  for (const svg of document.querySelectorAll('svg')) {
    const refs = [...svg.querySelectorAll('.lc-ref-label')];
    if (!refs.length) continue;
    const labels = [...refs, ...svg.querySelectorAll('.lc-nearest-label')];
    const boxes = labels.map(t => t.getBoundingClientRect());
    for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++)
      if (near(boxes[i], boxes[j])) out.push(`«${labels[i].textContent}» over «${labels[j].textContent}»`);
    for (const dot of svg.querySelectorAll('.lc-cell'))
      refs.forEach((t, i) => { if (near(boxes[i], dot.getBoundingClientRect())) out.push(`«${t.textContent}» over a cell`); });
  }
  return out;
}"""
