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
        assert uploads.drop_idle() == 0  # s2 still looks at it
        assert let_go == ["s1"]  # s1 itself left: what its session holds goes
        connected.discard("s2")
        assert uploads.drop_idle() == 1 and uploads.held_bytes() == 2 * len(data)
        assert let_go == ["s1", "s2"]  # s3 is still there
    finally:
        uploads.watch_viewers(lambda session: True)


def test_a_session_whose_upload_was_evicted_is_let_go_when_it_leaves(data: bytes,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Six visitors against a budget of three uploads: the evicted ones' sessions held their bytes (four of six
    sessions kept 18 MiB each a minute after the tabs closed) because only cached uploads were looked at."""
    monkeypatch.setattr(uploads, "BUDGET_BYTES", len(data))  # room for one upload
    connected = {"s1", "s2"}
    let_go: list[str] = []
    uploads.watch_viewers(connected.__contains__, let_go.append)
    try:
        uploads.parsed("a", "r.jsonl", lambda: data, viewer="s1")
        uploads.parsed("b", "r.jsonl", lambda: data, viewer="s2")  # evicts "a"
        connected.clear()
        uploads.drop_idle()
        assert sorted(let_go) == ["s1", "s2"] and uploads.held_bytes() == 0
    finally:
        uploads.watch_viewers(lambda session: True)


def test_a_session_that_left_with_an_upload_is_closed_on_streamlits_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """views.uploaded._let_go against a stand-in for Streamlit's Runtime (AppTest has none): the session's files go
    at once, and the session itself is closed on the event loop, unless its visitor came back meanwhile. The real
    server's figures: bench/upload_memory_bench.py."""
    import asyncio
    from types import SimpleNamespace

    from specreplay.views import uploaded

    loop = asyncio.new_event_loop()
    calls: list[tuple[str, str]] = []
    active = {"back"}
    runtime = SimpleNamespace(
        uploaded_file_mgr=SimpleNamespace(remove_session_files=lambda s: calls.append(("files", s))),
        _get_async_objs=lambda: SimpleNamespace(eventloop=loop),
        is_active_session=active.__contains__,
        close_session=lambda s: calls.append(("close", s)))
    monkeypatch.setattr(uploaded, "Runtime", SimpleNamespace(exists=lambda: True, instance=lambda: runtime))
    monkeypatch.setattr(uploads, "release", lambda: calls.append(("release", "")))
    try:
        uploaded._let_go("gone")
        uploaded._let_go("back")
        assert calls == [("files", "gone"), ("files", "back")]  # the close waits for the loop
        async def settled() -> None:  # the close, then the release in the loop's executor thread
            for _ in range(3000):
                if len(calls) >= 4:
                    return
                await asyncio.sleep(0.01)

        loop.run_until_complete(settled())
        assert calls[2:] == [("close", "gone"), ("release", "")]  # "back" reconnected: kept
    finally:
        loop.close()
