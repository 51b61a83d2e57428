"""The start page's evidence (specreplay.explain.story): the drafter that wins on real text, the same drafter on the 4-bit
target, and its multiplier per concurrency level; every figure is the replay's own (specreplay.replay.speedup)."""

from __future__ import annotations

from recorder import summary
from specreplay.explain import panels, real_ladder, story
from specreplay.recording.wanted import newest
from tests.replay_recordings import bundled

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
CPU_LADDER = newest(panels.CPU_LADDER)
CPU_SWEEP = newest(panels.CPU_SWEEP)


def test_the_drafter_wins_on_a_prompt_that_is_not_copying() -> None:
    rec = bundled(CPU_LADDER)
    win = story.drafter_wins(rec)
    assert win is not None and win.prompt == "code"  # the largest gain among greedy, non-copy prompts
    assert rec.prompt(win.prompt).kind != story.COPY_KIND
    assert round(win.gain, 2) == 1.5 and win.f16_draft_rate > win.f16_rate
    assert win.q4_gain is not None and round(win.q4_gain, 2) == 0.74  # shrinks on the 4-bit target


def test_one_figure_for_the_pair_in_the_summary_and_the_ladder() -> None:
    rec = bundled(CPU_LADDER)
    win = story.drafter_wins(rec)
    assert win is not None
    row = next(r for r in summary.rows(rec) if (r.arm, r.prompt) == ("f16-draft", win.prompt))
    rung = next(pl for pl in real_ladder.prompt_ladders(rec, real_ladder.LADDERS["draft_first"])
                if pl.prompt == win.prompt).rungs[1]
    assert row.reference == "f16" and row.speedup == rung.vs_previous == win.gain
    q4 = next(r for r in summary.rows(rec) if (r.arm, r.prompt) == ("q4-draft", win.prompt))
    assert (q4.reference, q4.speedup) == ("q4", win.q4_gain) and q4.original == "f16"  # named: the rung before


def test_the_drafter_falls_below_one_from_two_streams_on_this_cpu() -> None:
    curve = story.drafter_by_level(bundled(CPU_SWEEP))
    assert curve is not None and list(curve.decode) == [1, 2, 4, 8]
    assert (curve.decode[1] or 0) > 1 > (curve.decode[2] or 2) and curve.crossing == 2
