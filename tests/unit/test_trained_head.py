"""The EAGLE-3 head trained here (specreplay.explain.trained_head) on its bundled GPU recording: the start page's rule
picks its code win, every figure is the replay's and the summary's, and its break-even comes from derived.break_even."""

from __future__ import annotations

import pytest

from recorder import summary
from specreplay.explain import derived, panels, story, trained_head
from specreplay.explain.acceptance_measured import cells_of
from specreplay.recording.wanted import newest
from tests.replay_recordings import bundled

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
HEAD_CELLS = newest(panels.HEAD_CELLS)


def test_the_start_page_rule_picks_the_head_s_code_win_and_the_summary_agrees() -> None:
    rec = bundled(HEAD_CELLS)
    win = trained_head.start_win(rec)
    assert win == story.drafter_wins(rec, panels.HEAD_PAIR, None)
    assert win is not None and win.prompt == "code" and win.q4_gain is None  # no 4-bit pair in this file
    row = next(r for r in summary.rows(rec) if (r.arm, r.prompt) == (panels.HEAD_PAIR[1], "code"))
    assert row.speedup == win.gain and round(win.gain, 2) == 2.05
    assert trained_head.acceptance_length(rec, panels.HEAD_PAIR[1], "code") == row.acceptance_length
    assert row.acceptance_length is not None and round(row.acceptance_length, 2) == 2.73


def test_the_file_names_its_card_and_engine_release() -> None:
    rec = bundled(HEAD_CELLS)
    assert trained_head.card(rec.machine_line) == "H100" and trained_head.card("this CPU") == "this CPU"
    arm = rec.arm(panels.HEAD_PAIR[1])
    assert trained_head.engine(arm.engine.line, arm.engine.name) == "vLLM 0.26.0"
    assert not arm.quantized and arm.speculative_kind == "eagle3"  # bf16 + the head, not a 4-bit arm


def test_each_head_s_break_even_is_read_between_its_measured_cells() -> None:
    heads = trained_head.head_costs(cells_of(bundled(HEAD_CELLS)))
    assert [h.fit.arm for h in heads] == list(panels.HEADS)
    for h in heads:
        points = [(c.acceptance_length, c.measured_speedup) for c in h.fit.cells]
        assert (h.break_even, h.pays_everywhere) == derived.break_even(points)
        assert h.break_even == pytest.approx(h.step_ratio, abs=0.05)  # ≈ 1 + γc, as the formula says
    assert all(c.arm != panels.HEAD_NGRAM for h in heads for c in h.fit.cells)
