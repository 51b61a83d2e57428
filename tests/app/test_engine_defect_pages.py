"""The unpatched vLLM 0.23.0 draft-model arms of the bundled H200 Qwen files, wherever a page shows their speed: the
defect is named beside the figure with the upstream fix's link, in Korean and English (specreplay.engines.defects)."""

import json
import re

from specreplay.explain import panels
from specreplay.recording.wanted import newest
from tests.apptest_helpers import open_page, shown

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
GPU_DRAFT_LADDER = newest(panels.GPU_DRAFT_LADDER)
GPU_NGRAM_LADDER = newest(panels.GPU_NGRAM_LADDER)
GPU_SWEEP = newest(panels.GPU_SWEEP)


LINK = "(https://github.com/vllm-project/vllm/pull/47460)"
EN = f"[vLLM 0.23.0 defect, fixed upstream in PR #47460]{LINK}"
KO = f"[vLLM 0.23.0 결함 — 업스트림 PR #47460에서 수정]{LINK}"


def payload(at) -> dict:
    m = re.search(r'<script type="application/json" id="specreplay-payload">(.*?)</script>',
                  at.get("iframe")[0].proto.srcdoc)
    assert m, "no payload in the player"
    return json.loads(m.group(1))


def captions(at) -> str:
    return shown(" ".join(c.value for c in at.caption))


def test_the_replay_of_an_unpatched_draft_arm_names_the_defect_beside_the_player() -> None:
    at = open_page("replay", "en", recording=GPU_DRAFT_LADDER.removesuffix(".jsonl"), prompt="code",
                   arms="q4,q4-draft")
    assert not at.exception
    q4, draft = payload(at)["panes"]
    assert q4["defect"] is None and not any("defect" in w for w in q4["warnings"])
    assert draft["defect"]["href"] == "https://github.com/vllm-project/vllm/pull/47460"
    assert draft["warnings"][0] == draft["defect"]["text"]  # the player links this line; the video draws it first
    assert draft["defect"]["text"].startswith("vLLM 0.23.0 defect, fixed upstream in PR #47460: ")
    assert f"Qwen2.5-Coder-1.5B · Q4_K_M 4-bit + 0.5B draft model K=4 · vLLM 0.23 · H200: {EN}" in captions(at)
    table = next(d.value for d in at.dataframe if "warnings" in d.value.columns)
    assert "vLLM 0.23.0 defect" in str(table["warnings"].iloc[1])


def test_the_replay_of_the_patch_free_arms_alone_says_nothing() -> None:
    at = open_page("replay", "en", recording=GPU_NGRAM_LADDER.removesuffix(".jsonl"), prompt="code",
                   arms="q4,q4-ngram")
    assert not at.exception
    assert all(p["defect"] is None for p in payload(at)["panes"]) and "47460" not in captions(at)


def test_korean_first_the_replay_and_the_ladder_carry_the_korean_label() -> None:
    at = open_page("replay", "ko", recording=GPU_NGRAM_LADDER.removesuffix(".jsonl"), prompt="code",
                   arms="bf16,bf16-draft")
    assert not at.exception
    assert KO in captions(at) and payload(at)["panes"][1]["defect"]["text"].startswith("vLLM 0.23.0 결함")
    at = open_page("ladder", "ko", our_machine="h200")
    assert not at.exception
    assert f"Q4_K_M + 0.5B 드래프트: {KO}" in captions(at)


def test_the_pareto_view_of_the_qwen_sweep_names_the_defect_of_the_drafter_it_draws() -> None:
    at = open_page("concurrency", "en", pareto_recording=GPU_SWEEP, pair="q4-draft|q4")
    assert not at.exception
    note = next(c.value for c in at.caption if c.value.startswith(":material/bug_report:"))
    assert note.startswith(f":material/bug_report: q4-draft: {EN}") and "not what a draft model costs" in note
    at = open_page("concurrency", "en", pareto_recording=GPU_SWEEP, pair="all")
    assert f"bf16-draft, q4-draft: {EN}" in captions(at)
