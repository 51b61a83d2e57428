"""The real Qwen2.5-Coder-1.5B H200 recordings (vLLM 0.23) on the concurrency and acceptance pages: the drafter
chart holds their pairs within the chart rules, the 4-bit view reads their Q4_K_M ÷ bf16 from the sweep, the Pareto
view offers the sweep, and the acceptance fit leaves their draft-model arms out (vLLM 0.23.0's defect)."""

import json

from specreplay.explain import panels, quant_series
from specreplay.explain.acceptance_measured import cells_of
from specreplay.multiplier import times
from specreplay.recording.format import load
from specreplay.recording.locations import recording_file
from specreplay.recording.wanted import newest
from tests.apptest_helpers import open_page, shown

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
GPU_DRAFT_LADDER = newest(panels.GPU_DRAFT_LADDER)
GPU_NGRAM_LADDER = newest(panels.GPU_NGRAM_LADDER)
GPU_SWEEP = newest(panels.GPU_SWEEP)


DEFECT_LINK = "[vLLM 0.23.0 defect, fixed upstream in PR #47460](https://github.com/vllm-project/vllm/pull/47460)"
QWEN_PAIRS = ["bf16-draft ÷ bf16 · greedy · vLLM GPU", "q4-draft ÷ q4 · greedy · vLLM GPU"]


def live(at, key: str) -> dict:
    return json.loads(next(c for c in at.get("bidi_component") if key in c.proto.id).proto.json)


def plotly(at, key: str) -> dict:
    return json.loads(next(c for c in at.get("plotly_chart") if key in c.proto.id).proto.spec)


def legend(spec: dict) -> list[str]:
    return [s["name"] for s in spec["series"] if s.get("markers") and s.get("legend", True) is not False]


def test_our_h200_drafter_chart_holds_the_qwen_pairs_within_six_short_series() -> None:
    for metric in ("throughput", "decode"):
        at = open_page("concurrency", "en", source="gpu", metric=metric)
        assert not at.exception
        spec = live(at, "concurrency_chart")
        names = legend(spec)
        assert set(QWEN_PAIRS) <= set(names) and len(names) <= 6 and all(len(n) <= 40 for n in names)
        assert spec["title"] == "Our GPU recordings (H200, H100): where does the drafter's gain fall below 1.0?"
        assert any("0.5B draft model (K=4, vLLM 0.23)" in c.value for c in at.caption)
        assert any(c.value.startswith(f":material/info: bf16-draft, q4-draft: {DEFECT_LINK}") for c in at.caption)


def test_the_4bit_view_reads_the_real_qwen_q4_over_bf16_from_the_sweep() -> None:
    at = open_page("concurrency", "en", family="quant", source="gpu", level="64")
    assert not at.exception
    (q4,) = [s for s in quant_series.h200_series(load(recording_file(GPU_SWEEP)), GPU_SWEEP)
             if s.metric == "throughput"]
    assert "Q4_K_M ÷ bf16 · Qwen 1.5B · vLLM H200" in legend(live(at, "concurrency_chart"))
    row = at.dataframe[0].value.set_index("series").loc["Q4_K_M ÷ bf16 · Qwen 1.5B · vLLM H200"]
    assert row["at 64"] == times(q4.value_at(64))
    assert any("Timing only — dummy weights" in c.value for c in at.caption)  # the 7B shapes still say what they are
    assert any("GGUF kernels" in c.value for c in at.caption)


def test_the_pareto_view_offers_the_qwen_h200_sweep() -> None:
    at = open_page("concurrency", "en", pareto_recording=GPU_SWEEP)
    assert not at.exception
    assert GPU_SWEEP in at.selectbox(key="pareto_recording").options
    assert at.radio(key="pair").value == "bf16-draft|bf16"  # the first pair with a drafter
    assert "bf16-draft · front" in [t.get("name") for t in plotly(at, "pareto_chart")["data"]]


def test_the_acceptance_fit_leaves_the_defective_h200_draft_model_arms_out_and_says_why() -> None:
    at = open_page("acceptance", "en", fit_engine="vllm")
    assert not at.exception
    fit = plotly(at, "fit_chart")
    assert len(fit["data"]) <= 6
    drawn = [(x, y) for t in fit["data"][1:] for x, y in zip(t["x"], t["y"])]
    assert max(max(x, y) for x, y in drawn) <= fit["layout"]["xaxis"]["range"][1]  # scaled to what is drawn
    assert not any(t["name"].endswith(("-draft · qwen-coder-1.5b-vllm-h200", "-draft · qwen-coder-1.5b-vllm-h200-q4-d…"))
                   for t in fit["data"])
    table = next(d.value for d in at.dataframe if "α" in d.value.columns and "c" in d.value.columns)
    assert not any(cell.endswith("-draft") and "vllm-h200" in file
                   for cell, file in zip(table["prompt · arm"], table["recording"]))
    cells = [c for f in (GPU_NGRAM_LADDER, GPU_DRAFT_LADDER)
             for c in cells_of(load(recording_file(f))) if c.arm.endswith("-draft")]
    note = shown(next(c.value for c in at.caption if "left out of the fit" in c.value))
    assert f"took {min(c.step_ratio for c in cells):.0f}–{max(c.step_ratio for c in cells):.0f} plain steps" in note
    named = note.split("] ", 1)[1].split(": left out")[0].split(", ")
    assert sorted(named) == ["bf16-draft · qwen-coder-1.5b-vllm-h200", "draft-unpatched@3 · timing-only-sizes-1.5b-h200",
                             "draft-unpatched@3 · timing-only-sizes-7b-h200",
                             "q4-draft · qwen-coder-1.5b-vllm-h200-q4-draft"]
    assert DEFECT_LINK in note and "not what a draft model costs" in note


def test_the_defect_era_draft_model_lines_are_drawn_hollow_dashed_keyed_and_never_read_as_crossings() -> None:
    """Issue #41 item 2: the vLLM 0.23.0 draft-model pairs are drawn as an engine's artefact, with a legend entry,
    their values said with the reason, and no crossing computed from them; the defect's caption comes first."""
    at = open_page("concurrency", "en", source="gpu", metric="throughput")
    spec = live(at, "concurrency_chart")
    marked = [s for s in spec["series"] if s.get("marked") == "defect"]
    assert {s["name"].split(" · ")[0] for s in marked} == {"bf16-draft ÷ bf16", "q4-draft ÷ q4"}
    assert all(s["hollow"] and s["dash"] == "dash" and s["points"] for s in marked)
    assert "engine defect: left out" in [s["name"] for s in spec["series"] if s.get("legend", True) is not False]
    main = {s["name"]: s for s in spec["series"] if s["name"] in QWEN_PAIRS}
    assert all(y is None for s in main.values() for _, y in s["points"])  # nothing drawn solid
    readout = at.dataframe[0].value
    for pair in QWEN_PAIRS:
        row = readout[readout.iloc[:, 0] == pair].iloc[0]
        assert "engine defect: left out" in row.iloc[2] and "falls below" not in row.iloc[2]
    first = next(c.value for c in at.caption if c.value.startswith(":material/info:"))
    assert "PR #47460" in first


def test_the_27b_break_even_map_leaves_the_stall_out_and_outlines_it() -> None:
    at = open_page("concurrency", "en")
    heat = plotly(at, "full_scale_breakeven")
    cells, outline = heat["data"]
    row = cells["y"].index("1.5")
    assert cells["z"][row][cells["x"].index("2")] is None  # no colour from the stalled 0.32×
    assert outline["name"] == "start-up stall: left out" and outline["text"] == ["0.32×", "0.89×"]
    assert (outline["x"], outline["y"]) == (["2", "4"], ["1.5", "2"])
    assert any("A start-up stall is a level whose first token waited at least 8×" in c.value for c in at.caption)
