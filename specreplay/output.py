"""One rule for every command that writes a file (export-html, export-chart, video, import, and the recorder's
record and sweep):

- the output is a regular file or nothing yet, in an existing folder: never a directory, a device, a FIFO, a
  socket or a symbolic link (a link, dangling or not, would be replaced by a file or written through);
- never one of the command's own inputs, --force or not;
- never replace a file this run did not create unless the user passed --force (the recorder instead resumes only
  its own recording of the same config: recorder/session.py);
- never leave a half-written file: write beside the target, then rename it into place;
- every refusal and failure names the path the user gave, with what is wrong with it, in one line.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

_UMASK = os.umask(0o022)
os.umask(_UMASK)  # read once, at import (os.umask can only be read by setting it)
FILE_MODE = 0o666 & ~_UMASK  # what a plain open() gives a new file; mkstemp's files are 0600


class OutputError(ValueError):
    """The output path cannot be used; the message names it and says what to do."""


class WriteError(OSError):
    """A write that failed (a full disk, a read-only folder): its line names the path the user gave, never the
    temporary file beside it, with the system's reason and what to do. An OSError, so the recorder's handler, which
    says what was saved, still takes it."""

    def __str__(self) -> str:
        advice = {errno.ENOSPC: "free some space, or choose another -o", errno.EDQUOT: "free some space, or choose "
                  "another -o", errno.EROFS: "the file system is read-only: choose another -o",
                  errno.EACCES: "choose a folder you may write to with -o"}.get(self.errno or 0, "check the folder")
        return f"{self.filename}: cannot write it ({self.strerror}) — {advice}; nothing was written"


def write_error(path: Path, exc: OSError) -> WriteError:
    """`exc` (raised while writing `path` or the file beside it) as the user's path's WriteError."""
    code = exc.errno or errno.EIO
    return WriteError(code, exc.strerror or os.strerror(code), str(path))


def check_target(path: Path, *, inputs: Iterable[Path] = (), example: str = "") -> None:
    """What every writer checks first, before any work: `path` is nothing yet or a regular file, its folder
    exists, and it is none of `inputs`. Nothing is created or changed here."""
    if path.is_symlink():
        raise OutputError(f"{path}: is a symbolic link (to {os.readlink(path)}) — give -o the path of a regular "
                          "file or a new one (nothing was written)")
    if path.is_dir():
        raise OutputError(f"{path}: is a directory — give a file name, e.g. -o {path / (example or 'out' + path.suffix)}")
    if path.exists() and not path.is_file():
        raise OutputError(f"{path}: is {_kind(path)}, not a regular file — choose another -o (nothing was written; "
                          "--force replaces regular files only)")
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise OutputError(f"{path}: the folder {folder} {what} — create it, or choose another -o")
    for src in inputs:
        if path.exists() and src.exists() and os.path.samefile(path, src):
            raise OutputError(f"{path}: is this command's input {src} — choose another -o (nothing was written)")


def check_output(path: Path, *, force: bool = False, inputs: Iterable[Path] = ()) -> None:
    """check_target, and an existing file is replaced only with --force."""
    check_target(path, inputs=inputs)
    if path.exists() and not force:
        raise OutputError(f"{path}: exists — choose another -o, or pass --force to replace it (nothing was written)")


def _kind(path: Path) -> str:
    mode = path.stat().st_mode
    return ("a character device" if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode)
            else "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a special file")


def write_atomic(path: Path, data: str | bytes | Iterable[str]) -> None:
    """Write `data` to a new file beside `path`, flush it to disk, then rename it over `path` in one step:
    a crash or a full disk leaves either the old file or the new one, never half of it. `data` may be made while
    it is written (an iterable of text): an exception from it leaves no file either."""
    parts = [data] if isinstance(data, (str, bytes)) else data
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise write_error(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            for part in parts:
                fh.write(part.encode("utf-8") if isinstance(part, str) else part)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, FILE_MODE)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise write_error(path, exc) from None
        raise
