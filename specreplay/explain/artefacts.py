"""Points that measure the engine rather than the method: drawn marked (hollow, with a legend entry) and left out of
every computed figure (break-even, fits, crossings). The one rule for both kinds:

- an engine defect: every figure of an arm specreplay.engines.defects names (vLLM 0.23.x's draft model without CUDA
  graphs);
- a start-up stall: a sweep level whose median time to first token is STALL_TTFT times its baseline arm's at the same
  level or more. vLLM compiles a kernel the first time a batch shape appears; the level that meets it waits, so its
  throughput says nothing about the drafter (docs/gpu.md).

    left_out(rec, "w4-dflash@1.5", level=2)   # "stall"
"""

from __future__ import annotations

from typing import Literal

from specreplay.engines.defects import draft_graphs_defect
from specreplay.explain.sweeps import level_table
from specreplay.recording.format import Recording

Reason = Literal["defect", "stall"]
# In the bundled sweeps the stalled levels wait 9–101× their baseline's first token; every other level of a drafter
# arm stays at 5.4× or less, so 8× parts them.
STALL_TTFT = 8.0


def stalled(rec: Recording) -> frozenset[tuple[str, str | None, int]]:
    """(arm, mix, level) of every start-up stall in a sweep recording (kept per recording, as level_table is)."""
    at = (len(rec.runs), len(rec.levels))
    kept = rec.derived.get("stalled")
    if kept is None or kept[0] != at:
        stats = {(s.arm, s.mix, s.concurrency): s for s in level_table(rec)}
        found = set()
        for (arm, mix, level), s in stats.items():
            base = stats.get((rec.arm(arm).baseline or "", mix, level))
            if base and base.ttft_median and s.ttft_median and s.ttft_median >= STALL_TTFT * base.ttft_median:
                found.add((arm, mix, level))
        kept = (at, frozenset(found))
        rec.derived["stalled"] = kept
    return kept[1]


def left_out(rec: Recording, arm: str, level: int | None = None, mix: str | None = None) -> Reason | None:
    """Why this arm's figure (at this sweep level) is left out of computed figures and drawn marked; None: it counts."""
    if draft_graphs_defect(rec.arm(arm)):
        return "defect"
    if level is not None and (arm, mix, level) in stalled(rec):
        return "stall"
    return None
