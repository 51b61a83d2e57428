"""One rule for every command that writes a file (export-html, import, video):

- never replace a file this run did not create, unless the user passed --force, and never the command's own input;
- never leave a half-written file: write beside the target, then rename it into place;
- a path that cannot be written is named, with what is wrong with it (a missing folder, a directory, the input).

The recorder's -o follows its own rule (it resumes only its own recording of the same config: recorder/session.py).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

_UMASK = os.umask(0o022)
os.umask(_UMASK)  # read once, at import (os.umask can only be read by setting it)
FILE_MODE = 0o666 & ~_UMASK  # what a plain open() gives a new file; mkstemp's files are 0600


class OutputError(ValueError):
    """The output path cannot be used; the message names it and says what to do."""


def check_output(path: Path, *, force: bool = False, inputs: Iterable[Path] = ()) -> None:
    """Refuse an output path before any work is done; nothing is created or changed here."""
    if path.is_dir():
        raise OutputError(f"{path}: is a directory — give a file name, e.g. -o {path / ('out' + path.suffix)}")
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise OutputError(f"{path}: the folder {folder} {what} — create it, or choose another -o")
    for src in inputs:
        if path.exists() and src.exists() and os.path.samefile(path, src):
            raise OutputError(f"{path}: is this command's input {src} — choose another -o (nothing was written)")
    if path.exists() and not force:
        raise OutputError(f"{path}: exists — choose another -o, or pass --force to replace it (nothing was written)")


def write_atomic(path: Path, data: str | bytes | Iterable[str]) -> None:
    """Write `data` to a new file beside `path`, flush it to disk, then rename it over `path` in one step:
    a crash or a full disk leaves either the old file or the new one, never half of it. `data` may be made while
    it is written (an iterable of text): an exception from it leaves no file either."""
    parts = [data] if isinstance(data, (str, bytes)) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            for part in parts:
                fh.write(part.encode("utf-8") if isinstance(part, str) else part)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
