"""The one way pages, commands and exports get a recording from disk: listed from their header lines alone, each
file parsed at most once per process for a given (path, size, mtime).

    for entry in entries(): entry.name, entry.header      # every recording in the folders, line 1 only
    rec = recording(path)                                 # parsed once; RecordingError names file:line and field
    got = read("qwen-coder-1.5b-llamacpp-cpu.jsonl")      # by name: a Recording, its one-line problem, or None

A file being written (a recorder still running) changes size and mtime, so it is parsed again; so is one edited
by hand. Uploads are bytes, not files: specreplay.replay.uploads holds those.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from specreplay.recording import format as fmt
from specreplay.recording.format import Recording, RecordingError
from specreplay.recording.header import Header
from specreplay.recording.locations import recording_file, recording_files

MAX_PARSED = 32  # every bundled recording (18) and a few of the user's stay parsed; more are parsed again


def recording(path: str | os.PathLike, *, repair: bool = False) -> Recording:
    """The recording in `path`. With repair=True a last line without its newline (a recorder still writing) is left
    out; a file that ends in a newline is parsed once for both. OSError if unreadable, RecordingError if invalid."""
    p = Path(path)
    stat = p.stat()
    got = _parsed(str(p), stat.st_mtime_ns, stat.st_size, repair and not _ends_in_newline(p))
    if isinstance(got, RecordingError):
        raise got
    return got


def header(path: str | os.PathLike) -> Header:
    """Line 1 alone, typed as `recording` types it (the whole file is not read)."""
    p = Path(path)
    stat = p.stat()
    got = _header(str(p), stat.st_mtime_ns, stat.st_size)
    if isinstance(got, RecordingError):
        raise got
    return got


def read(name: str) -> Recording | str | None:
    """A recording of the folders by file name, or its one-line problem, or None while it is not there (the pages
    show what it will hold)."""
    path = recording_file(name)
    if not path.exists():
        return None
    try:
        return recording(path)
    except (RecordingError, OSError) as e:
        return str(e)


@dataclass(frozen=True)
class Entry:
    """One recording of the folders as its header line describes it."""

    path: Path
    header: Header | None  # None when line 1 cannot be read
    problem: str = ""  # why not, in one line

    @property
    def name(self) -> str:
        """What the replay page's URL (?recording=) holds."""
        return self.path.stem


def entries() -> list[Entry]:
    """Every recording in the recording folders (specreplay.recording.locations): recordings made on an accelerator first,
    timing-only ones (dummy weights) last, then by name; an unreadable header sorts with the CPU files."""
    found = []
    for path in recording_files():
        try:
            found.append(Entry(path, header(path)))
        except (OSError, RecordingError) as e:
            found.append(Entry(path, None, str(e)))
    return sorted(found, key=lambda e: (e.header is None or e.header.machine.accelerator is None,
                                        e.header is not None and e.header.timing_only, e.name))


def _ends_in_newline(path: Path) -> bool:
    with open(path, "rb") as fh:
        if fh.seek(0, os.SEEK_END) == 0:
            return True
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"


@lru_cache(maxsize=MAX_PARSED)
def _parsed(path: str, mtime_ns: int, size: int, repair: bool) -> Recording | RecordingError:
    try:
        return fmt.load(path, repair=repair)
    except RecordingError as e:  # kept: a broken file is reported again without being parsed again
        return e


@lru_cache(maxsize=4 * MAX_PARSED)
def _header(path: str, mtime_ns: int, size: int) -> Header | RecordingError:
    try:
        return fmt.load_header(path)
    except RecordingError as e:
        return e
