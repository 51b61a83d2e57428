"""Uploaded recordings, parsed once and held server-wide within a memory budget.

A parsed upload takes less memory than its file (18 MiB → 14 MB: a run's chunks in flat arrays, Events), and a
parse peaks at about three times the file. Held in each visitor's session, a few concurrent uploads (then parsed
into one object per chunk) took a server from 170 MB to over 1 GB and kept it after the visitors left. Here every
parsed upload lives in one cache for the whole server process:

- parses run one at a time (a burst of uploads does not stack their peaks);
- the cache holds at most BUDGET_BYTES of uploaded files; the least recently used upload is dropped first and
  parsed again from the visitor's file if they come back to it;
- an upload is dropped as soon as none of the sessions that looked at it is connected any more (the app tells the
  cache how to ask: `watch_viewers`), or when nobody has looked at it for IDLE_S; the freed memory is handed back
  to the operating system (glibc's malloc_trim), so a server shrinks again within SWEEP_S of its visitors leaving;
- every session that looked at an upload is let go once it has left, whether its upload is still cached or was
  evicted (`watch_viewers`' `let_go`: the app closes it, since Streamlit keeps a disconnected session, and its
  widgets keep the uploaded bytes, two minutes or more for a reconnect; a visitor who comes back uploads again).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from specreplay.recording.format import Recording, RecordingError
from specreplay.replay import source

BUDGET_BYTES = 3 * source.MAX_UPLOAD_BYTES  # three of the largest uploads parsed at once, ~45 MB parsed
IDLE_S = 600.0  # an upload unseen this long belongs to a visitor who left
SWEEP_S = 10.0  # how often uploads whose visitors left are looked for


@dataclass
class _Entry:
    result: Recording | RecordingError
    size: int
    seen: float
    viewers: set[str] = field(default_factory=set)  # the sessions that looked at it


_CACHE: OrderedDict[str, _Entry] = OrderedDict()
_LOCK = threading.Lock()  # guards _CACHE
_PARSE = threading.Lock()  # one parse at a time, server-wide
_SWEEPER: list[threading.Thread] = []
_CONNECTED: list[Callable[[str], bool]] = []  # asks whether a session is still connected (watch_viewers)
_LET_GO: list[Callable[[str], None]] = []  # frees what the app holds of a session that left (watch_viewers)
_VIEWERS: set[str] = set()  # every session that looked at an upload, until it leaves (evicted uploads' too)


def watch_viewers(connected: Callable[[str], bool], let_go: Callable[[str], None] | None = None) -> None:
    """How to ask whether a viewing session is still connected, and what to call for each session that looked at
    an upload once it has left (the app passes Streamlit's; the core imports no Streamlit)."""
    _CONNECTED[:] = [connected]
    _LET_GO[:] = [let_go] if let_go else []


def parsed(key: str, name: str, read: Callable[[], bytes], viewer: str | None = None) -> Recording | RecordingError:
    """The upload `key` (Streamlit's file id) parsed, from the cache or now (`read` gives its bytes, called only
    then); a RecordingError is returned, not raised, so a bad file is not parsed again on every rerun either.
    `viewer`: the session looking at it, so the upload can go when its sessions have."""
    with _LOCK:
        _VIEWERS.update({viewer} if viewer else ())
        entry = _CACHE.get(key)
        if entry is not None:
            entry.seen = time.monotonic()
            entry.viewers |= {viewer} if viewer else set()
            _CACHE.move_to_end(key)
            return entry.result
    with _PARSE:
        with _LOCK:  # another session may have parsed the same upload while this one waited
            if key in _CACHE:
                return _CACHE[key].result
        data = read()
        try:
            result: Recording | RecordingError = source.load_upload(name, data)
        except RecordingError as exc:
            result = exc.with_traceback(None)  # its frames would keep the upload's bytes alive
    with _LOCK:
        _CACHE[key] = _Entry(result, len(data), time.monotonic(), {viewer} if viewer else set())
        del data
        dropped = _evict(BUDGET_BYTES)
    if dropped:
        release()
    _start_sweeper()
    return result


def held_bytes() -> int:
    """Uploaded bytes whose parsed form the cache holds now."""
    with _LOCK:
        return sum(e.size for e in _CACHE.values())


def drop_idle(now: float | None = None) -> int:
    """Drop uploads not seen for IDLE_S or whose viewing sessions are all gone, and give their memory back; returns
    how many were dropped."""
    now = time.monotonic() if now is None else now
    connected = _CONNECTED[0] if _CONNECTED else None
    with _LOCK:
        left = [k for k, e in _CACHE.items()
                if connected is not None and e.viewers and not any(map(connected, e.viewers))]
        idle = [k for k, e in _CACHE.items() if now - e.seen > IDLE_S and k not in left]
        gone = {v for v in _VIEWERS if not connected(v)} if connected is not None else set()
        _VIEWERS.difference_update(gone)
        for key in left + idle:
            del _CACHE[key]
    for viewer in sorted(gone) if _LET_GO else ():
        _LET_GO[0](viewer)
    if left or idle or gone:
        release()
    return len(left) + len(idle)


def clear() -> None:
    with _LOCK:
        _CACHE.clear()
        _VIEWERS.clear()
    release()


def _evict(budget: int) -> int:
    """Drop least recently used uploads until the rest fit the budget (the newest always stays)."""
    dropped = 0
    while len(_CACHE) > 1 and sum(e.size for e in _CACHE.values()) > budget:
        _CACHE.popitem(last=False)
        dropped += 1
    return dropped


def release() -> None:
    """Collect the dropped recordings and return free heap pages to the OS (a no-op where libc has no malloc_trim)."""
    gc.collect()
    if _TRIM is not None:
        _TRIM(0)


def _find_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


_TRIM = _find_trim()


def _start_sweeper() -> None:
    with _LOCK:
        if _SWEEPER:
            return
        thread = threading.Thread(target=_sweep, name="specreplay-upload-sweeper", daemon=True)
        _SWEEPER.append(thread)
    thread.start()


def _sweep() -> None:
    while True:
        time.sleep(SWEEP_S)
        drop_idle()
