"""Our own ladder from a cells-mode recording: one change per rung, per prompt, each rung's multiplier read off
measured rates (median decode tok/s of the non-warm-up repeats) and their product.

    steps = prompt_ladders(rec, LADDERS["draft"])   # F16 → Q4_K_M → Q4_K_M + draft model, every prompt

A rung's cell is like-for-like when every repeat of both arms produced the same token count (article 000's rule).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from specreplay.explain import panels
from specreplay.explain.derived import ratio
from specreplay.recording.format import Recording
from specreplay.recording.wanted import Wanted
from specreplay.replay.panes import median_rate

# Rung orders of the llama.cpp ladder recording (team rules: arms f16, q4, f16-draft, q4-draft, q4-ngram). Each
# rung changes one thing: the weights, or the drafter.
LADDERS: dict[str, tuple[str, ...]] = {
    "draft": ("f16", "q4", "q4-draft"),
    "ngram": ("f16", "q4", "q4-ngram"),
    "draft_first": ("f16", "f16-draft", "q4-draft"),
}

# Each machine's ladders: drafter → (the recording that holds every rung, by its header facts; the rung order). On
# the H200 (vLLM 0.23) bf16-draft and q4-draft are in different files (each beside its own bf16 and q4 runs), so no
# file holds the drafter-first ladder and it is not offered there.
MACHINE_LADDERS: dict[str, dict[str, tuple[Wanted, tuple[str, ...]]]] = {
    "cpu": {d: (panels.CPU_LADDER, arms) for d, arms in LADDERS.items()},
    "h200": {"draft": (panels.GPU_DRAFT_LADDER, ("bf16", "q4", "q4-draft")),
             "ngram": (panels.GPU_NGRAM_LADDER, ("bf16", "q4", "q4-ngram"))},
}


@dataclass(frozen=True)
class Rung:
    arm: str
    rate: float | None  # median decode tok/s (first token excluded)
    vs_previous: float | None  # this rung ÷ the one before (None on the first rung or where a rate is missing)
    tokens: frozenset[int]  # token counts over its repeats
    repeats: int


@dataclass(frozen=True)
class PromptLadder:
    prompt: str
    kind: str
    temperature: float
    rungs: tuple[Rung, ...]

    @property
    def product(self) -> float | None:
        """The product of the rung multipliers (= last ÷ first when every rung was measured)."""
        steps = [r.vs_previous for r in self.rungs[1:]]
        known = [s for s in steps if s is not None]
        return math.prod(known) if steps and len(known) == len(steps) else None

    @property
    def like_for_like(self) -> bool:
        """Every repeat of every rung produced one and the same token count."""
        return len(frozenset().union(*(r.tokens for r in self.rungs))) == 1

    @property
    def greedy(self) -> bool:
        return not self.temperature


def has_arms(rec: Recording, arms: tuple[str, ...]) -> bool:
    """Every arm is in the header and has a finished non-warm-up run (a file may name an arm it never ran)."""
    ids = {a.id for a in rec.arms}
    ran = {r.arm for r in rec.runs if r.ok and not r.warmup}
    return all(a in ids and a in ran for a in arms)


def prompt_ladders(rec: Recording, arms: tuple[str, ...]) -> list[PromptLadder]:
    """One ladder per prompt of the recording, rungs in the given arm order; [] if an arm is missing."""
    if not has_arms(rec, arms):
        return []
    out = []
    for p in rec.prompts:
        rungs: list[Rung] = []
        for arm in arms:
            runs = [r for r in rec.select(arm, p.id) if r.ok]
            rate = median_rate(runs)
            prev = rungs[-1].rate if rungs else None
            rungs.append(Rung(arm, rate, ratio(rate, prev),
                              frozenset(r.tokens for r in runs), len(runs)))
        out.append(PromptLadder(p.id, p.kind, p.temperature or 0.0,
                                tuple(rungs)))
    return out
