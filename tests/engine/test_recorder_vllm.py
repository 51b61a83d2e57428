"""The recorder against a real vLLM (CPU build, SmolLM2-135M): baseline and ngram speculative arms."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest

from recorder import config, server
from recorder.errors import RecorderError
from specreplay.recording import format as fmt
from tests.vllm_config import ROOT, recorder_cmd, run_recorder, write_config


@pytest.fixture(scope="module")
def recorded(vllm_arms, tmp_path_factory) -> fmt.Recording:
    tmp = tmp_path_factory.mktemp("rec")
    cfg = write_config(tmp / "cfg.toml", vllm_arms)
    out = tmp / "rec.jsonl"
    proc = run_recorder("record", str(cfg), "-o", str(out), "--repeats", "1", "--warmup", "1")
    assert "like-for-like" in proc.stdout
    return fmt.load(out)


def test_token_counts_equal_usage_and_length_is_forced(recorded: fmt.Recording) -> None:
    assert len(recorded.runs) == 2 * 2 * 2  # arms x prompts x (warm-up + repeat)
    for run in recorded.runs:
        assert run.ok and run.usage["completion_tokens"] == run.tokens == 48
        assert all(e.ids is not None and len(e.ids) == e.n for e in run.events)
    caps = recorded.arm("ngram").entry["capabilities"]
    assert caps["token_ids"] and caps["running_usage"] and caps["ignore_eos"] and caps["metrics"]
    assert recorded.arm("ngram").entry["engine"] == {"name": "vllm", "version": "0.32.0"}


def test_speculative_arm_sends_blocks_and_baseline_does_not(recorded: fmt.Recording) -> None:
    spec_copy = recorded.select("ngram", "copy")
    assert any(e.n > 1 for r in spec_copy for e in r.events)
    assert all(r.spec is not None and r.spec.acceptance_length > 1 for r in spec_copy)
    spec_bursts = sum(e.n > 1 for r in spec_copy for e in r.events) / sum(len(r.events) for r in spec_copy)
    base = recorded.select("baseline", None, warmup=None)
    assert all(r.spec is None for r in base)  # no speculative counters on this server at all
    # One token per engine step; vLLM merges two steps into one chunk only when the reader lags behind
    # (seen now and then on a busy 2-core machine), so allow a rare one but nothing like speculation.
    base_bursts = sum(e.n > 1 for r in base for e in r.events) / sum(len(r.events) for r in base)
    assert base_bursts <= 0.03 < spec_bursts


def test_idle_check_sees_a_request_in_flight(vllm_arms) -> None:
    s = vllm_arms["baseline"]
    arm = config.Arm("baseline", "b", s.endpoint, "smollm2-135m", {})
    body = {"model": arm.model, "prompt": "Count slowly:", "max_tokens": 300, "ignore_eos": True}
    worker = threading.Thread(target=lambda: httpx.post(f"{s.endpoint}/v1/completions", json=body, timeout=120))

    async def watch() -> float:
        async with httpx.AsyncClient() as client:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                snap = await server.snapshot(client, arm)
                if snap.running > 0:
                    with pytest.raises(RecorderError, match=r"stayed busy .*running=1"):
                        await server.wait_idle(client, arm, polls=3, interval=0.1, timeout=0.5)
                    return snap.running
                await asyncio.sleep(0.05)
        return 0

    worker.start()
    try:
        assert asyncio.run(watch()) >= 1
    finally:
        worker.join()

    async def idle_now() -> None:
        async with httpx.AsyncClient() as client:
            await server.wait_idle(client, arm, polls=3, interval=0.1, timeout=30)

    asyncio.run(idle_now())


def test_sigint_mid_run_leaves_a_valid_file_and_rerun_resumes(vllm_arms, tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "cfg.toml", vllm_arms, arms=("baseline",))
    out = tmp_path / "rec.jsonl"
    args = ("record", str(cfg), "-o", str(out), "--repeats", "2", "--warmup", "1")
    proc = subprocess.Popen(recorder_cmd(*args), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 3):
            time.sleep(0.05)
        time.sleep(0.3)  # into the next request's stream
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "rerun the same command to resume" in err
    first = fmt.load(out)
    assert 2 <= len(first.runs) < 6
    run_recorder(*args)
    final = fmt.load(out)
    keys = Counter((r.arm, r.prompt, r.repeat, r.warmup) for r in final.runs)
    assert len(keys) == 6 and set(keys.values()) == {1}
    assert [r.line for r in final.runs[: len(first.runs)]] == [r.line for r in first.runs]


def test_every_request_refused_is_exit_1_with_the_errors_stored(vllm_arms, tmp_path: Path) -> None:
    """A real vLLM refuses a forced length beyond its context (max_tokens 5000 > max_model_len 4096: HTTP 400).
    The probe asks for 3 tokens and passes; every recorded request fails, the file holds them as errors with
    the server's reason, and the exit status says so."""
    cfg = write_config(tmp_path / "cfg.toml", vllm_arms, arms=("baseline",), max_tokens=5000)
    out = tmp_path / "rec.jsonl"
    proc = subprocess.run(recorder_cmd("record", str(cfg), "-o", str(out), "--repeats", "1", "--warmup", "0"),
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "2 request(s) of this call failed" in proc.stderr
    runs = fmt.load(out).runs
    assert len(runs) == 2 and all(r.status == "error" and r.error.startswith("HTTP 400") for r in runs)
    assert "cannot be greater than max_model_len=4096" in runs[0].error
