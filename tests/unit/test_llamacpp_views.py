"""What the explainer pages read from the llama.cpp recordings (in their shape, tests/llamacpp_fixtures.py) and
from any sweep: our ladder, the Pareto fronts, the break-even grid, the 4-bit ÷ 16-bit series, the fitted c,
and what an arm is (draft length, a set acceptance length, the F16 file)."""

from pathlib import Path

import pytest

from specreplay.explain import breakeven, panels, pareto, quant_series, real_ladder, sweep_series
from specreplay.explain.acceptance_measured import cells_of
from specreplay.explain.arm_fit import arm_fits, residual
from specreplay.importers import vllm_bench
from specreplay.importers.common import write_recording
from specreplay.recording.arm import Arm, draft_length
from specreplay.recording.counts import SpecCounts
from specreplay.recording.format import load
from specreplay.recording.wanted import newest
from tests.browser_fixtures import ROOT
from tests.llamacpp_fixtures import breakeven_file, cells_file, sweep_file

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
CPU_BREAKEVEN = newest(panels.CPU_BREAKEVEN)


def test_our_ladder_one_change_per_rung_with_the_product(tmp_path: Path) -> None:
    rec = load(cells_file(tmp_path))
    ladders = real_ladder.prompt_ladders(rec, real_ladder.LADDERS["draft"])
    assert [pl.prompt for pl in ladders] == ["code", "chat", "copy-quote"]
    code = ladders[0]
    assert [r.arm for r in code.rungs] == ["f16", "q4", "q4-draft"]
    assert code.rungs[0].vs_previous is None and code.rungs[0].repeats == 3  # the warm-up left out
    assert code.product == pytest.approx(code.rungs[-1].rate / code.rungs[0].rate)
    assert code.like_for_like  # every repeat of every rung: 48 tokens
    assert real_ladder.prompt_ladders(rec, ("f16", "bf16")) == []  # a rung the file lacks: no ladder


def test_a_front_keeps_what_nothing_beats_and_the_shaded_region_is_what_it_beats(tmp_path: Path) -> None:
    pts = pareto.points(load(sweep_file(tmp_path)))
    q4, drafted = pts[("q4", None)], pts[("q4-draft", None)]
    front = pareto.front(q4)
    assert [p.concurrency for p in front] == [4, 2, 1]  # slower per user, more in total, as streams grow
    outline = pareto.staircase(front)
    assert outline[0] == (0.0, front[0].throughput) and outline[-1] == (0.0, 0.0)
    beaten = {p.concurrency: pareto.beaten(p, front) for p in drafted}
    assert beaten[1] is not None and beaten[1].concurrency == 2  # the drafter at 1 stream loses on both counts


def test_an_imported_file_gives_pareto_points_too(tmp_path: Path) -> None:
    arms = [a for name in ("baseline", "ngram")
            for a in vllm_bench.read(ROOT / "tests/fixtures/interop" / f"vllm-bench-{name}.json", None)]
    rec = load(write_recording(tmp_path / "imported.jsonl", arms))
    pts = pareto.points(rec)
    assert len(pts) == 2 and all(len(p) == 1 for p in pts.values())  # one bench run = one level per arm


def test_the_break_even_grid_reads_set_lengths_and_crossings_between_measured_cells(tmp_path: Path) -> None:
    rec = load(breakeven_file(tmp_path))
    assert rec.timing_only
    (grid,) = breakeven.breakeven_grids(rec)
    assert (grid.target, grid.lengths, grid.levels) == ("q4", (1.5, 2.5, 4.0), (1, 2))
    assert grid.break_even_length(1) == (2.5, 4.0)
    assert grid.break_even_length(2) is None  # below 1.0 at every set length at 2 streams
    assert (4.0, 2) in grid.below_one() and (4.0, 1) not in grid.below_one()
    # Set acceptance lengths are not the drafter's own: never drawn as its on ÷ off curve.
    series, _, _ = sweep_series.recorded_sweeps(tmp_path)
    assert series == []


def test_drafter_curves_leave_out_pairs_without_a_drafter_and_the_4bit_view_has_q4_over_f16(tmp_path: Path) -> None:
    sweep_file(tmp_path)
    series, _, _ = sweep_series.recorded_sweeps(tmp_path)
    assert sorted({s.short for s in series}) == ["f16-draft ÷ f16 · greedy · llama.cpp CPU",
                                                  "q4-draft ÷ q4 · greedy · llama.cpp CPU"]  # no "q4 ÷ f16"
    assert all(len(s.short) <= 40 and s.family == "cpu" for s in series)
    quant = quant_series.llamacpp_series(load(tmp_path / "qwen-coder-1.5b-llamacpp-cpu-sweep.jsonl"), "sweep")
    assert [s.metric for s in quant] == ["throughput", "decode"]
    assert dict(quant[1].points)[1] == pytest.approx(2.9)  # 29 ÷ 10 tok/s per request at one stream


def test_the_fitted_c_is_larger_for_the_cheaper_target(tmp_path: Path) -> None:
    fits = {f.arm: f for f in arm_fits(cells_of(load(cells_file(tmp_path))))}
    assert set(fits) == {"f16-draft", "q4-draft", "q4-ngram"}  # q4 ÷ f16 has no counters: not a speculative cell
    assert fits["q4-draft"].cost_ratio > fits["f16-draft"].cost_ratio
    assert fits["q4-draft"].measured < 1 < fits["f16-draft"].measured
    for f in fits.values():
        for c in f.cells:  # every step drafted here, so the formula with the measured c is the measurement
            assert residual(c) == pytest.approx(0, abs=1e-9)


@pytest.mark.parametrize(("arm", "gamma"), [
    ({"flags": {"speculative_config": {"num_speculative_tokens": 4}}}, 4),
    ({"flags": {}, "launch": {"command": ["llama-server", "--spec-draft-n-max", "6"]}}, 6),
    ({"flags": {"speculative_config": {"method": "ngram-mod"}}}, None),
])
def test_draft_length_from_flags_or_the_launch_command(arm: dict, gamma: int | None) -> None:
    assert draft_length(Arm.of({"id": "a", **arm})) == gamma


def test_draft_length_falls_back_to_the_counters() -> None:
    ngram = Arm.of({"id": "ngram", "flags": {"speculative_config": {"method": "ngram-mod"}}})
    assert draft_length(ngram, SpecCounts(10, 37, 20)) == 4  # 3.7 drafted tokens per draft
    assert draft_length(ngram, SpecCounts(10, 40, 20, (9, 6, 3, 2, 0))) == 5  # positions counted


def test_what_an_arm_is() -> None:
    synth = Arm.of({"id": "s", "flags": {"speculative_config": {"method": "draft_model",
                                                                "synthetic_acceptance_length": 2.0}}})
    assert synth.set_acceptance == 2.0 and synth.speculative_kind == "draft model" and synth.timing_only
    launched = Arm.of({"id": "s", "flags": {}, "launch": {"command": ["x", "--spec-synth-len", "1.5"]}})
    assert launched.set_acceptance == 1.5
    f16 = Arm.of({"id": "f16", "engine": {"name": "llama.cpp"},
                  "flags": {"weights": "F16 GGUF made from the Q4_K_M file"}})
    assert f16.f16_of_4bit and not f16.speculative and f16.weight_format == "bf16"
    assert not Arm.of({"id": "bf16", "engine": {"name": "vllm"}, "flags": {}}).f16_of_4bit
    assert Arm.of({"id": "q4-ngram", "flags": {"speculative_config": {"method": "ngram-simple"}}}).speculative_kind \
        == "ngram"


def test_the_bundled_break_even_map_says_what_docs_llamacpp_says() -> None:
    """docs/llamacpp.md reads the bundled map: on F16 the drafter passes 1.0 between set lengths 3 and 4 at one and two
    streams and nowhere from four streams on; on Q4_K_M it never does."""
    grids = {g.target: g for g in breakeven.breakeven_grids(load(ROOT / "recordings" / CPU_BREAKEVEN))}
    assert set(grids) == {"f16", "q4"}
    f16, q4 = grids["f16"], grids["q4"]
    assert f16.lengths == q4.lengths == (1.5, 2.0, 3.0, 4.0) and f16.levels == (1, 2, 4, 8)
    assert [f16.break_even_length(lv) for lv in f16.levels] == [(3.0, 4.0), (3.0, 4.0), None, None]
    assert len(q4.below_one()) == 16  # every cell: the 0.5B draft model never pays beside the 4-bit target here
