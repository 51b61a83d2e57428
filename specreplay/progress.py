"""The one progress bar (recorder runs, video frames): a line on stderr, redrawn in place on a terminal.

In a log (stderr not a terminal) it writes a plain line instead: at every new detail (the recorder names the
request it just finished), otherwise every 10 %, so a long render does not flood the log.
"""

from __future__ import annotations

import sys
import time

WIDTH = 28


class Progress:
    def __init__(self, total: int, done: int = 0, *, label: str = "", unit: str = "", enabled: bool = True):
        self.total, self.done, self.label, self.unit, self.enabled = total, done, label, unit, enabled
        self.t0, self.started_at = time.monotonic(), done  # the rate counts only what this call did
        self.tty = sys.stderr.isatty()
        self.shown: tuple[int, str] | None = None

    def step(self, detail: str = "") -> None:
        """One more done; detail says which."""
        self.update(self.done + 1, detail)

    def __call__(self, done: int, total: int) -> None:
        """The (done, total) callback that specreplay.video.render calls after every frame."""
        self.total = total
        self.update(done)

    def update(self, done: int, detail: str = "") -> None:
        self.done = done
        if not self.enabled:
            return
        pct = done * 100 // max(self.total, 1)
        end = done >= self.total
        same_detail = self.shown is not None and detail == self.shown[1]
        if (pct, detail) == self.shown or (not self.tty and pct % 10 and not end and same_detail):
            return
        self.shown = (pct, detail)
        fill = WIDTH * done // max(self.total, 1)
        elapsed = time.monotonic() - self.t0
        eta = elapsed / max(done - self.started_at, 1) * (self.total - done)
        line = " ".join(x for x in (self.label, f"[{'#' * fill}{'.' * (WIDTH - fill)}] {pct:3d}%",
                                    f"{done}/{self.total}", self.unit, detail) if x)
        line += f"  {elapsed:.0f} s" + ("" if end else f", ~{eta:.0f} s left")
        if self.tty:
            sys.stderr.write("\r\033[K" + line + ("\n" if end else ""))
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def note(self, text: str) -> None:
        """A line of its own above the bar."""
        sys.stderr.write(("\r\033[K" if self.tty else "") + text + "\n")
        sys.stderr.flush()
