"""The start page's evidence, picked by written rules from our llama.cpp recordings (fixed arm names, team rules):

    pair = drafter_wins(read(LADDER))     # F16 vs F16 + 0.5B draft model on the non-copy prompt where it gains most
    curve = drafter_by_level(read(SWEEP))  # the same drafter on ÷ off, per concurrency level, and its crossing

Every multiplier is specreplay.speedup's (the replay's own figure for the same pair).
"""

from __future__ import annotations

from dataclasses import dataclass

from specreplay.artefacts import left_out
from specreplay.full_scale import sustained_crossing
from specreplay.recording.format import Recording
from specreplay.speedup import arm_rate, arm_speedup
from specreplay.sweeps import paired_speedups

# (target, the same target + the 0.5B draft model) on 16-bit and on 4-bit weights
F16_PAIR = ("f16", "f16-draft")
Q4_PAIR = ("q4", "q4-draft")
COPY_KIND = "copy-quote"


@dataclass(frozen=True)
class DrafterWin:
    prompt: str
    f16_rate: float
    f16_draft_rate: float
    gain: float  # f16-draft ÷ f16: above 1, the drafter finishes first
    q4_rate: float | None
    q4_draft_rate: float | None
    q4_gain: float | None  # q4-draft ÷ q4: the same drafter on the 4-bit target


def drafter_wins(rec: Recording) -> DrafterWin | None:
    """The greedy prompt that is not a copy task on which F16 + draft model gains most over F16; None when it
    gains on none (or an arm is missing)."""
    ids = {a.id for a in rec.arms}
    if not set(F16_PAIR) <= ids:
        return None
    wins = []
    for p in rec.prompts:
        if p.kind == COPY_KIND or not p.greedy:
            continue
        gain = arm_speedup(rec, F16_PAIR[1], F16_PAIR[0], p.id)
        if gain and gain > 1:
            wins.append((gain, p.id))
    if not wins:
        return None
    gain, prompt = max(wins)
    quant = set(Q4_PAIR) <= ids
    return DrafterWin(prompt, arm_rate(rec, F16_PAIR[0], prompt) or 0.0, arm_rate(rec, F16_PAIR[1], prompt) or 0.0,
                      gain, arm_rate(rec, Q4_PAIR[0], prompt) if quant else None,
                      arm_rate(rec, Q4_PAIR[1], prompt) if quant else None,
                      arm_speedup(rec, Q4_PAIR[1], Q4_PAIR[0], prompt) if quant else None)


@dataclass(frozen=True)
class ByLevel:
    decode: dict[int, float | None]  # level → each stream's median decode tok/s, drafter on ÷ off
    crossing: int | None  # the lowest level from which it stays below 1.0


def drafter_by_level(rec: Recording, pair: tuple[str, str] = F16_PAIR) -> ByLevel | None:
    """The drafter's per-stream decode speedup at each recorded concurrency level (specreplay.sweeps)."""
    points = {s.concurrency: s.decode for s in paired_speedups(rec) if (s.baseline, s.arm) == pair and s.mix is None
              and not left_out(rec, s.arm, s.concurrency)}
    return ByLevel(dict(sorted(points.items())), sustained_crossing(points)) if points else None
