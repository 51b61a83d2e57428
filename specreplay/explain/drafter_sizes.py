"""How big must the target be for a drafter to pay? The size recordings (gpu/sizes.py, issue #29) as one table.

Four bf16 targets (Qwen2.5-1.5B, -7B, -14B decoder shapes and the 27B class), each alone and with three drafter
kinds — a 0.5B-class draft model (vLLM 0.23.0's draft-model graph defect patched), a DFlash-shaped drafter and an
EAGLE-3-shaped head — at set acceptance lengths 1.5 … 5, one request at a time, recorded in one lease on one H200
host. Timing only: dummy weights, the acceptance set with vLLM's synthetic rejection sampling.

    table = size_table()          # one SizeRow per (target, drafter kind): steps, c, where the drafter starts to pay

Per drafter arm: the step with the drafter = tokens per step (the counters) ÷ decode rate; c is the acceptance
page's, that step ÷ the target's own step = 1 + γc (specreplay.explain.full_scale.step_cost); the speedup is the rate
ratio. The break-even acceptance is read between the measured lengths where the speedup crosses 1.0 (≈ 1 + γc).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from specreplay.explain import derived, panels
from specreplay.explain import full_scale as fs
from specreplay.explain.derived import ratio
from specreplay.recording import catalogue, wanted
from specreplay.recording.format import Recording

SIZES = {"1.5b": 1.5, "7b": 7.0, "14b": 14.0, "27b": 27.0}  # the target class, billions of parameters
KINDS = ("draft", "dflash", "eagle3")
DRAFT_LENGTH = {"draft": 4, "dflash": 7, "eagle3": 4}  # K; a step can accept at most K + 1 tokens


@dataclass(frozen=True)
class Cell:
    """One drafter arm: a drafter kind on one target at one set acceptance length."""
    size: str
    kind: str
    arm: str
    set_length: float
    measured_length: float | None  # 1 + accepted / drafts from the counters
    rate: float | None  # median decode tok/s
    speedup: float | None  # ÷ the target alone
    cost: float | None  # c: a step with the drafter ÷ one without = 1 + γc
    patched: bool  # False only for the draft-model arms kept as the defect's before


@dataclass(frozen=True)
class SizeRow:
    size: str
    kind: str
    target_step_ms: float | None
    drafter_step_ms: float | None  # median over the set lengths
    cost: float | None  # median c over the set lengths
    break_even: float | None  # set acceptance from which the drafter pays; None: not within the lengths measured
    pays_everywhere: bool  # it already paid at the smallest length measured (break_even is then that length)
    cells: tuple[Cell, ...]


def recordings() -> list[tuple[str, Recording]]:
    """The size-study recordings that load (a broken one is left out), smallest target first, then oldest first."""
    found = [(name, rec) for name in wanted.matching(panels.SIZES) if isinstance(rec := catalogue.read(name), Recording)]
    return sorted(found, key=lambda got: min(SIZES.get(a.target_size or "", 0.0) for a in got[1].arms))


def cells(recs: list[Recording]) -> tuple[dict[str, float], list[Cell]]:
    """Each target's own decode rate, and every drafter arm of the files as a Cell."""
    base: dict[str, float] = {}
    for rec in recs:
        for arm in rec.arms:
            if arm.target_size and not arm.drafter_shape and (rate := fs.arm_rate(rec, arm.id)):
                base[arm.target_size] = rate
    found = []
    for rec in recs:
        for arm in rec.arms:
            kind, size, length = arm.drafter_shape, arm.target_size, arm.set_acceptance
            if not kind or size not in SIZES or length is None:
                continue
            rate, measured, off = fs.arm_rate(rec, arm.id), fs.measured_acceptance(rec, arm.id), base.get(size)
            found.append(Cell(size, kind, arm.id, length, measured, rate,
                              ratio(rate, off), fs.step_cost(off, rate, measured, arm.draft_length),
                              not arm.draft_graphs_unpatched))
    return base, found


def size_table(recs: list[Recording] | None = None) -> list[SizeRow]:
    """One row per target size and drafter kind present, patched arms only, in size then kind order."""
    base, found = cells(recs if recs is not None else [rec for _, rec in recordings()])
    rows = []
    for size in SIZES:
        for kind in KINDS:
            mine = tuple(c for c in found if c.size == size and c.kind == kind and c.patched)
            if not mine:
                continue
            steps = [c.measured_length / c.rate * 1000 for c in mine if c.rate and c.measured_length]
            costs = [c.cost for c in mine if c.cost is not None]
            length, everywhere = derived.break_even([(c.set_length, c.speedup) for c in mine if c.speedup is not None])
            rows.append(SizeRow(size, kind, 1000 / base[size] if base.get(size) else None,
                                statistics.median(steps) if steps else None,
                                statistics.median(costs) if costs else None, length, everywhere, mine))
    return rows


def unpatched(recs: list[Recording] | None = None) -> list[tuple[Cell, Cell | None]]:
    """The defect's before/after on one host: each unpatched draft-model cell beside the patched one at its length."""
    _, found = cells(recs if recs is not None else [rec for _, rec in recordings()])
    after = {(c.size, c.set_length): c for c in found if c.kind == "draft" and c.patched}
    return [(c, after.get((c.size, c.set_length))) for c in found if not c.patched]
