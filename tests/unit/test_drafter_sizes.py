"""specreplay.explain.drafter_sizes on the bundled H200 size recordings (issue #29): every target size has all three
drafter kinds, the steps and c follow from the counters, and the break-even reading is what the numbers say."""

from __future__ import annotations

import pytest

from specreplay.explain import drafter_sizes as ds


def test_the_bundled_size_files_give_four_targets_times_three_drafter_kinds_times_five_lengths():
    rows = ds.size_table()
    assert [(r.size, r.kind) for r in rows] == [(s, k) for s in ds.SIZES for k in ds.KINDS]
    for r in rows:
        assert sorted(c.set_length for c in r.cells) == [1.5, 2.0, 3.0, 4.0, 5.0], (r.size, r.kind)
        for c in r.cells:  # the synthetic sampler ran at the length the arm says
            assert c.measured_length == pytest.approx(c.set_length, abs=0.1), c.arm


def test_a_bigger_target_has_a_longer_step_and_a_cheaper_drafter():
    rows = {(r.size, r.kind): r for r in ds.size_table()}
    steps = [rows[(s, "dflash")].target_step_ms for s in ds.SIZES]
    assert steps == sorted(steps) and steps[-1] > 4 * steps[0]
    for kind in ds.KINDS:
        costs = [rows[(s, kind)].cost for s in ds.SIZES]
        assert costs[-1] < costs[0] / 3, (kind, costs)


def test_the_patched_draft_model_is_faster_than_vllm_0_23_0_as_shipped_on_the_same_host():
    pairs = ds.unpatched()
    assert {(b.size, b.set_length) for b, _ in pairs} == {("1.5b", 3.0), ("7b", 3.0)}
    for before, after in pairs:
        assert after is not None and after.rate > 2 * before.rate


def test_break_even_follows_the_recorded_speedups():
    rows = {(r.size, r.kind): r for r in ds.size_table()}
    for r in rows.values():
        ordered = sorted(r.cells, key=lambda c: c.set_length)
        if r.break_even is None:
            assert all(c.speedup < 1 for c in ordered)
        elif r.pays_everywhere:
            assert ordered[0].speedup >= 1
        else:
            below = [c for c in ordered if c.set_length <= r.break_even]
            assert below and below[-1].speedup < 1 <= next(c for c in ordered if c.set_length > r.break_even).speedup
    assert rows[("1.5b", "draft")].break_even is None  # a 0.5B draft model never pays for a 1.5B on an H200
    assert rows[("27b", "draft")].break_even is not None
