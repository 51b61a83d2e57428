"""The replay's rules, on the bundled recordings: one speedup everywhere, labels that lead with what differs, text
warnings, the opening speed, the default replay and the concurrency-level replay."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from recorder import summary
from specreplay.importers import vllm_bench
from specreplay.importers.common import write_recording
from specreplay.recording.format import load
from specreplay.replay.default import choose, choose_in
from specreplay.replay.labels import distinct_labels, reference_name
from specreplay.replay.levels import LevelKey, default_keys, level_pane, level_runs, parse_token
from specreplay.replay.panes import recorded_arm_pane
from specreplay.replay.payload import player_payload
from specreplay.replay.playback import default_speed, speed_note
from specreplay.replay.speedup import arm_speedup, speedups
from specreplay.replay.text_checks import repeats, turn
from specreplay.words import arm_label
from tests.bench_serve_file import write_bench_serve
from tests.browser_fixtures import ROOT
from tests.replay_recordings import write_recording as write_test_recording

REC = ROOT / "recordings"


def h200():
    return load(REC / "smollm2-h200.jsonl")


def test_one_speedup_for_one_pair_in_player_summary_and_pages() -> None:
    rec = h200()
    panes = [recorded_arm_pane(rec, a, "copy-quote") for a in ("baseline", "ngram", "gguf-q4_1")]
    data = player_payload(panes, lang="en")
    assert data["reference"] == 0 and data["panes"][0]["ratio"] is None  # the reference shows no ×1.00
    row = next(r for r in summary.rows(rec) if (r.arm, r.prompt) == ("ngram", "copy-quote"))
    assert round(data["panes"][1]["ratio"], 2) == round(row.speedup, 2) == round(
        arm_speedup(rec, "ngram", "baseline", "copy-quote"), 2) == 2.49
    assert row.reference == "baseline"
    # not the old "vs the slowest arm" (the 4-bit arm was the slowest: ngram read ×2.73 there)
    assert round(speedups(panes, reference=2)[1][1], 2) == 2.73


def test_a_one_arm_file_prints_no_comparison(tmp_path: Path) -> None:
    lines = (REC / "smollm2-vllm-cpu.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["arms"] = [a for a in header["arms"] if a["id"] == "baseline"]
    kept = [json.dumps(header)] + [ln for ln in lines[1:] if json.loads(ln).get("arm") == "baseline"]
    one = tmp_path / "one.jsonl"
    one.write_text("\n".join(kept) + "\n")
    text = summary.render(load(one))
    assert "speedup" not in text and "like-for-like" not in text and "differ" not in text
    assert text.count("\n") == 4  # header + four prompts, no note


def test_labels_lead_with_what_differs() -> None:
    labels = ["Qwen2.5-7B-shaped bf16 · timing only · H200", "Qwen2.5-7B-shaped fp8 (W8A8) · timing only · H200"]
    assert [s.split(" · ")[0] for s in distinct_labels(labels)] == ["bf16", "fp8"]  # the aside shows on hover
    assert distinct_labels(["a b", "c d"]) == ["a b", "c d"]  # nothing shared: unchanged
    # the real-model ladder: three arms start "Q4_K_M 4-bit"; those that add to it lead with what they add
    ladder = ["Qwen2.5-Coder-1.5B · F16 (16-bit weights, 4-bit values)", "Qwen2.5-Coder-1.5B · Q4_K_M 4-bit",
              "Qwen2.5-Coder-1.5B · Q4_K_M 4-bit + 0.5B draft model K=4",
              "Qwen2.5-Coder-1.5B · Q4_K_M 4-bit + n-gram lookup (ngram-simple)"]
    assert distinct_labels(ladder) == [
        "F16 · Qwen2.5-Coder-1.5B", "Q4_K_M 4-bit · Qwen2.5-Coder-1.5B",
        "+ 0.5B draft model K=4 · Q4_K_M 4-bit · Qwen2.5-Coder-1.5B",
        "+ n-gram lookup · Q4_K_M 4-bit · Qwen2.5-Coder-1.5B"]
    assert distinct_labels(["only one"]) == ["only one"]
    # arms that differ in one number lead with it and the words before it back to the comma (three DFlash panes
    # used to read "+ DFlash drafte…" alike), in Korean on a Korean page
    dflash = ["27B-class bf16 · timing only · H200"] + [
        f"27B-class bf16 + DFlash drafter (5 layers) K=7, acceptance {a} (synthetic) · timing only · H200"
        for a in ("2.2", "2.5", "3.1")]
    shorts = distinct_labels(dflash)
    assert [s.split(" · ")[0] for s in shorts[1:]] == ["acceptance 2.2", "acceptance 2.5", "acceptance 3.1"]
    assert shorts[1] == "acceptance 2.2 · + DFlash drafter K=7 · 27B-class bf16 … · timing only · H200"
    assert arm_label(shorts[1], "ko").startswith("수락 길이 2.2 · + DFlash 드래프터 K=7 · 27B급 bf16")
    assert arm_label(ladder[0], "ko") == "Qwen2.5-Coder-1.5B · F16 (16비트 가중치, 4비트 값)"
    assert arm_label(ladder[0], "en") == ladder[0]


def test_the_speedup_names_its_reference_by_what_sets_it_apart() -> None:
    """"×2.05 vs bf16", not "vs Qwen2.5-Coder-1.5B" (the model both panes run: the start page's GPU replay said so);
    the player reads it from the payload, the video from the same function."""
    head = ["Qwen2.5-Coder-1.5B · bf16 (16-bit weights, 4-bit values) · vLLM 0.26.0",
            "+ EAGLE-3 head trained here K=4 · Qwen2.5-Coder-1.5B · bf16 … · vLLM 0.26.0"]
    assert reference_name(head, 0) == "bf16"
    assert reference_name(["F16 · Qwen2.5-Coder-1.5B", "+ 0.5B draft model K=4 · F16 · Qwen2.5-Coder-1.5B"], 0) == "F16"
    assert reference_name(["SmolLM2-135M · vLLM CPU", "SmolLM2-135M + ngram · vLLM CPU"], 0) == "SmolLM2-135M"
    assert reference_name(["a · b", "a · b"], 1) == "a"  # every part shared: the first
    rec = load(ROOT / "recordings" / "qwen-coder-1.5b-vllm026-eagle3.jsonl")
    panes = [recorded_arm_pane(rec, arm, "code") for arm in ("bf16", "eagle3-k4")]
    assert player_payload(panes, lang="ko")["reference_name"] == "bf16"


def test_degenerate_and_not_like_for_like_text_is_detected_and_stored() -> None:
    rec = h200()
    chat = recorded_arm_pane(rec, "gguf-q4_1", "chat-advice")
    assert [w.key for w in chat.warnings] == ["repeats"] and "'aut' repeats 2" in chat.warnings[0].text("en")
    copy = recorded_arm_pane(rec, "gguf-q4_1", "copy-quote")
    assert [w.key for w in copy.warnings] == ["turn"] and "at character 413" in copy.warnings[0].text("en")
    code = recorded_arm_pane(rec, "ngram", "code-refactor")  # greedy, same weights as the baseline, text leaves it
    assert [w.key for w in code.warnings] == ["departs"] and "at character 247" in code.warnings[0].text("en")
    assert "247번째 글자" in code.warnings[0].text("ko")
    assert not recorded_arm_pane(rec, "ngram", "copy-quote").warnings
    assert not recorded_arm_pane(rec, "baseline", "chat-advice").warnings
    data = player_payload([recorded_arm_pane(rec, "baseline", "chat-advice"), chat], lang="en")
    assert data["panes"][1]["warnings"] == [chat.warnings[0].text("en")]
    assert repeats("the cat sat on the mat " * 3) is None and turn("a\nuser said") is None


def test_short_replays_open_slowed_down_and_say_so() -> None:
    assert default_speed(520_000) == 0.1  # an H200 copy run: 5.2 s at 0.1×
    assert default_speed(12_000_000) == 1.0 and default_speed(3_000_000) == 0.5 and default_speed(1_000) == 0.05
    assert speed_note(0.1, "en") == "0.1× — slowed 10×" and speed_note(Fraction(1, 10), "ko") == "0.1× — 10배 느리게"
    assert speed_note(2.0, "en") == "2× — sped up 2×" and speed_note(1, "en") == "1× — real time"


def _without_the_ladder() -> list[Path]:
    """Every bundled file but the real-model ladders (the CPU's and the H200's Qwen2.5-Coder-1.5B)."""
    return [p for p in sorted(REC.glob("*.jsonl")) if not p.name.startswith("qwen-coder-1.5b-")]


def test_the_bundled_real_model_ladder_is_the_default_replay() -> None:
    choice = choose(sorted(REC.glob("*.jsonl")))
    assert choice is not None and choice.ladder
    assert (choice.recording, choice.prompt, choice.arms) == ("qwen-coder-1.5b-llamacpp-cpu", "copy-quote",
                                                              ("f16", "q4", "q4-draft", "q4-ngram"))
    # the same model's H200 ladder is whole and clean too, but its top gain is smaller (n-gram ×1.76 on copy: a
    # 1.5B model on an H200 is bound by per-step overhead, so neither 4-bit nor the draft model pays there)
    gpu = choose_in("qwen-coder-1.5b-vllm-h200", load(REC / "qwen-coder-1.5b-vllm-h200.jsonl"))
    assert gpu is not None and gpu.ladder and 1.5 < gpu.speedup < choice.speedup


def test_without_the_ladder_the_default_replay_is_the_best_real_clean_pair() -> None:
    choice = choose(_without_the_ladder())
    assert choice is not None
    assert (choice.recording, choice.prompt, choice.arms) == ("smollm2-vllm-cpu", "copy-quote", ("baseline", "ngram"))
    # the H200 file's 4-bit arm is left out: its copy text runs past the answer
    assert choose_in("smollm2-h200", h200()).arms == ("baseline", "ngram")


def _ladder_file(path: Path) -> Path:
    """The test recording with the real-model ladder's arm ids (f16, q4, q4-draft)."""
    write_test_recording(path)
    text = path.read_text().replace('"base"', '"f16"').replace('"spec"', '"q4-draft"')
    path.write_text(text)
    return path


def test_the_real_model_ladder_wins_when_bundled(tmp_path: Path) -> None:
    ladder = _ladder_file(tmp_path / "qwen-coder-1.5b-llamacpp-cpu.jsonl")
    choice = choose([*_without_the_ladder(), ladder])
    assert choice is not None and choice.ladder
    assert (choice.recording, choice.arms) == ("qwen-coder-1.5b-llamacpp-cpu", ("f16", "q4", "q4-draft"))


def test_a_sweep_replays_one_request_per_level_with_the_system_total() -> None:
    rec = load(REC / "smollm2-h200-sweep-greedy.jsonl")
    keys = default_keys(rec)
    assert [k.token() for k in keys] == ["ngram@1", "ngram@8", "ngram@32", "ngram@64"]
    assert parse_token("ngram@64") == LevelKey("ngram", 64) and parse_token("x@y") is None
    assert parse_token("w4-dflash@2.2@8") == LevelKey("w4-dflash@2.2", 8)  # an arm id may hold '@' (NAME@L)
    pane = level_pane(rec, keys[-1])
    assert pane.level == 64 and pane.system is not None
    runs = level_runs(rec, keys[-1])
    assert pane.system.tokens <= sum(r.tokens for r in runs) and pane.system.tokens > 40 * pane.track.tokens
    data = player_payload([level_pane(rec, k) for k in keys], lang="en")
    assert [p["level"] for p in data["panes"]] == [1, 8, 32, 64] and data["panes"][3]["system"]["n"]


def test_an_imported_bench_serve_file_keeps_its_counters_and_replays_at_its_level(tmp_path: Path) -> None:
    src = write_bench_serve(tmp_path / "serve-c64.json")
    out = write_recording(tmp_path / "c64.jsonl", vllm_bench.read(src))
    rec = load(out)
    assert not rec.select()  # no single-stream run: it plays by level
    (level,) = rec.levels
    assert level.concurrency == 64 and level.spec is not None
    assert round(1 + level.spec.accepted / level.spec.drafts, 2) == 2.92 and level.spec.per_position == (80, 55, 35, 22)
    assert any("acceptance length 2.92" in n for n in rec.header.imported.notes)
    assert [k.token() for k in default_keys(rec)] == ["serve-c64@64"]
    assert level_pane(rec, LevelKey("serve-c64", 64)).kind == "imported"
    printed = subprocess.run([sys.executable, "-m", "specreplay", "summary", str(out)], capture_output=True,
                             text=True, cwd=ROOT, timeout=120).stdout
    lines = printed.strip().splitlines()
    assert len(lines) == 2 and "2.92" in lines[1] and "speedup" not in printed  # one level row, no comparison


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_export_shows_speed_reference_and_warnings(lang: str) -> None:
    from specreplay.replay.export_html import standalone_html

    rec = h200()
    panes = [recorded_arm_pane(rec, a, "chat-advice") for a in ("baseline", "gguf-q4_1")]
    html = standalone_html(panes, title="t", rec=rec, lang=lang)
    assert speed_note(0.1, lang) in html  # over in 0.6 s: opens at 0.1×
    assert ("'aut' repeats" if lang == "en" else "'aut'가") in html


def test_rungs_read_the_llamacpp_ladders_arms() -> None:
    """The arms of recorder/configs/qwen-llamacpp.toml (issue 21's ladder): ids decide before the labels' prose."""
    from specreplay.recording.arm import Arm

    spec = {"speculative_config": {"method": "draft_model"}}
    arms = [{"id": "f16", "label": "Qwen2.5-Coder-1.5B · F16 (16-bit weights, 4-bit values)", "flags": {}},
            {"id": "q4", "label": "Qwen2.5-Coder-1.5B · Q4_K_M 4-bit", "flags": {}},
            {"id": "f16-draft", "label": "… F16 (16-bit weights, 4-bit values) + 0.5B draft model K=4", "flags": spec},
            {"id": "q4-draft", "label": "… Q4_K_M 4-bit + 0.5B draft model K=4", "flags": spec},
            {"id": "q4-ngram", "label": "… Q4_K_M 4-bit + n-gram lookup", "flags": {"speculative_config": {"method":
                                                                                                      "ngram-mod"}}},
            # issue 38's vLLM arm: an id that names no format, a label naming bf16 before the values' "4-bit"
            {"id": "eagle3-k4", "label": "… bf16 (16-bit weights, 4-bit values) + EAGLE-3 head trained here K=4",
             "flags": {"speculative_config": {"method": "eagle3"}}}]
    typed = [Arm.of(a) for a in arms]
    assert [(a.quantized, a.speculative) for a in typed] == [(False, False), (True, False), (False, True),
                                                              (True, True), (True, True), (False, True)]
    assert [a.reference for a in typed] == [True, False, False, False, False, False]


def test_the_system_total_runs_through_the_level_not_in_one_burst() -> None:
    """64 streams' events are within 1 ms of each other all the way: the system track keeps every arrival."""
    from specreplay.replay.timeline import visible_tokens

    rec = load(REC / "smollm2-h200-sweep-greedy.jsonl")
    pane = level_pane(rec, LevelKey("ngram", 64))
    assert pane.system is not None
    half = visible_tokens(pane.system, pane.track.end_us // 2)
    assert 0.2 * pane.system.tokens < half < pane.system.tokens
