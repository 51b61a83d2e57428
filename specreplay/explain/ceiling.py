"""The physics ceiling of an arm: how fast decoding could be if every token only had to read the weights once.

    ceiling tok/s = memory bandwidth ÷ weight bytes read per token × tokens per engine step
    share         = measured decode tok/s ÷ ceiling

One request at a time, a decode step reads every weight once, so bandwidth ÷ weight bytes bounds the steps per
second; a speculative step yields its measured tokens per step (one plus the drafts it accepted), and the drafter's
own reads are not counted, so the ceiling stays an upper bound. Weight bytes per (model, format) are in
assets/weight_bytes.csv with how each was counted; bandwidths are our measurements: the H200's copy bandwidth
(bench/roofline.py → assets/roofline_h200.json) and this CPU's (bench/memory_bandwidth.py →
assets/memory_bandwidth_cpu.json), both counting bytes read plus written, fastest repeat.

A high share means the arm is memory-bound: fewer bytes (4-bit) or more tokens per read (a drafter) pay. A low
share means per-step overhead (kernel launches, scheduling, dequantization) dominates, and cutting bytes gains
little.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from functools import lru_cache

from specreplay import resources
from specreplay.explain import derived
from specreplay.explain.derived import ratio
from specreplay.recording.arm import Arm
from specreplay.recording.format import Recording
from specreplay.replay.speedup import arm_rate

WEIGHTS_FILE = resources.ASSETS / "weight_bytes.csv"
H200_FILE = resources.ASSETS / "roofline_h200.json"
CPU_FILE = resources.ASSETS / "memory_bandwidth_cpu.json"


@dataclass(frozen=True)
class Bandwidth:
    bytes_per_s: float
    where: str  # the machine it was measured on, in a few words
    file: str  # the assets file holding the measurement


@dataclass(frozen=True)
class Ceiling:
    arm: str
    weight_bytes: int
    bandwidth: Bandwidth
    tokens_per_step: float  # 1 for a plain arm; measured for a speculative one
    tok_s: float  # the ceiling
    rate: float | None  # the arm's measured decode tok/s (the replay's figure)

    @property
    def share(self) -> float | None:
        """Measured rate ÷ ceiling (0.83: 83 % of what the bandwidth allows)."""
        return ratio(self.rate, self.tok_s) if self.rate else None


@lru_cache(maxsize=1)
def weight_bytes_table() -> dict[tuple[str, str], int]:
    with WEIGHTS_FILE.open(newline="", encoding="utf-8") as f:
        return {(row["model"], row["format"]): int(row["bytes_per_token"]) for row in csv.DictReader(f)}


@lru_cache(maxsize=2)
def _measured(path: str) -> dict:
    return json.loads(resources.ASSETS.joinpath(path).read_text())


def bandwidth(rec: Recording) -> Bandwidth | None:
    """The measured bandwidth of the recording's machine: the H200's or this CPU's; None for other machines."""
    gpu = rec.header.machine.accelerator
    if gpu:
        if "H200" not in gpu:
            return None
        data = _measured(H200_FILE.name)
        return Bandwidth(data["ceilings"]["copy_bandwidth_bytes_per_s"], data["provenance"]["gpu"], H200_FILE.name)
    data = _measured(CPU_FILE.name)
    where = f"{data['provenance']['cpu']} ({data['provenance']['cores']} cores)"
    return Bandwidth(data["ceilings"]["copy_bandwidth_bytes_per_s"], where, CPU_FILE.name)


def target_arm(rec: Recording, arm_id: str) -> Arm:
    """The arm whose weights are read every step: a speculative arm's baseline (its target without the drafter)."""
    arm = rec.arm(arm_id)
    return rec.arm(arm.baseline) if arm.speculative and arm.baseline else arm


def tokens_per_step(rec: Recording, arm_id: str, prompt: str) -> float | None:
    """1 for a plain arm; a speculative arm's measured tokens per engine step on this prompt (its counters)."""
    if not rec.arm(arm_id).speculative:
        return 1.0
    runs = rec.select(arm_id, prompt)
    counts = [r.spec for r in runs if r.spec is not None]
    if not runs or len(counts) != len(runs):
        return None
    return derived.tokens_per_step(sum(max(r.tokens - 1, 0) for r in runs), sum(c.accepted for c in counts))


def ceiling(rec: Recording, arm_id: str, prompt: str) -> Ceiling | None:
    """The arm's ceiling on one prompt, or None where its weight bytes, machine or tokens per step are unknown."""
    target = target_arm(rec, arm_id)
    size = weight_bytes_table().get((target.model, target.weight_format))
    band = bandwidth(rec)
    per_step = tokens_per_step(rec, arm_id, prompt)
    if size is None or band is None or per_step is None:
        return None
    return Ceiling(arm_id, size, band, per_step, band.bytes_per_s / size * per_step, arm_rate(rec, arm_id, prompt))


def percent(c: Ceiling | None, rate: float | None = None) -> str:
    """'83 %': the arm's share of its ceiling (or this rate's, e.g. one chosen repeat's); '—' without one."""
    return derived.percent((ratio(rate, c.tok_s) if rate else None) if c and rate is not None else c.share if c else None)
