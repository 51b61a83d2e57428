"""A timing_only recording (dummy weights: real timings, noise text) is labelled wherever it shows and its
text never shows as model output."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from specreplay.recording import format as fmt
from specreplay.replay.panes import SIM_TOKEN, TIMING_ONLY, recorded_arm_pane
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
    assert TIMING_ONLY in pane.subtitle and pane.details["weights"] == TIMING_ONLY
    assert provenance(rec.header).line().startswith(TIMING_ONLY) and TIMING_ONLY not in provenance(plain.header).line()
    assert TIMING_ONLY not in real.subtitle and set("".join(real.track.text)) != {SIM_TOKEN}


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
    assert all(set("".join(p["text"])) == {SIM_TOKEN} and TIMING_ONLY in p["subtitle"] for p in payload["panes"])
