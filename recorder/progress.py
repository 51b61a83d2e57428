"""A one-line progress bar on stderr (a plain line per step when stderr is not a terminal)."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, done: int = 0, enabled: bool = True):
        self.total, self.done, self.enabled = total, done, enabled
        self.t0, self.started_at = time.monotonic(), done
        self.tty = sys.stderr.isatty()

    def step(self, label: str) -> None:
        self.done += 1
        if not self.enabled:
            return
        width = 28
        fill = width * self.done // max(self.total, 1)
        rate = (time.monotonic() - self.t0) / max(self.done - self.started_at, 1)
        eta = rate * (self.total - self.done)
        line = f"[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total}  {label}  ~{eta:.0f} s left"
        if self.tty:
            sys.stderr.write("\r\033[K" + line + ("\n" if self.done >= self.total else ""))
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def note(self, text: str) -> None:
        sys.stderr.write(("\r\033[K" if self.tty else "") + text + "\n")
        sys.stderr.flush()
