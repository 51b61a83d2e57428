"""Word wrap for the video's scrolling text, fed chunk by chunk as the replay advances.

Greedy wrapping never changes a line once it is closed, so feeding chunks one at
a time gives exactly the lines that wrapping the whole visible text would give;
only the open last line is re-laid out as chunks arrive. Each character keeps a
mark (0: plain; 1 or 2: a burst, i.e. a chunk of several tokens, in alternating
shades), so a line is a list of (text, mark) segments.
"""

from __future__ import annotations

from collections.abc import Callable

Segment = tuple[str, int]  # (text, mark)
Line = tuple[Segment, ...]

TAB = "    "


def segments(chars: list[tuple[str, int]]) -> Line:
    """Merge neighbouring characters with the same mark into segments."""
    out: list[Segment] = []
    for ch, mark in chars:
        if out and out[-1][1] == mark:
            out[-1] = (out[-1][0] + ch, mark)
        else:
            out.append((ch, mark))
    return tuple(out)


class Wrapper:
    """Greedy word wrap to a pixel width; `feed` appends text, `lines` is the result so far."""

    def __init__(self, max_width: float, char_width: Callable[[str], float]):
        self.max_width = max_width
        self.char_width = char_width
        self.closed: list[Line] = []
        self.chars: list[tuple[str, int]] = []  # the open last line
        self.width = 0.0

    def feed(self, text: str, mark: int) -> None:
        for ch in text.replace("\r\n", "\n").replace("\t", TAB):
            if ch == "\n":
                self._close(len(self.chars), skip=0)
            elif ch.isprintable():
                self._add(ch, mark)

    def lines(self) -> list[Line]:
        return [*self.closed, segments(self.chars)]

    def _add(self, ch: str, mark: int) -> None:
        w = self.char_width(ch)
        if self.width + w <= self.max_width or not self.chars:
            self.chars.append((ch, mark))
            self.width += w
            return
        if ch == " ":  # a space that overflows ends the line and is not carried over
            self._close(len(self.chars), skip=0)
            return
        space = max((i for i, (c, _) in enumerate(self.chars) if c == " "), default=-1)
        if space > 0:  # move the unfinished word down with it
            self._close(space, skip=1)
        else:  # one word wider than the pane: break it anywhere
            self._close(len(self.chars), skip=0)
        self._add(ch, mark)

    def _close(self, end: int, skip: int) -> None:
        self.closed.append(segments(self.chars[:end]))
        self.chars = self.chars[end + skip:]
        self.width = sum(self.char_width(c) for c, _ in self.chars)
