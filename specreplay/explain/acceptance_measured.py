"""Acceptance measured in our own recordings, and the formula's speedup from it next to the measured one.

A cell is one speculative arm x prompt of a cells-mode recording (one request at a time), pooled over its
non-warm-up repeats. From the engine's counters (recording.counts.SpecCounts, added over repeats):

- per-position rate i = accepted at draft position i ÷ drafts (the share of drafts whose first i tokens were
  all accepted; the formula's α^i if every token is accepted independently);
- mean acceptance length L = 1 + accepted ÷ drafts, and the α at which E[τ] = L for the arm's γ.

Closed loop: the formula's speedup is E[τ] / (1 + γc). The recording gives c too: tokens after the first ÷
engine steps is tokens per step (each step yields one token plus the drafts it accepted, so steps = tokens
− 1 − accepted); the spec arm's time per step ÷ the baseline's time per token is the step ratio 1 + γc. The
formula then says E[τ] ÷ step ratio, while the measurement is tokens-per-step ÷ step ratio: the two differ
only by the steps that drafted nothing (L counts drafting steps only). With c = 0, the formula's ideal of
a verification of γ + 1 positions costing one plain step, it says E[τ].

Sampled text differs between arms and repeats, so it is never compared word for word. What can be checked is
its kind: the share of the output's word triples found in the prompt, per arm. Speculative sampling must leave
the target model's distribution unchanged, so on a copy prompt both arms should copy about as much.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from statistics import median

from specreplay import theory
from specreplay.engines.defects import EngineDefect, draft_graphs_defect
from specreplay.explain import derived
from specreplay.recording import catalogue
from specreplay.recording.arm import draft_length
from specreplay.recording.counts import SpecCounts, total
from specreplay.recording.format import Recording, RecordingError
from specreplay.recording.kinds import Kind
from specreplay.recording.locations import recording_files
from specreplay.replay.panes import median_rate


@dataclass(frozen=True)
class AcceptanceCell:
    """Acceptance of one speculative arm on one prompt of a cells-mode recording, pooled over its repeats."""

    file: str  # recording file name
    arm: str
    baseline: str
    prompt: str
    kind: str
    temperature: float | None  # the prompt's sampling temperature (None: server default)
    text: str  # the prompt text: cells with the same text at other temperatures form a sweep
    gamma: int  # draft length the arm ran with
    repeats: int
    counts: SpecCounts  # summed over repeats
    decode_tokens: int  # tokens after the first, summed over repeats
    spec_tps: float  # median decode tok/s over repeats (first token excluded)
    base_tps: float  # the baseline arm's, same prompt
    like_for_like: bool  # both arms produced the same token count on every repeat
    spec_copied: float  # median share of the spec arm's output word triples found in the prompt
    base_copied: float  # the same for the baseline
    engine: str  # its line, 'llama.cpp b1-0c1e570'
    engine_name: str  # 'llama.cpp', 'vllm' (Arm.engine.name)
    f16_of_4bit: bool  # the arm or its baseline is llama.cpp's F16 file written from the 4-bit one
    machine: str
    created: str
    defect: EngineDefect | None = None  # an engine defect behind its step times (specreplay.engines.defects)
    number_kind: Kind = "measured"  # its badge: timing only where the acceptance was set (Header.kind)

    @property
    def id(self) -> str:
        return f"{self.file} · {self.arm} · {self.prompt}"

    @property
    def tokens(self) -> int:
        """Output tokens per request (mean over repeats): one reason one pair reads differently in two files."""
        return round(self.decode_tokens / self.repeats) + 1 if self.repeats else 0

    @property
    def position_rates(self) -> tuple[float, ...]:
        return self.counts.per_position_rates

    @property
    def acceptance_length(self) -> float:
        length = self.counts.acceptance_length
        assert length is not None, "a cell has drafts (cells_of)"
        return length

    @property
    def alpha(self) -> float:
        """The α the acceptance length implies for this arm's γ (E[τ] = L)."""
        return theory.implied_alpha(self.acceptance_length, self.gamma)

    @property
    def steps(self) -> int:
        """Engine steps after the first token: each yields one token plus the drafts it accepted."""
        return self.decode_tokens - self.counts.accepted

    @property
    def undrafted_steps(self) -> int:
        """Steps in which the drafter proposed nothing (ngram: no match in the context)."""
        return max(self.steps - self.counts.drafts, 0)

    @property
    def tokens_per_step(self) -> float:
        per_step = derived.tokens_per_step(self.decode_tokens, self.counts.accepted)
        assert per_step is not None, "a cell has steps (cells_of)"
        return per_step

    @property
    def measured_speedup(self) -> float:
        return self.spec_tps / self.base_tps

    @property
    def step_ratio(self) -> float:
        """Time per engine step of the spec arm ÷ the baseline's time per token (= 1 + γc)."""
        return self.tokens_per_step / self.measured_speedup

    @property
    def cost_ratio(self) -> float:
        """c estimated from this recording's step times."""
        return theory.cost_ratio_from_step(self.step_ratio, self.gamma)

    @property
    def predicted_ideal(self) -> float:
        """The formula at the implied α, γ and c = 0 (verifying γ + 1 positions costs one plain step)."""
        return theory.speedup(self.alpha, self.gamma, 0.0)

    @property
    def predicted(self) -> float:
        """The formula at the implied α, γ and the measured c: E[τ] / (1 + γc)."""
        return theory.expected_tokens(self.alpha, self.gamma) / (1 + self.gamma * self.cost_ratio)


def _triples(text: str) -> list[tuple[str, ...]]:
    words = re.findall(r"\w+", text.lower())
    return [tuple(words[i:i + 3]) for i in range(len(words) - 2)]


def copied_share(output: str, prompt: str) -> float:
    """Share of the output's word triples (lower case, punctuation dropped) that occur in the prompt; 0 if none."""
    out = _triples(output)
    source = set(_triples(prompt))
    return sum(t in source for t in out) / len(out) if out else 0.0


def _median_copied(runs: list, prompt: str) -> float:
    return median(copied_share(r.events.text, prompt) for r in runs) if runs else 0.0


def cells_of(rec: Recording) -> list[AcceptanceCell]:
    """Every speculative arm x prompt with counters and a baseline to compare against, in header order."""
    out: list[AcceptanceCell] = []
    for arm in rec.arms:
        base = arm.baseline
        if not base:
            continue
        for prompt in rec.prompts:
            runs = rec.select(arm.id, prompt.id)
            base_runs = rec.select(base, prompt.id)
            counts = total(r.spec for r in runs)
            if not runs or any(r.spec is None for r in runs) or counts is None:
                continue
            spec_tps, base_tps = median_rate(runs), median_rate(base_runs)
            if counts.drafts == 0 or spec_tps is None or base_tps is None:
                continue
            gamma = draft_length(arm, counts) or 1
            out.append(AcceptanceCell(
                file=Path(rec.path).name, arm=arm.id, baseline=base,
                prompt=prompt.id, kind=prompt.kind, temperature=prompt.temperature,
                text=prompt.text, gamma=gamma, repeats=len(runs), counts=counts,
                decode_tokens=sum(max(r.tokens - 1, 0) for r in runs), spec_tps=spec_tps, base_tps=base_tps,
                like_for_like=len({r.tokens for r in runs + base_runs}) == 1,
                spec_copied=_median_copied(runs, prompt.text), base_copied=_median_copied(base_runs, prompt.text),
                engine=arm.engine.line, engine_name=arm.engine.name,
                f16_of_4bit=arm.f16_of_4bit or rec.arm(base).f16_of_4bit, machine=rec.machine_line,
                created=rec.header.created,
                defect=draft_graphs_defect(arm), number_kind=rec.kind(arm.id)))
    return out


def recorded_cells(folder: Path | None = None) -> tuple[list[AcceptanceCell], list[str]]:
    """The cells of every recording in `folder` (default: the recording folders, specreplay.recording.locations), and one
    message per file that could not be read (shown, not raised: one bad file must not hide the others)."""
    paths = sorted(folder.glob("*.jsonl")) if folder else recording_files()
    files = tuple((p, p.stat().st_mtime_ns, p.stat().st_size) for p in paths)
    cells, problems = _recorded_cells(files)
    return list(cells), list(problems)


@lru_cache(maxsize=8)
def _recorded_cells(files: tuple[tuple[Path, int, int], ...]) -> tuple[tuple[AcceptanceCell, ...], tuple[str, ...]]:
    """Cached on the files' (path, mtime, size): the page asks on every slider move."""
    cells: list[AcceptanceCell] = []
    problems: list[str] = []
    for path, _, _ in files:
        try:
            cells.extend(cells_of(catalogue.recording(path)))
        except (RecordingError, OSError) as e:
            problems.append(str(e))
    return tuple(cells), tuple(problems)


def nearest(cells: list[AcceptanceCell], alpha: float, gamma: int) -> AcceptanceCell | None:
    """The cell closest to the sliders, each axis scaled by its slider's range (α 0–1, γ 1–16); first on a tie.

    assets/explainer/live_chart.js (nearestCell) picks the same one in the browser.
    """
    best, best_d = None, float("inf")
    for c in cells:
        d = (c.alpha - alpha) ** 2 + ((c.gamma - gamma) / 15) ** 2
        if d < best_d:
            best, best_d = c, d
    return best


def temperature_sweeps(cells: list[AcceptanceCell]) -> dict[tuple[str, str, str], list[AcceptanceCell]]:
    """Cells of one file and arm whose prompt text was recorded at two or more temperatures, by temperature.

    Key: (file, arm, the lowest-temperature cell's prompt id); several kinds of prompt give several sweeps.
    """
    groups: dict[tuple[str, str, str], list[AcceptanceCell]] = {}
    for c in cells:
        if c.temperature is not None:
            groups.setdefault((c.file, c.arm, c.text), []).append(c)
    out = {}
    for (file, arm, _), group in groups.items():
        if len({c.temperature for c in group}) >= 2:
            group.sort(key=lambda c: c.temperature or 0.0)  # every cell here has a temperature
            out[(file, arm, group[0].prompt)] = group
    return out
