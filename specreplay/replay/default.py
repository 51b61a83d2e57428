"""What the replay opens on: the recording, prompt and arms chosen by a rule written down (docs/replay.md).

The rule, in order:

1. **Real weights, measured here**: only bundled recordings with real weights (not timing-only) that our recorder
   made (not imported) and that have finished single-stream runs; cells-mode files before sweeps.
2. **Like-for-like, clean text**: on each greedy prompt, an arm counts only if its median repeat carries no text
   warning (specreplay.replay.text_checks: no repeated n-grams, no text past the answer, a speculative arm's text equal to
   its own weights' text) and has the reference arm's token count.
3. **The story's rungs**: the reference (16-bit, no speculation; the arm the others name as `baseline` first),
   then a 4-bit arm, then a 4-bit arm with speculation, then a 16-bit arm with speculation (at most four panes).
4. **Best first**: a recording whose clean arms make the whole ladder (reference, 4-bit and speculative rungs)
   beats one that has a pair only; then a recording of more prompt kinds (code, copy, chat, prose: the story's
   workloads) beats a sweep of one parameter (a temperature sweep); among equals, the larger top speedup over the
   reference (specreplay.replay.speedup) wins, so the demo opens on the clearest real gain. Ties: file name, prompt order.

So the real-model ladder (qwen-coder-1.5b-llamacpp-cpu.jsonl) is chosen when it is bundled and clean, and the
best real pair until then.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from specreplay.importers.imported import imported_info
from specreplay.recording import catalogue
from specreplay.recording.format import Recording, RecordingError
from specreplay.recording.header import Header
from specreplay.replay.arms import MAX_ARMS, prompts_with_runs
from specreplay.replay.panes import median_repeat, recorded_pane
from specreplay.replay.speedup import arm_speedup


@dataclass(frozen=True)
class Choice:
    recording: str  # file stem
    prompt: str
    arms: tuple[str, ...]  # reference first
    ladder: bool  # reference, 4-bit and speculative rungs all present
    kinds: int  # distinct prompt kinds in the recording
    speedup: float  # the top arm's speedup over the reference

    def rank(self) -> tuple[bool, int, float]:
        return self.ladder, self.kinds, self.speedup


def clean_arms(rec: Recording, prompt: str) -> list[str]:
    """Arms whose median repeat of the prompt has no text warning and whose speed no engine defect bent, in header
    order."""
    out = []
    for arm in rec.arms:
        try:
            pane = recorded_pane(rec, arm.id, median_repeat(rec, arm.id, prompt))
        except LookupError:
            continue
        if not pane.warnings and not pane.defect:
            out.append(arm.id)
    return out


def story_arms(rec: Recording, prompt: str) -> list[str]:
    """The reference, then the story's rungs among the clean arms with the reference's token count (≤ 4)."""
    clean = clean_arms(rec, prompt)
    named = {a.baseline for a in rec.arms}
    refs = sorted((a for a in rec.arms if a.id in clean and a.reference), key=lambda a: a.id not in named)
    if not refs:
        return []
    ref = refs[0]
    tokens = median_repeat(rec, ref.id, prompt).tokens
    others = [a for a in rec.arms if a.id in clean and a is not ref
              and median_repeat(rec, a.id, prompt).tokens == tokens]
    order = [(True, False), (True, True), (False, True), (False, False)]  # (quantized, speculative)
    ranked = sorted(others, key=lambda a: order.index((a.quantized, a.speculative)))
    return [ref.id, *(a.id for a in ranked)][:MAX_ARMS]


def is_ladder(rec: Recording, arms: list[str]) -> bool:
    kinds = [rec.arm(a) for a in arms]
    return any(a.quantized for a in kinds) and any(a.speculative for a in kinds)


def choose_in(name: str, rec: Recording) -> Choice | None:
    """The best prompt and arms of one recording by the rule, or None when it has no clean pair."""
    best: Choice | None = None
    for prompt in prompts_with_runs(rec):
        if not rec.prompt(prompt).greedy:
            continue
        arms = story_arms(rec, prompt)
        if len(arms) < 2:
            continue
        top = max((s for a in arms[1:] if (s := arm_speedup(rec, a, arms[0], prompt))), default=0.0)
        choice = Choice(name, prompt, tuple(arms), is_ladder(rec, arms), len({p.kind for p in rec.prompts}), top)
        if best is None or choice.rank() > best.rank():
            best = choice
    return best


def _header(path: Path) -> Header | None:
    try:
        return catalogue.header(path)
    except (OSError, RecordingError):
        return None


def candidates(paths: list[Path]) -> list[Path]:
    """Rule 1: real weights, our recorder's; cells-mode files first (sweeps only when there is no cells file)."""
    heads = {p: h for p in paths if (h := _header(p)) and not h.timing_only and h.imported is None}
    cells = [p for p, h in heads.items() if h.recorder.mode != "sweep"]
    return sorted(cells or heads, key=lambda p: p.stem)


def choose(paths: list[Path]) -> Choice | None:
    """The default replay over these recording files (None: no real recording has a clean pair)."""
    best: Choice | None = None
    for path in candidates(paths):
        try:
            rec = catalogue.recording(path, repair=True)
        except (OSError, RecordingError):
            continue
        if imported_info(rec) or rec.timing_only:
            continue
        choice = choose_in(path.stem, rec)
        if choice and (best is None or choice.rank() > best.rank()):
            best = choice
    return best
