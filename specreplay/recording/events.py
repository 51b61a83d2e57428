"""A run's streamed chunks: `Event` one at a time, `Events` all of a run's in a few flat arrays.

A parsed upload used to hold three Python objects per chunk (an Event, its text, its time): 160 bytes a chunk, a
million small objects for an 18 MiB file, spread over Python's allocator arenas and interleaved with whatever the
server allocated meanwhile, so the arenas stayed after the upload was dropped. `Events` keeps a run's times and
token counts in arrays, its texts as one string, and builds an Event only when one is asked for.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, repeat
from typing import overload


@dataclass(frozen=True, slots=True)
class Event:
    """One streamed chunk: when it arrived and what it carried."""

    t_us: int  # microseconds since the request was sent
    n: int  # tokens in this chunk (several for an accepted speculative block)
    text: str
    ids: tuple[int, ...] | None = None


class Events(Sequence[Event]):
    """A run's events, read like a tuple of Event. `t_us` and `n` are arrays of each chunk's time and tokens, `text`
    every chunk's text joined (`ends[i]`: where chunk i's ends in it); `ids` each chunk's token ids, None when no
    chunk has any (or they were not kept)."""

    __slots__ = ("t_us", "n", "text", "ends", "ids")

    def __init__(self, t_us: Iterable[int], n: Iterable[int], texts: list[str],
                 ids: list[tuple[int, ...] | None] | None = None):
        self.t_us = array("q", t_us)  # times: up to a day in microseconds, past 32 bits
        self.n = array("I", n)  # at most MAX_CHUNK_TOKENS a chunk
        self.text = "".join(texts)
        self.ends = array("q", accumulate(map(len, texts)))
        self.ids = tuple(ids) if ids is not None and any(x is not None for x in ids) else None

    @staticmethod
    def of(events: Iterable[Event]) -> Events:
        listed = list(events)
        return Events([e.t_us for e in listed], [e.n for e in listed], [e.text for e in listed],
                      [e.ids for e in listed])

    def __len__(self) -> int:
        return len(self.t_us)

    @overload
    def __getitem__(self, i: int) -> Event: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, i: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(i, slice):
            return tuple(self)[i]
        if not -len(self.t_us) <= i < len(self.t_us):
            raise IndexError("event index out of range")
        i %= len(self.t_us)
        start = self.ends[i - 1] if i else 0
        return Event(self.t_us[i], self.n[i], self.text[start:self.ends[i]], self.ids[i] if self.ids else None)

    def texts(self) -> list[str]:
        """Each chunk's text."""
        return [self.text[a:b] for a, b in zip((0, *self.ends), self.ends)]

    def __iter__(self) -> Iterator[Event]:
        return map(Event, self.t_us, self.n, self.texts(), self.ids or repeat(None))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Events):
            return (self.t_us, self.n, self.text, self.ends, self.ids) == (other.t_us, other.n, other.text,
                                                                          other.ends, other.ids)
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return f"Events({len(self)} chunks, {sum(self.n)} tokens)"
