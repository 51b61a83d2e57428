"""Points an engine defect or a start-up stall produced are left out of every computed figure (specreplay.explain.artefacts),
and carried as marked wherever a series or a map is drawn."""

from specreplay.explain import artefacts, full_scale, panels, sweep_series
from specreplay.recording.wanted import newest
from tests.replay_recordings import bundled

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
CPU_BREAKEVEN = newest(panels.CPU_BREAKEVEN)
GPU_SWEEP = newest(panels.GPU_SWEEP)
FULL_LADDER_SWEEP = newest(panels.FULL_LADDER_SWEEP)
FULL_DRAFTER_SWEEP = newest(panels.FULL_DRAFTER_SWEEP)


def test_the_start_up_stalls_of_the_bundled_27b_sweeps_are_found_by_the_ttft_rule() -> None:
    assert artefacts.stalled(bundled(FULL_LADDER_SWEEP)) == {("w4-dflash@1.5", None, 2), ("w4-dflash@2", None, 4)}
    assert artefacts.stalled(bundled(FULL_DRAFTER_SWEEP)) == {("bf16-dflash@1.5", None, 2),
                                                                    ("bf16-dflash@1.5", None, 4)}
    assert artefacts.left_out(bundled(FULL_LADDER_SWEEP), "w4-dflash@1.5", 2) == "stall"
    assert artefacts.left_out(bundled(FULL_LADDER_SWEEP), "w4-dflash@1.5", 4) is None


def test_the_break_even_and_the_crossings_leave_the_stall_out() -> None:
    """The 0.32× cell between 1.14× and 1.10× no longer pulls the 2-stream break-even between L 1.5 and 2."""
    rec = bundled(FULL_LADDER_SWEEP)
    curve = next(c for c in full_scale.drafter_curves(rec, "w4") if c.arm == "w4-dflash@1.5")
    assert round(curve.throughput[2], 2) == 0.32 and curve.left_out == {2: "stall"} and 2 not in curve.counted()
    assert full_scale.break_even(rec, "w4")[2] == 2.0  # the lowest counted length, which pays (1.61×)
    bf16 = next(c for c in full_scale.drafter_curves(bundled(FULL_DRAFTER_SWEEP), "bf16")
                if c.arm == "bf16-dflash@1.5")
    assert bf16.crossing == 16  # 1.27× at 1 and 1.18× at 8 stream(s): the stalls at 2 and 4 were no crossing


def test_defect_era_draft_model_sweeps_are_marked_not_plotted() -> None:
    series, _, _ = sweep_series.recorded_sweeps()
    defect = [s for s in series if s.source == GPU_SWEEP and "draft" in s.short]
    assert {s.short.split(" ÷ ")[0] for s in defect} == {"bf16-draft", "q4-draft"}
    for s in defect:
        assert not s.measured() and {why for _, _, why in s.marked} == {"defect"}
        assert s.marked_at(2) is not None and s.value_at(2) is None
    assert all(not s.marked for s in series if s.source != GPU_SWEEP)


def test_the_cpu_break_even_map_reads_past_a_marked_cell() -> None:
    """The same rule on the llama.cpp map: a marked cell is never one side of a crossing (none is marked today)."""
    from specreplay.explain import breakeven

    grid = breakeven.breakeven_grids(bundled(CPU_BREAKEVEN))[0]
    assert grid.left_out == {}
    g = breakeven.Grid("t", (1.5, 2.5, 4.0), (1,), ((0.8,), (1.2,), (1.5,)), ((0.8,), (1.2,), (1.5,)), ("a", "b", "c"),
                       {(2.5, 1): "stall"})
    assert g.break_even_length(1) == (1.5, 4.0)
