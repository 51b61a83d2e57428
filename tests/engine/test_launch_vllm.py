"""Arms the recorder starts itself ([arms.launch]) on the real vLLM CPU, and the engine bug behind the mix rule.

- launch -> record -> stop, with only one arm's server alive at a time (checked in the process table), and
  Ctrl-C while the second arm is starting: that server is stopped, the file stays valid, and the rerun starts
  only the arm it still needs;
- a server that fails to start: one clear line with the tail of its log, nothing left running;
- vLLM CPU 0.32.0 with ngram speculation returns a greedy request's own text in an all-greedy batch; batched with
  sampled requests it returns wrong text on the machines here (observed and warned about, not required).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from recorder import launch
from recorder.engine import serve
from specreplay.recording import format as fmt
from tests.engine_fixtures import _missing
from tests.vllm_config import COPY, PROSE, ROOT, recorder_cmd, run_recorder, write_config

CODE = "Complete this Python function:\n\ndef fibonacci(n):\n    \"\"\"Return the n-th Fibonacci number.\"\"\"\n"


@pytest.fixture
def engine() -> None:
    why = _missing()
    if why:
        if os.environ.get("SPECREPLAY_REQUIRE_ENGINE"):
            pytest.fail(why)
        pytest.skip(why)


def _servers(ports: set[int]) -> dict[int, set[int]]:
    """port -> process group ids of the live vLLM API servers started for one of these ports."""
    out: dict[int, set[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            args = (d / "cmdline").read_bytes().split(b"\0")
            stat = (d / "stat").read_text()
        except OSError:
            continue
        if b"vllm.entrypoints.openai.api_server" not in args or b"--port" not in args:
            continue
        if stat.rsplit(")", 1)[1].split()[0] == "Z":
            continue  # a zombie is gone, just not reaped yet
        port = int(args[args.index(b"--port") + 1])
        if port in ports:
            try:
                out.setdefault(port, set()).add(os.getpgid(int(d.name)))
            except ProcessLookupError:
                continue  # exited since its cmdline was read
    return out


class ProcessTable:
    """Samples the process table every 0.1 s while a recorder runs: which of our servers are alive at once."""

    def __init__(self, ports: set[int]):
        self.ports, self.samples, self.groups = ports, [], set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            alive = _servers(self.ports)
            self.samples.append(set(alive))
            self.groups |= {g for gs in alive.values() for g in gs}
            time.sleep(0.1)

    def __enter__(self) -> ProcessTable:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _group_gone(pgid: int) -> bool:
    """No live process left in the group (its leader, the server's watchdog, included). A zombie is gone: a process
    whose parent died first waits for PID 1 to reap it, a moment after the stop that ended it, or forever where
    PID 1 does not reap; killpg(pgid, 0) still counted it."""
    return not launch.members(pgid) and not _leads(pgid)


def _leads(pid: int) -> bool:
    """Whether process `pid` is alive and still the leader of group `pid` (not a later process given its pid)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] not in ("Z", "X") and int(fields[2]) == pid


def test_launched_arms_run_one_at_a_time_and_ctrl_c_mid_launch_resumes_with_the_missing_arm(engine, tmp_path) -> None:
    ports = {"baseline": serve.free_port(), "ngram": serve.free_port()}
    cfg = write_config(tmp_path / "cfg.toml", None, max_tokens=16, launch_ports=ports,
                       mixes={"greedy": ["copy"], "sampled": ["prose"]})
    out = tmp_path / "sweep.jsonl"
    args = ("sweep", str(cfg), "-o", str(out), "--levels", "1,2")
    with ProcessTable(set(ports.values())) as table:
        proc = subprocess.Popen(recorder_cmd(*args), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        try:
            err: list[str] = []
            for line in proc.stderr:  # the baseline arm records, then the ngram arm's server is started
                err.append(line)
                if line.startswith("recorder: starting arm ngram"):
                    break
            deadline = time.monotonic() + 60
            while ports["ngram"] not in _servers({ports["ngram"]}) and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(2)  # well inside its start-up (over a minute here)
            proc.send_signal(signal.SIGINT)
            err.append(proc.communicate(timeout=120)[1])
        finally:
            proc.kill()
        assert proc.returncode == 130, "".join(err)
        assert _servers(set(ports.values())) == {}  # the half-started server was stopped
        partial = fmt.load(out)
        assert sorted((lv.arm, lv.mix, lv.concurrency) for lv in partial.levels) == [
            ("baseline", "greedy", 1), ("baseline", "greedy", 2), ("baseline", "sampled", 1), ("baseline", "sampled", 2)]

        rerun = run_recorder(*args, timeout=900)
    assert "starting arm ngram" in rerun.stderr and "starting arm baseline" not in rerun.stderr
    assert table.samples and all(len(alive) <= 1 for alive in table.samples)  # never two servers at once
    assert {ports["baseline"]} in table.samples and {ports["ngram"]} in table.samples
    assert table.groups and all(_group_gone(g) for g in table.groups)  # every process of every server is gone

    rec = fmt.load(out)
    for arm in ("baseline", "ngram"):
        h = rec.arm(arm).entry
        assert h["launch"]["command"] == serve.command(arm, ports[arm])[0]
        assert h["engine"]["version"] == "0.32.0" and h["launch"]["startup_s"] > 1
        assert h["capabilities"]["token_ids"] is True
    levels = {(lv.arm, lv.mix, lv.concurrency): lv for lv in rec.levels}
    assert len(levels) == 8 and all(0 <= lv.host_busy <= 1 for lv in rec.levels)
    assert [levels[("ngram", "greedy", c)].text_check for c in (1, 2)] == ["equal", "equal"]  # all-greedy batch
    assert [levels[("ngram", "sampled", c)].text_check for c in (1, 2)] == ["not checkable (sampled)"] * 2
    assert all(r.mix in ("greedy", "sampled") for r in rec.runs)
    assert {r.prompt for r in rec.runs if r.mix == "greedy"} == {"copy"}


def test_a_server_that_fails_to_start_is_one_clear_line_with_its_log(engine, tmp_path) -> None:
    port = serve.free_port()
    cfg = write_config(tmp_path / "cfg.toml", None, arms=("baseline",), launch_ports={"baseline": port})
    cfg.write_text(cfg.read_text().replace('"float32"]', '"float99"]'))  # the last --dtype value: not one vLLM knows
    t0 = time.monotonic()
    proc = subprocess.run(recorder_cmd("sweep", str(cfg), "-o", str(tmp_path / "o.jsonl"), "--levels", "1"),
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("recorder: arm baseline: the server exited with code ")
    assert "before it was healthy (log " in last and "float99" in last.split("): ", 1)[1]  # vLLM's complaint, from its log
    assert time.monotonic() - t0 < 240  # it stopped waiting when the process died, not at start_timeout_s (900 s)
    assert _servers({port}) == {}


# ----------------------------------------------------------------- the engine behaviour behind the mix rule

def _complete(server: serve.Server, prompt: str, temperature: float, max_tokens: int, seed: int | None = None) -> str:
    body = {"model": serve.SERVED_NAME, "messages": [{"role": "user", "content": prompt}], "max_tokens": max_tokens,
            "temperature": temperature, "ignore_eos": True, "min_tokens": max_tokens}
    if seed is not None:
        body["seed"] = seed
    r = httpx.post(f"{server.endpoint}/v1/chat/completions", json=body, timeout=300)
    r.raise_for_status()
    return r.json()["choices"][0]["message"]["content"]


def _batch(server: serve.Server, requests: list[tuple[str, float, int]]) -> list[str]:
    """All requests at once, so the server batches them (the sampled ones are longer, to outlast the greedy)."""
    with ThreadPoolExecutor(len(requests)) as pool:
        futures = [pool.submit(_complete, server, p, t, n, 1 if t else None) for p, t, n in requests]
        return [f.result() for f in futures]


def test_vllm_cpu_ngram_keeps_greedy_text_in_all_greedy_batches_and_the_baseline_in_mixed_ones(vllm_arms) -> None:
    """What the mix rule relies on is asserted: an all-greedy batch on the ngram arm, and the baseline in any batch,
    return the text each request gets alone. The wrong text itself is observed, not required: on this workplace's
    AMD EPYC (AVX-512) it showed in every mixed batch (10 of 10), on CI's machine in some runs and in none of three
    tries in another, so its absence fails nothing; it warns. A new vLLM release fails the version check in
    test_launched_arms_run_one_at_a_time_and_ctrl_c_mid_launch_resumes_with_the_missing_arm first: the place to
    re-check the rule."""
    ngram, base = vllm_arms["ngram"], vllm_arms["baseline"]
    alone = _complete(ngram, COPY, 0.0, 64)
    code_alone = _complete(ngram, CODE, 0.0, 64)
    assert _batch(ngram, [(COPY, 0.0, 64), (COPY, 0.0, 64), (CODE, 0.0, 64)]) == [alone, alone, code_alone]
    base_alone = _complete(base, COPY, 0.0, 64)
    assert _batch(base, [(COPY, 0.0, 64), (PROSE, 0.8, 96)])[0] == base_alone  # the baseline is not affected
    tries = (_batch(ngram, [(COPY, 0.0, 64), (PROSE, 0.8, 96), (PROSE, 0.8, 96)])[0] for _ in range(3))
    if all(text == alone for text in tries):  # stops at the first wrong text
        warnings.warn(
            "vLLM's ngram arm returned the right greedy text in three batches with sampled requests on this machine "
            f"({serve.engine_python()}): the engine bug behind the mix rule did not show. If it never shows on any "
            "machine, update docs/recorder.md ('The mix rule') and recorder.config.check_mixes.", stacklevel=1)
