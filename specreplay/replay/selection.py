"""One replay selection (prompt, arms, repeat, reference, speed) and its defaults, shared by the replay page,
`specreplay export-html` and `specreplay video`: given the same recording and the same choices (none, or some),
the three show the same panes.

    sel = selection(rec)                            # the page's opening choice: the written rule's prompt and arms
    sel = selection(rec, "code", ["f16", "q4"])     # a link's (or a command line's) choice, checked
    panes = sel.panes(rec, "simulated")
"""

from __future__ import annotations

from dataclasses import dataclass

from specreplay.recording.format import Recording
from specreplay.replay.arms import MAX_ARMS, is_sim, prompts_with_runs, sim_pane
from specreplay.replay.default import choose_in, story_arms
from specreplay.replay.panes import Pane, recorded_arm_pane
from specreplay.replay.playback import default_speed


@dataclass(frozen=True)
class Selection:
    prompt: str
    arms: tuple[str, ...]  # 1–4 recorded arm ids or sim:… tokens, in pane order
    repeat: int | None = None  # None: each arm's median-rate repeat
    reference: int | None = None  # the speedup's reference pane; None: the automatic one (speedup.reference_index)
    speed: float | None = None  # None: the opening speed for the replay's length (playback.default_speed)

    def pane(self, rec: Recording | None, arm: str, sim_word: str) -> Pane:
        """One arm's pane (a simulated one needs no recording); LookupError / ValueError name what is wrong."""
        if is_sim(arm):
            return sim_pane(arm, sim_word)
        if rec is None:
            raise LookupError(f"arm {arm!r} is recorded: choose a recording first")
        return recorded_arm_pane(rec, arm, self.prompt, self.repeat)

    def panes(self, rec: Recording, sim_word: str) -> list[Pane]:
        """The panes of this selection; LookupError / ValueError name what is wrong."""
        return [self.pane(rec, a, sim_word) for a in self.arms]

    def opening_speed(self, panes: list[Pane]) -> float:
        return self.speed or default_speed(max((p.track.end_us for p in panes), default=0))


def default_prompt(rec: Recording) -> str:
    """The written rule's prompt for this recording (specreplay.replay.default), else the first prompt with finished
    single-stream runs. LookupError when there is none."""
    prompts = prompts_with_runs(rec)
    if not prompts:
        raise LookupError(f"{rec.path}: no finished single-stream run to replay")
    rule = choose_in("", rec)
    return rule.prompt if rule else prompts[0]


def default_arms(rec: Recording, prompt: str) -> list[str]:
    """The story's clean rungs on this prompt, reference first (the written rule); without a clean pair, the arms
    that ran it in header order; at most four either way."""
    ruled = story_arms(rec, prompt)
    recorded = [a.id for a in rec.arms if rec.select(a.id, prompt)]
    return (ruled if len(ruled) > 1 else recorded)[:MAX_ARMS]


def selection(rec: Recording, prompt: str | None = None, arms: list[str] | None = None, repeat: int | None = None,
              reference: int | None = None, speed: float | None = None) -> Selection:
    """The choice given, each missing part filled by the default; LookupError / ValueError name what is wrong."""
    prompts = prompts_with_runs(rec)
    if prompt is None:
        prompt = default_prompt(rec)
    elif prompt not in prompts:
        raise LookupError(f"prompt {prompt!r} has no finished single-stream run; choose one of "
                          f"{', '.join(prompts) or 'none (this recording has none)'}")
    chosen = arms or default_arms(rec, prompt)
    if not 1 <= len(chosen) <= MAX_ARMS:
        raise ValueError(f"choose 1–{MAX_ARMS} arms, got {len(chosen)}")
    known = [a.id for a in rec.arms]
    for arm in chosen:
        if not is_sim(arm) and arm not in known:
            raise LookupError(f"unknown arm {arm!r}; this recording has {', '.join(sorted(known))}")
    if reference is not None and not 0 <= reference < len(chosen):
        raise ValueError(f"reference {reference} is not a pane: choose 0–{len(chosen) - 1}")
    return Selection(prompt, tuple(chosen), repeat, reference, speed)
