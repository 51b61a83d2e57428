"""Where recordings live: the bundled ones (specreplay.resources.RECORDINGS), or the folders that
SPECREPLAY_RECORDINGS lists (os.pathsep-separated), so tests and deployments can add their own.
Every page finds recordings here."""

from __future__ import annotations

import os
from pathlib import Path

from specreplay.resources import RECORDINGS


def recording_dirs() -> list[Path]:
    raw = os.environ.get("SPECREPLAY_RECORDINGS")
    return [Path(p) for p in raw.split(os.pathsep) if p] if raw else [RECORDINGS]


def recording_files() -> list[Path]:
    """Every *.jsonl in the folders, one per name (an earlier folder's file wins), by name."""
    found: dict[str, Path] = {}
    for folder in recording_dirs():
        for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
            found.setdefault(path.name, path)
    return [found[name] for name in sorted(found)]


def recording_file(name: str) -> Path:
    """The file called `name` (e.g. smollm2-h200.jsonl) in the first folder that has it; where it would be if
    none has it (check .exists())."""
    dirs = recording_dirs()
    return next((d / name for d in dirs if (d / name).is_file()), dirs[0] / name)


def recording_arg(text: str) -> Path:
    """A command's RECORDING argument: the path as given, or else a bundled recording's name (with or without
    .jsonl), so an install without a checkout can say `specreplay video smollm2-h200.jsonl`."""
    path = Path(text)
    if path.exists() or path.parent != Path("."):
        return path
    bundled = recording_file(text if text.endswith(".jsonl") else text + ".jsonl")
    return bundled if bundled.is_file() else path


def missing_recording(path: Path) -> str:
    """The one line for a recording that is not there, naming the bundled ones a name could pick."""
    names = ", ".join(p.name for p in recording_files())
    return f"{path}: no such file — give a recording's path, or the name of a bundled one ({names})"
