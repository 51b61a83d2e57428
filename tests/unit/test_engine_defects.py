"""The vLLM 0.23.0 draft-model defect (no CUDA graphs for the drafter, fixed upstream in PR #47460): which bundled
arms it marks, that the graph patch's flag or another engine, version or method clears it, and that the export, the
video, the summary and the default replay say so."""

from html import escape

from recorder import summary
from specreplay.engines.defects import DRAFT_GRAPHS, draft_graphs_defect
from specreplay.recording.arm import Arm
from specreplay.recording.format import load
from specreplay.replay.default import clean_arms
from specreplay.replay.export_html import standalone_html
from specreplay.replay.panes import recorded_arm_pane
from specreplay.replay.payload import pane_warnings
from specreplay.resources import RECORDINGS

UNPATCHED = {("qwen-coder-1.5b-vllm-h200.jsonl", "bf16-draft"),
             ("qwen-coder-1.5b-vllm-h200-q4-draft.jsonl", "q4-draft"),
             ("qwen-coder-1.5b-vllm-h200-sweep.jsonl", "bf16-draft"),
             ("qwen-coder-1.5b-vllm-h200-sweep.jsonl", "q4-draft"),
             # the size study's before/after arms, kept unpatched on purpose (docs/gpu.md)
             ("timing-only-sizes-1.5b-h200.jsonl", "draft-unpatched@3"),
             ("timing-only-sizes-7b-h200.jsonl", "draft-unpatched@3")}


def test_exactly_the_unpatched_qwen_h200_draft_model_arms_are_marked() -> None:
    marked, speculative = set(), set()
    for path in sorted(RECORDINGS.glob("*.jsonl")):
        header = load(path).header
        for arm in header.arms:
            method = (arm.flags.get("speculative_config") or {}).get("method")
            if method:
                speculative.add(method)
            if draft_graphs_defect(arm):
                marked.add((path.name, arm.id))
    assert marked == UNPATCHED
    assert {"dflash", "ngram", "draft_model"} <= speculative  # the DFlash, n-gram and llama.cpp arms were looked at


def test_the_defect_carries_its_two_labels_and_the_upstream_link() -> None:
    assert DRAFT_GRAPHS.text("en") == "vLLM 0.23.0 defect, fixed upstream in PR #47460"
    assert DRAFT_GRAPHS.text("ko").startswith("vLLM 0.23.0 결함")
    assert DRAFT_GRAPHS.markdown("en") == ("[vLLM 0.23.0 defect, fixed upstream in PR #47460]"
                                           "(https://github.com/vllm-project/vllm/pull/47460)")


def test_the_patch_flag_another_version_or_an_unknown_arm_clears_it() -> None:
    arm = load(RECORDINGS / "qwen-coder-1.5b-vllm-h200-q4-draft.jsonl").header.arm("q4-draft")

    def with_arm(**changes: object) -> Arm:
        """The same header entry with some fields changed, loaded again: an arm's facts are computed at load."""
        return Arm.of({**arm.entry, **changes})

    patched = {**arm.flags, "draft_graphs": "vLLM 0.23.0 defect patched: … PR #47460"}
    shipped = {**arm.flags, "draft_graphs": "vLLM 0.23.0 as shipped: draft-model passes without CUDA graphs"}
    assert draft_graphs_defect(with_arm()) is DRAFT_GRAPHS
    assert draft_graphs_defect(with_arm(flags=shipped)) is DRAFT_GRAPHS
    assert draft_graphs_defect(with_arm(flags=patched)) is None
    assert draft_graphs_defect(with_arm(engine={"name": "vllm", "version": "0.24.0"})) is None
    assert draft_graphs_defect(with_arm(engine={"name": "vllm", "version": "0.23.1"})) is DRAFT_GRAPHS
    assert draft_graphs_defect(with_arm(engine={"name": "llama.cpp"})) is None


def test_every_renderer_outside_the_pages_names_the_defect_beside_the_drafter() -> None:
    """The export links it, a video frame draws it first among the pane's warnings, the summary footnotes it with the
    address, and the default replay never opens on such an arm."""
    rec = load(RECORDINGS / "qwen-coder-1.5b-vllm-h200-q4-draft.jsonl")
    panes = [recorded_arm_pane(rec, arm, "code") for arm in ("q4", "q4-draft")]
    assert [p.defect for p in panes] == [None, DRAFT_GRAPHS]
    html = standalone_html(panes, title="t", rec=rec, lang="en")
    assert f'<a href="{DRAFT_GRAPHS.link}">{escape(DRAFT_GRAPHS.warning("en"))}</a>' in html
    assert pane_warnings(panes, 0, "ko")[1][0] == DRAFT_GRAPHS.warning("ko")  # what the video frame draws
    text = summary.render(rec)
    assert all(line.endswith("*") for line in text.splitlines() if line.startswith("q4-draft "))
    assert text.splitlines()[-1] == f"* q4-draft: {DRAFT_GRAPHS.warning('en')} — {DRAFT_GRAPHS.link}"
    assert "q4-draft" not in clean_arms(rec, "code") and "q4" in clean_arms(rec, "code")
