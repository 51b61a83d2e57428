"""The timing-only quantization sweep: each quantized arm's system throughput ÷ bf16's, per concurrency level.

A timing_only recording was served with dummy weights of a real model's shapes: its timings are real, its text is
noise. The per-level system tok/s (all tokens ÷ first request sent → last chunk) and the ratio to the arm's baseline
come from specreplay.explain.sweeps, the same numbers the concurrency page uses.

    rec = wanted.read(panels.QUANT_TIMING_SWEEP)   # the H200 file (a Recording, its problem, or None)
    curves = quant_curves(rec)     # one QuantCurve per arm with a baseline, in header order
"""

from __future__ import annotations

from dataclasses import dataclass

from specreplay.explain.sweeps import paired_speedups
from specreplay.recording.arm import Arm, WeightFormat
from specreplay.recording.format import Recording


@dataclass(frozen=True)
class QuantCurve:
    arm: str
    label: str  # the arm's label, less the model prefix and the " · …" tail
    weight_format: WeightFormat  # which colour the roofline page gives it
    baseline: str
    points: dict[int, float | None]  # concurrency → system tok/s of the arm ÷ its baseline's


def short_label(arm: Arm) -> str:
    """'Qwen2.5-7B-shaped 4-bit GPTQ → Marlin · timing only · H200' → '4-bit GPTQ → Marlin'."""
    head = (arm.label or arm.id).split(" · ")[0]
    first, _, rest = head.partition(" ")
    return rest if first.endswith("-shaped") and rest else head


def quant_curves(rec: Recording) -> list[QuantCurve]:
    """System-throughput ratio to the baseline at every level both arms have (one mix: these sweeps have none)."""
    points: dict[str, dict[int, float | None]] = {}
    for s in paired_speedups(rec):
        if s.mix is None:
            points.setdefault(s.arm, {})[s.concurrency] = s.throughput
    return [QuantCurve(arm=a.id, label=short_label(a), weight_format=a.weight_format, baseline=str(a.baseline),
                       points=dict(sorted(points[a.id].items())))
            for a in rec.arms if a.id in points]
