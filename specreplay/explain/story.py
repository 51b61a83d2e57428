"""The start page's evidence, picked by written rules from our llama.cpp recordings (fixed arm names, team rules):

    pair = drafter_wins(wanted.read(panels.CPU_LADDER))  # F16 vs F16 + 0.5B draft model on the non-copy prompt where
                                                         # it gains most
    gpu = drafter_wins(wanted.read(panels.HEAD_CELLS), panels.HEAD_PAIR, None)  # the same rule, on the GPU
    curve = drafter_by_level(wanted.read(panels.CPU_SWEEP))  # the same drafter on ÷ off, per level, and its crossing

Every multiplier is specreplay.replay.speedup's (the replay's own figure for the same pair).
"""

from __future__ import annotations

from dataclasses import dataclass

from specreplay.explain.artefacts import left_out
from specreplay.explain.derived import sustained_below
from specreplay.explain.sweeps import paired_speedups
from specreplay.recording.format import Recording
from specreplay.replay.speedup import arm_rate, arm_speedup

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


def drafter_wins(rec: Recording, pair: tuple[str, str] = F16_PAIR,
                 quant_pair: tuple[str, str] | None = Q4_PAIR) -> DrafterWin | None:
    """The greedy prompt that is not a copy task on which the pair's drafter arm (F16 + draft model) gains most
    over its target alone; None when it gains on none (or an arm is missing). The quant pair, where the file has
    it, is the same drafter on the 4-bit target."""
    ids = {a.id for a in rec.arms}
    if not set(pair) <= ids:
        return None
    wins = []
    for p in rec.prompts:
        if p.kind == COPY_KIND or not p.greedy:
            continue
        gain = arm_speedup(rec, pair[1], pair[0], p.id)
        if gain and gain > 1:
            wins.append((gain, p.id))
    if not wins:
        return None
    gain, prompt = max(wins)
    q = quant_pair if quant_pair and set(quant_pair) <= ids else None
    return DrafterWin(prompt, arm_rate(rec, pair[0], prompt) or 0.0, arm_rate(rec, pair[1], prompt) or 0.0,
                      gain, arm_rate(rec, q[0], prompt) if q else None, arm_rate(rec, q[1], prompt) if q else None,
                      arm_speedup(rec, q[1], q[0], prompt) if q else None)


@dataclass(frozen=True)
class ByLevel:
    decode: dict[int, float | None]  # level → each stream's median decode tok/s, drafter on ÷ off
    crossing: int | None  # the lowest level from which it stays below 1.0


def drafter_by_level(rec: Recording, pair: tuple[str, str] = F16_PAIR) -> ByLevel | None:
    """The drafter's per-stream decode speedup at each recorded concurrency level (specreplay.explain.sweeps), the
    levels an engine's artefact produced left out (specreplay.explain.artefacts)."""
    points = {s.concurrency: s.decode for s in paired_speedups(rec) if (s.baseline, s.arm) == pair and s.mix is None
              and not left_out(rec, s.arm, s.concurrency)}
    return ByLevel(dict(sorted(points.items())), sustained_below(points)) if points else None
