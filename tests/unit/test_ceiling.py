"""The physics ceiling (specreplay.explain.ceiling) on the bundled ladders: bandwidth ÷ weight bytes × tokens per step, and
the share a measured arm reaches; `specreplay summary` prints the same share."""

from __future__ import annotations

import json

import pytest

from recorder import summary
from specreplay.explain import ceiling, panels, real_ladder
from specreplay.recording.wanted import newest
from specreplay.resources import ASSETS
from tests.replay_recordings import bundled

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
CPU_LADDER = newest(panels.CPU_LADDER)
GPU_DRAFT_LADDER = newest(panels.GPU_DRAFT_LADDER)
FULL_LADDER_SWEEP = newest(panels.FULL_LADDER_SWEEP)
FULL_LADDER = newest(panels.FULL_LADDER)


def test_the_27b_class_bf16_is_memory_bound_and_4_bit_is_not() -> None:
    rec = bundled(FULL_LADDER)
    bf16, w4 = (ceiling.ceiling(rec, a, "story") for a in ("bf16", "w4"))
    assert bf16 and w4
    h200 = json.loads((ASSETS / "roofline_h200.json").read_text())["ceilings"]["copy_bandwidth_bytes_per_s"]
    assert bf16.tok_s == pytest.approx(h200 / 51_725_205_504)  # 83 tok/s: 62 layers + head at 2 bytes
    assert bf16.share == pytest.approx(0.83, abs=0.01) and w4.share == pytest.approx(0.34, abs=0.01)


def test_a_drafter_arm_s_ceiling_counts_its_measured_tokens_per_step() -> None:
    rec = bundled(FULL_LADDER)
    plain, drafted = ceiling.ceiling(rec, "w4", "story"), ceiling.ceiling(rec, "w4-dflash@5.6", "story")
    assert plain and drafted and drafted.weight_bytes == plain.weight_bytes  # the target's weights, read once a step
    assert drafted.tokens_per_step == pytest.approx(5.8, abs=0.05)  # tokens after the first ÷ engine steps
    assert drafted.tok_s == pytest.approx(plain.tok_s * drafted.tokens_per_step)


def test_the_real_1_5b_on_the_h200_is_far_below_its_ceiling() -> None:
    rec = bundled(GPU_DRAFT_LADDER)
    bf16, q4 = (ceiling.ceiling(rec, a, "code") for a in ("bf16", "q4"))
    assert bf16 and q4 and bf16.share and q4.share
    assert bf16.share < 0.5 and q4.share < 0.2  # overhead-bound: fewer bytes do not help


@pytest.mark.parametrize("machine", list(real_ladder.MACHINE_LADDERS))
def test_every_arm_of_the_bundled_ladders_has_a_share(machine: str) -> None:
    for what, arms in real_ladder.MACHINE_LADDERS[machine].values():
        rec = bundled(file := str(newest(what)))
        for prompt in rec.prompts:
            for arm in arms:
                assert ceiling.percent(ceiling.ceiling(rec, arm, prompt.id)) != "—", (file, arm, prompt.id)
    rec = bundled(FULL_LADDER)
    assert all(ceiling.ceiling(rec, a.id, "story") for a in rec.arms)


def test_the_summary_prints_the_same_share() -> None:
    rec = bundled(CPU_LADDER)
    row = next(r for r in summary.rows(rec) if (r.arm, r.prompt) == ("f16", "code"))
    share = ceiling.percent(ceiling.ceiling(rec, "f16", "code"))
    line = next(ln for ln in summary.render(rec).splitlines() if ln.startswith("f16 ") and " code " in ln)
    assert row.ceiling and f" {share.replace(' ', '')} " in line
    assert "ceil% = decode tok/s ÷ (memory bandwidth" in summary.render(rec)


def test_the_cpu_bandwidth_file_names_the_machine_and_its_load() -> None:
    data = json.loads((ASSETS / "memory_bandwidth_cpu.json").read_text())
    assert data["provenance"]["command"] == "python bench/memory_bandwidth.py"
    assert data["provenance"]["cores"] >= 1 and len(data["provenance"]["load_avg_at_start"]) == 3
    assert data["ceilings"]["copy_bandwidth_bytes_per_s"] > 1e9


def test_the_summary_marks_timing_only_rows_and_says_why() -> None:
    """A timing-only file's rows carry the † of the timing-only kind, footnoted; a measured file's carry none."""
    from recorder import sweep_summary

    for render, rec in ((summary.render, bundled(FULL_LADDER)),
                        (sweep_summary.render, bundled(FULL_LADDER_SWEEP))):
        lines = render(rec).splitlines()
        assert all(ln.endswith("†") for ln in lines[1:len(rec.arms) + 1])
        assert any(ln.startswith("† timing only (set acceptance): ") for ln in lines)
    assert "†" not in summary.render(bundled(CPU_LADDER))
