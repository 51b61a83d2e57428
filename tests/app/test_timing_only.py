"""A timing_only recording (dummy weights: real timings, noise text) is badged timing only wherever it shows, never
"measured here", and its text never shows as model output."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from specreplay.recording import format as fmt
from specreplay.replay.export_html import standalone_html
from specreplay.replay.panes import SIM_TOKEN, recorded_arm_pane
from specreplay.replay.source import provenance
from tests.browser_fixtures import ROOT


def _with_header(tmp_path: Path, **fields) -> Path:
    path = tmp_path / "rec.jsonl"
    lines = (ROOT / "recordings/smollm2-vllm-cpu.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    header = {**json.loads(lines[0]), **fields}
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]), encoding="utf-8")
    return path


def test_timing_only_panes_show_one_block_per_token_and_say_so(tmp_path):
    plain = fmt.load(ROOT / "recordings/smollm2-vllm-cpu.jsonl")
    rec = fmt.load(_with_header(tmp_path, timing_only=True))
    arm, prompt = rec.arms[0].id, rec.prompts[0].id
    pane, real = recorded_arm_pane(rec, arm, prompt, None), recorded_arm_pane(plain, arm, prompt, None)
    assert set("".join(pane.track.text)) == {SIM_TOKEN}
    assert len("".join(pane.track.text)) == pane.track.tokens == real.track.tokens
    assert pane.track.t_us == real.track.t_us  # the timings are the recorded ones
    assert (pane.kind, real.kind) == ("timing_only", "measured")
    assert set("".join(real.track.text)) != {SIM_TOKEN}
    assert provenance(rec.header).line() == provenance(plain.header).line()  # the badge says it, in the reader's words


def test_an_arm_at_a_set_acceptance_is_timing_only_in_a_file_of_real_weights() -> None:
    rec = fmt.load(ROOT / "recordings/qwen-coder-1.5b-llamacpp-cpu-breakeven.jsonl")
    assert rec.kind() == "timing_only"
    real = fmt.load(ROOT / "recordings/qwen-coder-1.5b-llamacpp-cpu.jsonl")
    assert real.kind() == "measured" and {real.kind(a.id) for a in real.arms} == {"measured"}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_an_exported_timing_only_replay_carries_the_timing_only_badge(tmp_path, lang):
    from specreplay.words import word

    rec = fmt.load(_with_header(tmp_path, timing_only=True))
    panes = [recorded_arm_pane(rec, a.id, rec.prompts[0].id, None) for a in rec.arms[:2]]
    page = standalone_html(panes, title="t", rec=rec, lang=lang)
    assert word("timing_only", lang) in page and f">{word('measured', lang)}<" not in page


def test_timing_only_must_be_a_boolean(tmp_path):
    with pytest.raises(fmt.RecordingError, match=r"rec.jsonl:1: field 'timing_only': expected boolean, got str"):
        fmt.load(_with_header(tmp_path, timing_only="yes"))
    assert not fmt.load(_with_header(tmp_path, timing_only=False)).timing_only


def test_the_replay_page_warns_and_plays_blocks_for_a_timing_only_recording(tmp_path, monkeypatch):
    import re

    from tests.apptest_helpers import open_page

    folder = tmp_path / "recs"
    folder.mkdir()
    shutil.move(_with_header(tmp_path, timing_only=True), folder / "timing.jsonl")
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(folder))
    at = open_page("replay", "en")
    assert not at.exception, at.exception
    assert any("Timing only: the times are the real engine's" in str(w.value) for w in at.warning)
    srcdoc = at.get("iframe")[0].proto.srcdoc
    payload = json.loads(re.search(r'id="specreplay-payload">(.*?)</script>', srcdoc).group(1))
    assert all(set("".join(p["text"])) == {SIM_TOKEN} and p["kind"] == "timing_only" for p in payload["panes"])
    assert payload["labels"]["timing_only"] == "timing only (set acceptance)"
    badges = [str(b.proto.label) for b in at.get("badge")] if at.get("badge") else []
    text = " ".join(badges + [m.value for m in at.markdown])
    assert "timing only (set acceptance)" in text and "measured here" not in text
