"""The llama.cpp recordings of issue #21, by their fixed names (team rules), and the pages' one way to read one.

Until a file lands in recordings/ the pages show what it will hold; a file that cannot be read is named with
its one-line problem, never a traceback.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from specreplay.recording.format import Recording, RecordingError, load
from specreplay.locations import recording_file

LADDER = "qwen-coder-1.5b-llamacpp-cpu.jsonl"  # cells: f16, q4, f16-draft, q4-draft, q4-ngram
SWEEP = "qwen-coder-1.5b-llamacpp-cpu-sweep.jsonl"  # levels 1 2 4 8: f16, f16-draft, q4, q4-draft
BREAKEVEN = "qwen-coder-1.5b-llamacpp-cpu-breakeven.jsonl"  # set acceptance lengths × levels
TEMPERATURE = "qwen-coder-1.5b-llamacpp-cpu-temperature.jsonl"


def read(name: str) -> Recording | str | None:
    """The recording, or its one-line problem, or None while the file has not landed."""
    path = recording_file(name)
    if not path.exists():
        return None
    stat = path.stat()
    return _read(path, stat.st_mtime_ns, stat.st_size)


def landed(name: str) -> bool:
    return isinstance(read(name), Recording)


@lru_cache(maxsize=8)
def _read(path: Path, mtime_ns: int, size: int) -> Recording | str:
    try:
        return load(path)
    except (RecordingError, OSError) as e:
        return str(e)
