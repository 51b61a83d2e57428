"""The articles' ladder at full scale: what the four 27B-class H200 recordings (issue #25, docs/gpu.md) say.

Each recording is timing only: dummy weights of a 27B-class shape served by vLLM 0.23 on an H200, so the speed
is measured and the text is noise. Every drafter arm ran vLLM's synthetic rejection sampling at an acceptance
length that was *set* (flags.speculative_config.synthetic_acceptance_length), not the drafter's own; where that
length is an article's figure, a number derived here is "measured timing, quoted acceptance" (the panels' badge,
the `[full_scale]` table of assets/lang/<code>.toml).

    rec = wanted.read(panels.FULL_LADDER)    # a Recording, its one-line problem, or None when none is here
    steps = ladder(rec, 5.3)                 # bf16 → 4-bit → 4-bit + drafter at 5.3 (×4-bit, ×drafter, product)
    sweep = wanted.read(panels.FULL_LADDER_SWEEP)
    curves = drafter_curves(sweep)           # drafter on ÷ off per level, one per acceptance, + crossing
    edge = break_even(sweep)                 # per level: the set acceptance where the drafter starts to pay
    curve = quant_curve(sweep)               # 4-bit ÷ bf16 system throughput per level
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from specreplay import theory
from specreplay.explain import derived
from specreplay.explain.artefacts import Reason, left_out
from specreplay.explain.derived import ratio, sustained_below
from specreplay.explain.sweeps import level_table
from specreplay.quoted import article_tables
from specreplay.recording.counts import total
from specreplay.recording.format import Recording
from specreplay.replay.panes import median_rate


def drafter_arms(rec: Recording, baseline: str | None = None) -> dict[float, str]:
    """Set acceptance length → drafter arm id (of one baseline when given), ascending."""
    found: dict[float, str] = {}
    for a in rec.arms:
        length = a.set_acceptance
        if length is not None and (baseline is None or a.baseline == baseline):
            found[length] = a.id
    return dict(sorted(found.items()))


@dataclass(frozen=True)
class Step:
    arm: str
    rate: float | None  # median decode tok/s of the non-warm-up repeats (first token excluded)
    vs_previous: float | None


@dataclass(frozen=True)
class Ladder:
    acceptance: float  # set acceptance length of the drafter rung
    measured_acceptance: float | None  # 1 + accepted / drafts over the drafter rung's repeats (the counters)
    steps: tuple[Step, ...]  # bf16 → 4-bit → 4-bit + drafter
    draft_length: int | None = None  # γ of the drafter rung

    @property
    def product(self) -> float | None:
        known = [s.vs_previous for s in self.steps[1:]]
        return math.prod(known) if known and None not in known else None  # type: ignore[arg-type]


def arm_rate(rec: Recording, arm: str) -> float | None:
    return median_rate([r for r in rec.select(arm, None, warmup=False) if r.ok])


def measured_acceptance(rec: Recording, arm: str) -> float | None:
    counts = total(run.spec for run in rec.select(arm, None, warmup=False))
    return counts.acceptance_length if counts else None


def ladder(rec: Recording, length: float, base: str = "bf16", quant: str = "w4") -> Ladder | None:
    """Article 000's three rungs on our engine: base → quant → quant + drafter at this set acceptance length."""
    drafter = drafter_arms(rec, quant).get(length)
    ids = {a.id for a in rec.arms}
    if drafter is None or not {base, quant} <= ids:
        return None
    steps: list[Step] = []
    for arm in (base, quant, drafter):
        rate = arm_rate(rec, arm)
        prev = steps[-1].rate if steps else None
        steps.append(Step(arm, rate, ratio(rate, prev)))
    return Ladder(length, measured_acceptance(rec, drafter), tuple(steps), rec.arm(drafter).draft_length)


@dataclass(frozen=True)
class QuotedLadder:
    """Our engine's ladder at an article's acceptance figure (an end of a quoted range)."""

    label: str  # the article's row, e.g. "code" (Korean in label_ko)
    label_ko: str
    source: str  # the article's file (assets/articles.csv names it)
    ladder: Ladder


def draft_cost(ladder: Ladder) -> float | None:
    """c, the acceptance page's: one drafting pass ÷ one target step (theory.cost_ratio_from_step). A step with the
    drafter (γ drafts + verifying γ + 1) lasts (accepted tokens per step ÷ rate on) ÷ (1 ÷ rate off) = 1 + γc plain
    steps, so the speedup is acceptance ÷ (1 + γc), the formula's."""
    _, off, on = ladder.steps
    return step_cost(off.rate, on.rate, ladder.measured_acceptance, ladder.draft_length)


def step_cost(off: float | None, on: float | None, accepted_per_step: float | None, gamma: int | None
              ) -> float | None:
    """c, the acceptance page's: a step with the drafter ÷ a step without = 1 + γc, from two decode rates (drafter
    off, on), the tokens a drafter step yields and the draft length γ."""
    if not (off and on and accepted_per_step and gamma):
        return None
    return theory.cost_ratio_from_step(accepted_per_step * off / on, gamma)


def pair_cost(rec: Recording, length: float, base: str = "bf16") -> float | None:
    """draft_cost of the drafter arm at this length over `base` (article 001's bf16 pair)."""
    arm = drafter_arms(rec, base).get(length)
    off, on = pair_rates(rec, length, base)
    return step_cost(off, on, measured_acceptance(rec, arm), rec.arm(arm).draft_length) if arm else None


def quoted_ladders(rec: Recording) -> list[QuotedLadder]:
    """One ladder per end of every acceptance range the articles quote (000: prose, code; 001: copy, free prose)
    that the recording has an arm for, in the articles' order."""
    out = []
    for ref in article_tables.acceptance_references():
        for length in dict.fromkeys((ref.low, ref.high)):
            got = ladder(rec, length)
            if got:
                out.append(QuotedLadder(ref.label_en, ref.label, ref.source, got))
    return out


def pair_rates(rec: Recording, length: float, base: str = "bf16") -> tuple[float | None, float | None]:
    """(drafter off, drafter on at this length) median decode tok/s, for article 001's quant-vs-drafter pairs."""
    arm = drafter_arms(rec, base).get(length)
    return arm_rate(rec, base), (arm_rate(rec, arm) if arm else None)


@dataclass(frozen=True)
class DrafterCurve:
    arm: str
    acceptance: float
    baseline: str
    throughput: dict[int, float | None]  # level → system tok/s, drafter on ÷ off
    decode: dict[int, float | None]  # level → median per-request decode tok/s, on ÷ off
    left_out: dict[int, Reason]  # levels drawn marked and left out of every computed figure (specreplay.explain.artefacts)

    def counted(self) -> dict[int, float | None]:
        """The throughput ratios the computed figures read: the marked levels left out."""
        return {lv: v for lv, v in self.throughput.items() if lv not in self.left_out}

    @property
    def crossing(self) -> int | None:
        """The level from which on the drafter makes the system slower (derived.sustained_below), the marked
        levels left out: a dip between levels above 1.0 is a start-up stall, not a crossing."""
        return sustained_below(self.counted())


def drafter_curves(rec: Recording, baseline: str | None = None) -> list[DrafterCurve]:
    """Drafter on ÷ off at every level both arms have, one curve per set acceptance length, ascending."""
    stats = {(s.arm, s.concurrency): s for s in level_table(rec)}
    by_arm: dict[str, list[int]] = {}
    for a, c in sorted(stats):
        by_arm.setdefault(a, []).append(c)
    out = []
    for arm in rec.arms:
        length, base = arm.set_acceptance, arm.baseline
        if length is None or not base or (baseline and base != baseline):
            continue
        levels = [c for c in by_arm.get(arm.id, []) if (base, c) in stats]
        out.append(DrafterCurve(arm.id, length, base,
                                {c: ratio(stats[arm.id, c].throughput, stats[base, c].throughput) for c in levels},
                                {c: ratio(stats[arm.id, c].decode_median, stats[base, c].decode_median)
                                 for c in levels},
                                {c: why for c in levels if (why := left_out(rec, arm.id, c))}))
    return sorted(out, key=lambda c: (c.baseline, c.acceptance))


def break_even(rec: Recording, baseline: str = "w4") -> dict[int, float | None]:
    """Per level, the set acceptance length at which the drafter's system throughput reaches its target's: read
    linearly between the two measured lengths either side of 1.0, marked cells left out (specreplay.explain.artefacts); the
    lowest length when even it pays; None when no measured length pays."""
    curves = drafter_curves(rec, baseline)
    levels = sorted({c for curve in curves for c in curve.throughput})
    out: dict[int, float | None] = {}
    for lv in levels:
        col = [(c.acceptance, v) for c in curves if (v := c.counted().get(lv)) is not None]
        if col:
            out[lv] = derived.break_even(col)[0]
    return out


def quant_curve(rec: Recording, arm: str = "w4", base: str = "bf16") -> dict[int, float | None]:
    """System throughput of a weight format ÷ bf16 per level (the roofline page's serving curve at 27B)."""
    stats = {(s.arm, s.concurrency): s for s in level_table(rec)}
    return {c: ratio(stats[arm, c].throughput, stats[base, c].throughput)
            for (a, c) in sorted(stats) if a == arm and (base, c) in stats}
