"""Uploaded recordings on a server: parsed once, one parse at a time, within a memory budget, dropped when their
visitor is gone and the memory handed back (specreplay/replay/uploads.py; bench/load_bench.py measures it)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from specreplay.recording.format import Recording, RecordingError
from specreplay.replay import source, uploads
from tests.replay_recordings import write_recording


@pytest.fixture
def data(tmp_path: Path) -> bytes:
    write_recording(tmp_path / "r.jsonl")
    uploads.clear()
    yield (tmp_path / "r.jsonl").read_bytes()
    uploads.clear()


def test_an_upload_is_read_and_parsed_once(data: bytes) -> None:
    reads = []
    for _ in range(3):
        rec = uploads.parsed("id-1", "r.jsonl", lambda: reads.append(1) or data)
        assert isinstance(rec, Recording)
    assert len(reads) == 1
    bad = uploads.parsed("id-2", "bad.jsonl", lambda: b"\xff")
    assert isinstance(bad, RecordingError) and uploads.parsed("id-2", "bad.jsonl", lambda: 1 / 0) is bad


def test_the_cache_keeps_within_its_budget_least_recently_used_first(data: bytes, monkeypatch) -> None:
    monkeypatch.setattr(uploads, "BUDGET_BYTES", 2 * len(data))
    for key in ("a", "b", "c"):
        uploads.parsed(key, "r.jsonl", lambda: data)
        uploads.parsed("a", "r.jsonl", lambda: data)  # a is looked at again: b is the oldest
    assert uploads.held_bytes() <= 2 * len(data)
    reads = []
    uploads.parsed("a", "r.jsonl", lambda: reads.append(1) or data)
    uploads.parsed("b", "r.jsonl", lambda: reads.append(1) or data)
    assert reads == [1]  # b was dropped and is parsed again from the visitor's file; a was kept


def test_uploads_nobody_looks_at_are_dropped(data: bytes) -> None:
    uploads.parsed("a", "r.jsonl", lambda: data)
    assert uploads.drop_idle(time.monotonic() + 1) == 0
    assert uploads.drop_idle(time.monotonic() + uploads.IDLE_S + 1) == 1
    assert uploads.held_bytes() == 0


def test_parses_run_one_at_a_time(data: bytes, monkeypatch) -> None:
    """Concurrent uploads do not stack their parsing peaks."""
    running, most = [0], [0]
    real = source.load_upload

    def slow(name: str, raw: bytes) -> Recording:
        running[0] += 1
        most[0] = max(most[0], running[0])
        time.sleep(0.05)
        try:
            return real(name, raw)
        finally:
            running[0] -= 1

    monkeypatch.setattr(source, "load_upload", slow)
    threads = [threading.Thread(target=uploads.parsed, args=(f"k{i}", "r.jsonl", lambda: data)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most == [1] and uploads.held_bytes() == 4 * len(data)


def test_an_upload_goes_when_every_session_that_looked_at_it_has(data: bytes) -> None:
    """Six visitors' uploads used to stay for IDLE_S (10 minutes) after they left: 808 MB a minute later."""
    connected = {"s1", "s2", "s3"}
    let_go: list[str] = []  # the sessions whose own copy of the file the app is told to free
    uploads.watch_viewers(connected.__contains__, let_go.append)
    try:
        uploads.parsed("a", "r.jsonl", lambda: data, viewer="s1")
        uploads.parsed("a", "r.jsonl", lambda: data, viewer="s2")
        uploads.parsed("c", "r.jsonl", lambda: data, viewer="s3")
        uploads.parsed("b", "r.jsonl", lambda: data)  # no session known (a command, a test): only IDLE_S drops it
        connected.discard("s1")
        assert uploads.drop_idle() == 0 and let_go == []  # s2 still looks at it
        connected.discard("s2")
        assert uploads.drop_idle() == 1 and uploads.held_bytes() == 2 * len(data)
        assert let_go == ["s1", "s2"]  # both left: their bytes go too; s3 is still there
    finally:
        uploads.watch_viewers(lambda session: True)
