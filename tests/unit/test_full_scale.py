"""The 27B-class H200 recordings (issue #25) as the pages read them: the bundled files, and the computations on
them that a reader sees (the ladder at the articles' acceptance, drafter on ÷ off and its crossing, the
break-even acceptance per level, 4-bit ÷ bf16 at full scale)."""

from __future__ import annotations

import pytest

from specreplay.explain import full_scale as fs
from specreplay.explain import panels
from specreplay.recording import catalogue
from specreplay.recording.format import Recording
from specreplay.recording.wanted import newest

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
FULL_LADDER_SWEEP = newest(panels.FULL_LADDER_SWEEP)
FULL_DRAFTER_SWEEP = newest(panels.FULL_DRAFTER_SWEEP)
FULL_LADDER = newest(panels.FULL_LADDER)
FULL_DRAFTER = newest(panels.FULL_DRAFTER)


FILES = (FULL_LADDER, FULL_LADDER_SWEEP, FULL_DRAFTER, FULL_DRAFTER_SWEEP)


@pytest.fixture(scope="module")
def recs() -> dict[str, Recording]:
    out = {}
    for name in FILES:
        got = catalogue.read(name)
        assert isinstance(got, Recording), f"{name}: {got}"
        out[name] = got
    return out


def test_every_file_is_timing_only_from_the_h200_and_names_each_drafter_arms_acceptance(recs):
    for name, rec in recs.items():
        assert rec.timing_only, name  # dummy weights: the replay shows blocks, never this text
        assert rec.header.machine.accelerator.startswith("NVIDIA H200"), name
        assert {a.engine.version for a in rec.arms} == {"0.23.0"}
        for arm in rec.arms:
            length = arm.set_acceptance
            assert (length is None) == ("@" not in arm.id)
            if length is not None:
                assert arm.flags["speculative_config"]["rejection_sample_method"] == "synthetic"
                assert arm.id.endswith(f"@{length:g}") and arm.baseline in ("bf16", "w4")


def test_each_drafter_arm_ran_at_the_acceptance_it_was_set_to(recs):
    """The counters, not the flags: one server served every length (gpu/synthetic_switch.py)."""
    for name in (FULL_LADDER, FULL_DRAFTER):
        rec = recs[name]
        for length, arm in fs.drafter_arms(rec).items():
            assert fs.measured_acceptance(rec, arm) == pytest.approx(length, abs=0.1), (name, arm)
    sweep = recs[FULL_LADDER_SWEEP]
    for level in sweep.levels:
        length = sweep.arm(level.arm).set_acceptance
        if length is not None and level.spec:
            assert level.spec.acceptance_length == pytest.approx(length, abs=0.25), (level.arm, level.concurrency)


def test_the_ladder_at_the_articles_acceptance_climbs_and_multiplies(recs):
    quoted = fs.quoted_ladders(recs[FULL_LADDER])
    # 000's prose 2.2-2.5 and code 5.3-5.6, 001's copy 3.1 and free prose 2.2: both ends of every range
    assert sorted({q.ladder.acceptance for q in quoted}) == [2.2, 2.5, 3.1, 5.3, 5.6]
    assert {q.label for q in quoted} == {"prose", "code", "copy", "free prose"}
    for q in quoted:
        bf16, w4, drafted = q.ladder.steps
        assert (bf16.arm, w4.arm) == ("bf16", "w4") and drafted.arm == f"w4-dflash@{q.ladder.acceptance:g}"
        assert bf16.rate < w4.rate < drafted.rate
        assert q.ladder.product == pytest.approx(drafted.rate / bf16.rate)
    code = next(q.ladder for q in quoted if q.label == "code" and q.ladder.acceptance == 5.3)
    prose = next(q.ladder for q in quoted if q.label == "prose" and q.ladder.acceptance == 2.2)
    assert 1.3 < code.steps[1].vs_previous < 1.8  # weight-only 4-bit at one stream: far from the bytes' ×3.5
    assert code.steps[2].vs_previous > 2 * prose.steps[2].vs_previous
    assert fs.ladder(recs[FULL_LADDER], 4.0) is None  # no arm at 4.0 in the cells file: nothing is made up


def test_article_001s_pairs_gain_more_from_the_drafter_on_bf16_than_on_4bit(recs):
    for length in (2.2, 5.3):
        off, on = fs.pair_rates(recs[FULL_DRAFTER], length)
        steps = fs.ladder(recs[FULL_LADDER], length).steps
        assert on / off > steps[2].rate / steps[1].rate  # bf16 × drafter beats 4-bit × drafter, as in 001


def test_a_drafter_at_prose_acceptance_stops_paying_by_32_streams_and_at_code_acceptance_never_does(recs):
    curves = {c.acceptance: c for c in fs.drafter_curves(recs[FULL_LADDER_SWEEP], "w4")}
    assert sorted(curves) == [1.5, 2.0, 2.2, 2.5, 3.0, 3.1, 4.0, 5.0, 5.3, 5.6, 6.0]
    assert curves[2.2].crossing == 32 and curves[5.3].crossing is None
    assert curves[5.3].throughput[1] > curves[5.3].throughput[64] > 1
    bf16 = {c.acceptance: c for c in fs.drafter_curves(recs[FULL_DRAFTER_SWEEP], "bf16")}
    assert bf16[2.2].crossing == 64  # a bf16 target holds out longer than the 4-bit one


def test_the_break_even_acceptance_rises_with_streams(recs):
    edge = fs.break_even(recs[FULL_LADDER_SWEEP], "w4")
    assert sorted(edge) == [1, 2, 4, 8, 16, 32, 64]
    assert edge[64] > edge[32] > edge[16] and 3 < edge[64] < 4.5
    assert edge[1] == 1.5  # even the lowest set length pays at one stream: the lowest length is reported


def test_4bit_over_bf16_at_full_scale_falls_towards_one_at_64_streams(recs):
    curve = fs.quant_curve(recs[FULL_LADDER_SWEEP])
    assert sorted(curve) == [1, 2, 4, 8, 16, 32, 64]
    assert curve[1] > 1.4 and curve[64] < curve[1] - 0.2


def test_the_drafters_step_cost_is_the_same_at_every_acceptance_and_weighs_more_on_4bit(recs):
    """c (one drafting pass ÷ one target step, the acceptance page's) from the rates and the counters: drafting 7 +
    verifying 8 tokens adds 1.7-1.9 ms a step on either target, so it is a larger share of the shorter 4-bit step —
    why a 4-bit target gains less from the drafter."""
    w4 = [fs.draft_cost(q.ladder) for q in fs.quoted_ladders(recs[FULL_LADDER])]
    assert max(w4) - min(w4) < 0.005 and 0.02 < min(w4)  # 1 + 7c = 1.18-1.19
    bf16 = [fs.pair_cost(recs[FULL_DRAFTER], length) for length in (2.2, 2.5, 3.1, 5.3, 5.6)]
    assert max(bf16) - min(bf16) < 0.005 and max(bf16) < min(w4)
    lad = fs.ladder(recs[FULL_LADDER], 5.3)
    assert lad.draft_length == 7
    assert lad.steps[2].vs_previous == pytest.approx(lad.measured_acceptance / (1 + 7 * fs.draft_cost(lad)))
