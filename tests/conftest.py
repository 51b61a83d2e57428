"""Test tiers by folder, and what every test run shares.

A test goes into the folder of its tier, and gets that tier's marker from it:
- tests/unit/: no engine, no browser, nothing slow (a quick subprocess or loopback stub is fine);
- tests/app/: pages through Streamlit's AppTest;
- tests/browser/: Debian's chromium via Playwright (the app served by `streamlit run`, or a page of its own);
- tests/engine/: real engines (vLLM CPU, llama.cpp), ffmpeg encoding, multi-process sweeps, the recorder run as a
  subprocess against stub servers: the slow ones.
`make check` runs unit and app; `make test` runs every tier. Shared helpers stay at tests/ top level.
"""

import os
from pathlib import Path

import pytest

pytest_plugins = ["tests.browser_fixtures", "tests.engine_fixtures"]

TESTS = Path(__file__).resolve().parent
TIERS = ("unit", "app", "browser", "engine")
# Fixtures that start chromium or an engine: a test in a fast tier asking for one belongs in a slower tier.
SLOW_FIXTURES = {"page": "browser", "browser": "browser", "app_url": "browser", "vllm_arms": "engine"}


def pytest_configure(config: pytest.Config) -> None:
    # app.py turns a page's exception into a friendly panel for visitors; the tests want the exception itself.
    os.environ["SPECREPLAY_RAISE"] = "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(item.path)
        tier = path.relative_to(TESTS).parts[0] if path.is_relative_to(TESTS) else None
        if tier not in TIERS:
            raise pytest.UsageError(f"{item.nodeid}: a test goes into the folder of its tier, tests/{{{','.join(TIERS)}}}/")
        if tier in ("unit", "app"):
            slow = sorted(f for f in item.fixturenames if f in SLOW_FIXTURES)
            if slow:
                raise pytest.UsageError(f"{item.nodeid} is in tests/{tier}/ but uses {', '.join(slow)}: "
                                        f"move it to tests/{SLOW_FIXTURES[slow[0]]}/")
        item.add_marker(tier)
