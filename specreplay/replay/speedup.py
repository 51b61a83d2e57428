"""The one speedup: an arm's decode rate ÷ the reference arm's decode rate, with the reference named on screen.

Decode rate is `timeline.decode_rate` (first token excluded) of the arm's median repeat (`panes.median_repeat`).
The player, the video, the HTML export, `specreplay summary` and the pages all take their multiplier from here, so
one pair of arms shows one figure everywhere. The reference pane itself shows no multiplier (it is the reference),
and a pane counted in chunks gets none (a chunk rate is not a token rate).
"""

from __future__ import annotations

from specreplay.explain.derived import ratio
from specreplay.recording.format import Recording
from specreplay.replay.panes import Pane, median_repeat
from specreplay.replay.timeline import decode_rate


def speedup(rate: float | None, reference_rate: float | None) -> float | None:
    return ratio(rate, reference_rate) if rate else None


def pane_rate(pane: Pane) -> float | None:
    return decode_rate(pane.track) if pane.counts == "tokens" else None


def reference_index(panes: list[Pane]) -> int | None:
    """The reference pane: the one the other panes' arms name as their `baseline`, else the first pane counted in
    tokens; None without such a pane."""
    named = {p.baseline for p in panes if p.baseline}
    candidates = [i for i, p in enumerate(panes) if p.counts == "tokens"]
    return next((i for i in candidates if panes[i].arm and panes[i].arm in named), candidates[0] if candidates else None)


def speedups(panes: list[Pane], reference: int | None = None) -> tuple[int | None, list[float | None]]:
    """(reference index, each pane's speedup over it); the reference's own entry is None. With one pane there is
    no comparison: (None, [None])."""
    if len(panes) < 2:
        return None, [None] * len(panes)
    ref = reference_index(panes) if reference is None else reference
    if ref is None:
        return None, [None] * len(panes)
    ref_rate = pane_rate(panes[ref])
    return ref, [None if i == ref else speedup(pane_rate(p), ref_rate) for i, p in enumerate(panes)]


def arm_rate(rec: Recording, arm: str, prompt: str) -> float | None:
    """The decode rate the replay shows for this arm and prompt: its median repeat's (None without a finished run,
    or for an arm counted in chunks)."""
    if rec.arm(arm).counts == "chunks":
        return None
    try:
        return median_repeat(rec, arm, prompt).decode_rate
    except LookupError:
        return None


def arm_speedup(rec: Recording, arm: str, reference: str, prompt: str) -> float | None:
    """`arm`'s speedup over `reference` on one prompt, exactly as the replay's panes show it."""
    return speedup(arm_rate(rec, arm, prompt), arm_rate(rec, reference, prompt))
