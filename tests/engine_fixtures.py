"""Session-scoped real vLLM servers (CPU build, SmolLM2-135M): a baseline arm and an ngram speculative arm.

Both start together once per test session on free 127.0.0.1 ports (so their startups
overlap: each compiles the model for 1.5-4 minutes, because vLLM 0.32.0 fails to reload
its own compile cache here), get one warm-up request, and are stopped at the end, also
on failure.
An idle vLLM CPU server uses about 1 % of a core, so the arm not under test does
not disturb the one that is; the tests still never load both at once.
Tests needing them are skipped with a clear reason when `make engine weights` has not run.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from recorder.engine import serve


def _missing() -> str | None:
    if not serve.engine_python().exists():
        return f"no vLLM engine at {serve.engine_python()} (run `make engine`)"
    if not (serve.models_dir() / serve.MODEL_DIR / "config.json").exists():
        return f"no converted SmolLM2 in {serve.models_dir()} (run `make weights`)"
    return None


@pytest.fixture(scope="session")
def vllm_arms() -> Iterator[dict[str, serve.Server]]:
    """{'baseline': Server, 'ngram': Server}, both ready."""
    why = _missing()
    if why:
        if os.environ.get("SPECREPLAY_REQUIRE_ENGINE"):
            pytest.fail(why)
        pytest.skip(why)
    logs = Path(tempfile.mkdtemp(prefix="specreplay-vllm-"))
    servers: dict[str, serve.Server] = {}
    try:
        for arm in serve.ARMS:
            servers[arm] = serve.start(arm, log_dir=logs)
        for s in servers.values():
            serve.wait_ready(s)
            serve.warm_up(s)
        yield servers
    finally:
        for s in servers.values():
            s.stop()
