"""A sweep level split over worker processes (recorder/workers.py): same file as one process, chunks stamped when
they were sent, streams in order, no worker left behind on Ctrl-C.

The server is the timing bench's emitter (bench/recorder_timing.py `emit`): a real loopback SSE server on a fixed
schedule whose every chunk carries the monotonic time it was sent.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from recorder import arrival, workers
from specreplay.recording import format as fmt
from tests.browser_fixtures import ROOT

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="kernel stamps and /proc are Linux's")


@contextmanager
def emitter(chunks: int, interval_ms: float) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "recorder_timing.py"), "emit", str(port), str(chunks),
                             str(interval_ms)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait()


def _config(tmp_path: Path, url: str, chunks: int) -> Path:
    cfg = tmp_path / "emitter.toml"
    cfg.write_text(f'title = "workers"\n[record]\nmax_tokens = {chunks}\n'
                   f'[[arms]]\nid = "emitter"\nlabel = "emitter"\nendpoint = "{url}"\nmodel = "emitter"\n'
                   f'engine = "emitter"\n'
                   '[[prompts]]\nid = "a"\nkind = "chat"\ntext = "x"\n[[prompts]]\nid = "b"\nkind = "chat"\ntext = "y"\n')
    return cfg


def _sweep(cfg: Path, out: Path, streams: int, processes: int) -> list[str]:
    return [sys.executable, "-m", "recorder", "sweep", str(cfg), "-o", str(out), "--no-progress", "--host-busy-max", "1",
            "--levels", str(streams), "--rounds", "2", "--workers", str(processes)]


def test_a_split_level_writes_the_runs_one_process_writes_with_every_chunk_stamped_when_it_was_sent(
        tmp_path: Path) -> None:
    chunks, interval = 4, 100.0
    with emitter(chunks, interval) as url:
        cfg = _config(tmp_path, url, chunks)
        for n in (1, 2):
            subprocess.run(_sweep(cfg, tmp_path / f"{n}.jsonl", 32, n), cwd=ROOT, check=True, timeout=120,
                           stdout=subprocess.DEVNULL)
    one, split = fmt.load(tmp_path / "1.jsonl"), fmt.load(tmp_path / "2.jsonl")

    def shape(rec: fmt.Recording) -> list[tuple]:
        return [(r.stream, r.repeat, r.prompt, r.warmup, r.concurrency, r.status, len(r.events)) for r in rec.runs]

    assert shape(split) == shape(one)
    # the level's warm-up round at its own concurrency (one request a stream), then stream s sends prompt
    # (s + round) mod 2; the streams come back in order
    assert shape(split)[:32] == [(s, 0, "ab"[s % 2], True, 32, "ok", chunks) for s in range(32)]
    assert shape(split)[32:] == [(s, r, "ab"[(s + r) % 2], False, 32, "ok", chunks) for s in range(32) for r in range(2)]
    (level,) = split.levels
    measured = [r for r in split.runs if not r.warmup]
    assert level.started_mono <= min(r.started_mono for r in measured)
    errors = []
    for run in measured:
        for ev in run.events:
            sent = float(ev.text.split("|")[0])
            errors.append(run.started_mono + ev.t_us / 1e6 - sent)
    # Stamped on the parent's clock, after the send (1 ms: the kernel's wall-clock stamp mapped onto the monotonic
    # clock), and never with the next chunk's arrival, 100 ms later
    assert len(errors) == 32 * 2 * chunks
    assert min(errors) > -0.001 and max(errors) < interval / 2e3


async def _report_process(client: httpx.AsyncClient, s: int, url: str) -> list[dict]:
    """A stream for workers.gather: one request through the client it was given; says which process ran it."""
    async with client.stream("GET", f"{url}/v1/models") as r:
        await r.aread()
        return [{"stream": s, "pid": os.getpid(), "stamping": isinstance(r.extensions["network_stream"],
                                                                          arrival.Stream)}]


def _gather(url: str, streams: int, processes: int) -> tuple[float, list[list[dict]]]:
    async def main() -> tuple[float, list[list[dict]]]:
        async with arrival.client(httpx.Limits(max_connections=4)) as client:
            return await workers.gather(client, _report_process, (url,), streams, processes)

    return asyncio.run(main())


def test_streams_are_split_in_contiguous_groups_over_processes_with_stamping_clients_and_come_back_in_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A spawned worker re-runs the parent's __main__ by path; an AppTest.from_function earlier in the session leaves
    # its temporary script there. The recorder's own __main__ (python -m recorder) is a module and spawns cleanly.
    monkeypatch.setitem(sys.modules, "__main__", types.ModuleType("__main__"))
    with emitter(1, 10) as url:
        before = time.monotonic()
        started, got = _gather(url, 48, 3)
        small = _gather(url, 16, 3)[1]
    assert before < started < time.monotonic()
    assert [lines[0]["stream"] for lines in got] == list(range(48))
    pids = [lines[0]["pid"] for lines in got]
    assert pids == [pids[0]] * 16 + [pids[16]] * 16 + [pids[32]] * 16
    assert len(set(pids)) == 3 and os.getpid() not in pids
    assert all(lines[0]["stamping"] for lines in got)
    # 16 streams are too few to split (at least 16 per process): they run here
    assert {lines[0]["pid"] for lines in small} == {os.getpid()}


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"spawn_main" in cmdline:
            out.append(int(stat.parent.name))
    return out


def test_ctrl_c_during_a_split_level_stops_every_worker_and_leaves_a_valid_file(tmp_path: Path) -> None:
    with emitter(200, 50) as url:  # 10 s per request
        out = tmp_path / "sweep.jsonl"
        proc = subprocess.Popen(_sweep(_config(tmp_path, url, 200), out, 32, 2), cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while len(found := _children(proc.pid)) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        time.sleep(1.5)  # the workers are streaming
        proc.send_signal(signal.SIGINT)  # to the recorder only: it has to stop its workers itself
        _, err = proc.communicate(timeout=30)
    assert len(found) == 2
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err
    assert not [pid for pid in found if Path(f"/proc/{pid}").exists()]
    assert fmt.load(out).runs == []  # the unfinished level left nothing behind
