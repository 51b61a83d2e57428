"""The formula fitted to our arms: for each recorded speculative arm, the α its counters imply and the c its
step times imply, put into E[τ] / (1 + γc), against the speedup measured on the same runs.

The fit is per cell (arm × prompt, specreplay.explain.acceptance_measured.AcceptanceCell: its α, its c, its measured
speedup); residual = measured ÷ predicted − 1, which is the share of steps that drafted nothing. Per arm the
page summarises its cells: acceptance length from the pooled counters, and the median c, the drafter's cost
relative to one target step (what quantization changes: a cheaper target makes the same drafter dearer).

    fits = arm_fits(cells)
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

from specreplay import theory
from specreplay.explain.acceptance_measured import AcceptanceCell


@dataclass(frozen=True)
class ArmFit:
    file: str
    arm: str
    baseline: str
    gamma: int
    cells: tuple[AcceptanceCell, ...]

    @property
    def acceptance_length(self) -> float:
        length = sum((c.counts for c in self.cells[1:]), self.cells[0].counts).acceptance_length
        assert length is not None, "every cell has drafts (acceptance_measured.cells_of)"
        return length

    @property
    def alpha(self) -> float:
        return theory.implied_alpha(self.acceptance_length, self.gamma)

    @property
    def cost_ratio(self) -> float:
        return median(c.cost_ratio for c in self.cells)

    @property
    def measured(self) -> float:
        """The median of its cells' measured speedups."""
        return median(c.measured_speedup for c in self.cells)


def arm_fits(cells: list[AcceptanceCell], greedy_only: bool = False) -> list[ArmFit]:
    """One fit per (file, arm), in the cells' order; greedy_only keeps temperature-0 (or unset) cells."""
    groups: dict[tuple[str, str], list[AcceptanceCell]] = {}
    for c in cells:
        if greedy_only and c.temperature:
            continue
        groups.setdefault((c.file, c.arm), []).append(c)
    return [ArmFit(file, arm, cs[0].baseline, cs[0].gamma, tuple(cs)) for (file, arm), cs in groups.items()]


def residual(c: AcceptanceCell) -> float:
    """One cell's measured ÷ predicted − 1 (predicted with its own α and c)."""
    return c.measured_speedup / c.predicted - 1
