"""The engine's speculative-decoding counters over a run or a level, and the one acceptance length they give."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class SpecCounts:
    """Deltas of the engine's counters (vLLM's or llama-server's): verify steps, draft tokens, accepted tokens."""

    drafts: int
    draft_tokens: int
    accepted: int
    per_position: tuple[int, ...] = ()

    def __add__(self, other: SpecCounts) -> SpecCounts:
        # a position counts only where both have it: a run without per-position counters leaves none
        pos = tuple(a + b for a, b in zip(self.per_position, other.per_position))
        return SpecCounts(self.drafts + other.drafts, self.draft_tokens + other.draft_tokens,
                          self.accepted + other.accepted, pos)

    @property
    def acceptance_rate(self) -> float | None:
        return self.accepted / self.draft_tokens if self.draft_tokens else None

    @property
    def acceptance_length(self) -> float | None:
        """Mean tokens per verification step: 1 + accepted / drafts (None without a draft)."""
        return 1 + self.accepted / self.drafts if self.drafts else None

    @property
    def per_position_rates(self) -> tuple[float, ...]:
        return tuple(a / self.drafts for a in self.per_position) if self.drafts else ()


def total(counts: Iterable[SpecCounts | None]) -> SpecCounts | None:
    """The counters added up (None when none of them is there)."""
    found = [c for c in counts if c is not None]
    return sum(found[1:], found[0]) if found else None
