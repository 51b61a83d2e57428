"""The EAGLE-3 head trained here for the real Qwen2.5-Coder-1.5B (issue #38), as the pages read it: its win on
real text, and per draft length the measured cost c and the acceptance length from which it pays.

    win = start_win(rec)       # bf16 vs bf16 + head (K 4) on the greedy non-copy prompt where it gains most
    heads = head_costs(cells)  # per head arm: its fit (α, median c) and its break-even acceptance length

c is the acceptance page's: a step with the head ÷ a step without = 1 + γc, read from tokens per step and decode
rates (specreplay.explain.acceptance_measured). The break-even is read between the head's measured cells, each a
prompt with its own acceptance length and speedup (specreplay.explain.derived.break_even).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from specreplay import engines
from specreplay.explain import derived, panels, story
from specreplay.explain.acceptance_measured import AcceptanceCell
from specreplay.explain.arm_fit import ArmFit, arm_fits
from specreplay.recording import wanted
from specreplay.recording.counts import total
from specreplay.recording.format import Recording

CARD = re.compile(r"\b[A-Z]{1,2}\d{2,4}\b")  # 'NVIDIA H100 80GB HBM3 …' → 'H100'


@dataclass(frozen=True)
class HeadCost:
    fit: ArmFit  # the head arm's cells, pooled acceptance length, median c
    break_even: float | None  # the acceptance length from which it pays; None: not within its cells
    pays_everywhere: bool  # it paid on every cell (break_even is then the smallest length measured)

    @property
    def step_ratio(self) -> float:
        """A step with the head ÷ one without (1 + γc at the median c)."""
        return 1 + self.fit.gamma * self.fit.cost_ratio


def start_win(rec: Recording) -> story.DrafterWin | None:
    """The start page's rule (story.drafter_wins) on the trained head's pair; no 4-bit pair in this file."""
    return story.drafter_wins(rec, panels.HEAD_PAIR, None)


def card(machine: str) -> str:
    """The accelerator's model in a recording's machine line ('NVIDIA H100 80GB HBM3 …' → 'H100'); else the line."""
    found = CARD.search(machine)
    return found.group(0) if found else machine


def engine(line: str, name: str) -> str:
    """'vllm 0.26.0' → 'vLLM 0.26.0': the engine as the pages name it, with the version its server reported."""
    return engines.label(name) + line[len(name):] if line.startswith(name) else line


def head_cells(cells: list[AcceptanceCell]) -> list[AcceptanceCell]:
    """The trained head's cells (its arms at K 3-5), not those of its file's n-gram arm."""
    file = wanted.newest(panels.HEAD_CELLS)
    return [c for c in cells if c.file == file and c.arm in panels.HEADS]


def ngram_v1_cells(cells: list[AcceptanceCell]) -> list[AcceptanceCell]:
    """The cells of the head file's n-gram arm: vLLM 0.26.0 ran it on its V1 runner, the cause of its slowdown not
    isolated."""
    file = wanted.newest(panels.HEAD_CELLS)
    return [c for c in cells if c.file == file and c.arm == panels.HEAD_NGRAM]


def head_costs(cells: list[AcceptanceCell]) -> list[HeadCost]:
    """One row per head arm, in the file's order: its fit and where its speedup passes 1.0 along acceptance."""
    out = []
    for fit in arm_fits(head_cells(cells)):
        length, everywhere = derived.break_even((c.acceptance_length, c.measured_speedup) for c in fit.cells)
        out.append(HeadCost(fit, length, everywhere))
    return out


def acceptance_length(rec: Recording, arm: str, prompt: str) -> float | None:
    """1 + accepted ÷ drafts over the arm's repeats on the prompt, from the engine's counters (as the summary)."""
    counts = total(r.spec for r in rec.select(arm, prompt))
    return counts.acceptance_length if counts else None
