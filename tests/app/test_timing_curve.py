"""The timing-only H200 sweep (dummy weights, Qwen2.5-7B shapes) as a throughput-ratio curve, and the roofline
page that shows it beside NVIDIA's quoted table."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.testing.v1 import AppTest

from specreplay.explain import panels
from specreplay.explain import timing_sweep as ts
from specreplay.recording import catalogue
from specreplay.recording.arm import Arm
from specreplay.recording.locations import recording_file
from specreplay.recording.wanted import newest
from tests.apptest_helpers import open_expander, shown
from tests.browser_fixtures import ROOT

TIMING_FILE = recording_file(str(newest(panels.QUANT_TIMING_SWEEP)))  # found by its header


def hand_throughput(arm: str, level: int) -> float:
    """System tok/s straight from the file's run lines: all tokens ÷ (first request sent → last chunk)."""
    runs = [o for o in map(json.loads, TIMING_FILE.read_text(encoding="utf-8").splitlines())
            if o["type"] == "run" and o["arm"] == arm and o["concurrency"] == level and not o["warmup"]]
    assert len(runs) == level  # one request per stream
    tokens = sum(e["n"] for r in runs for e in r["events"])
    span = max(r["started_mono"] + r["events"][-1]["t"] for r in runs) - min(r["started_mono"] for r in runs)
    return tokens / span


@pytest.fixture(scope="module")
def curves() -> dict[str, ts.QuantCurve]:
    return {c.arm: c for c in ts.quant_curves(catalogue.recording(TIMING_FILE))}


def test_the_bundled_file_is_timing_only_with_three_arms_against_bf16(curves) -> None:
    assert catalogue.recording(TIMING_FILE).timing_only
    assert list(curves) == ["fp8", "w4a16-gptq", "w4a16-awq"]
    assert {c.baseline for c in curves.values()} == {"bf16"}
    assert [c.weight_format for c in curves.values()] == ["fp8", "int4", "int4"]
    assert [c.label for c in curves.values()] == ["fp8 (W8A8)", "4-bit GPTQ → Marlin", "4-bit AWQ → Marlin"]
    assert all(list(c.points) == [1, 2, 4, 8, 16, 32, 64] for c in curves.values())


@pytest.mark.parametrize("level", [1, 64])
@pytest.mark.parametrize("arm", ["fp8", "w4a16-gptq", "w4a16-awq"])
def test_ratios_equal_the_hand_computed_ones(curves, arm: str, level: int) -> None:
    assert curves[arm].points[level] == pytest.approx(hand_throughput(arm, level) / hand_throughput("bf16", level))


def test_four_bit_gain_fades_to_about_one_at_64_streams_and_fp8_stays_ahead(curves) -> None:
    rounded = {a: (round(c.points[1], 2), round(c.points[64], 2)) for a, c in curves.items()}
    assert rounded == {"fp8": (1.45, 1.19), "w4a16-gptq": (1.32, 0.99), "w4a16-awq": (1.26, 1.05)}  # docs/gpu.md
    assert all(v > 1.1 for v in curves["fp8"].points.values())


def test_weight_format_and_short_label_read_the_header() -> None:
    assert Arm.of({"id": "x", "flags": {"quantization": "fp8"}}).weight_format == "fp8"
    assert Arm.of({"id": "x", "label": "M 4-bit AWQ", "flags": {}}).weight_format == "int4"
    assert Arm.of({"id": "x", "label": "M bf16"}).weight_format == "bf16"
    assert ts.short_label(Arm.of({"id": "a", "label": "Qwen2.5-7B-shaped bf16 · timing only · H200"})) == "bf16"
    assert ts.short_label(Arm.of({"id": "a", "label": "plain label · H200"})) == "plain label"
    assert ts.short_label(Arm.of({"id": "a"})) == "a"


# ---------- the page ----------

def page(lang: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "specreplay" / "views" / "roofline.py"), default_timeout=60)
    at.query_params["lang"] = lang
    return at.run()


def badges(at: AppTest) -> list[str]:
    """The text of every st.badge, Markdown escapes undone (a badge escapes each punctuation mark of its source)."""
    found = [re.fullmatch(r":(\w+)-badge\[(.*)\]", m.value, re.S) for m in at.markdown]
    return [f"{b.group(1)}: " + shown(b.group(2)) for b in found if b]


def row(at: AppTest, part: str, column: str | None = None) -> dict:
    for df in at.dataframe:
        frame = df.value
        if column is not None and column not in frame.columns:
            continue
        for _, r in frame.iterrows():
            if part in str(r.iloc[0]):
                return r.to_dict()
    raise AssertionError(f"no table row with {part!r}")


@pytest.mark.parametrize(("lang", "label", "kind"), [("en", "timing only — dummy weights", "timing only (set acceptance)"),
                                                     ("ko", "타이밍 전용 — 더미 가중치", "타이밍 전용 (설정한 수용)")])
def test_roofline_page_shows_the_timing_only_curve_badged_and_labelled(lang: str, label: str, kind: str) -> None:
    at = page(lang)
    assert not at.exception, at.exception
    badge = next(b for b in badges(at) if TIMING_FILE.name in b)
    assert badge.startswith(f"yellow: {kind} · ") and label in badge and "vllm 0.23.0" in badge and "H200" in badge
    assert any(label in h.value for h in at.subheader)
    assert any(label in w.value for w in at.warning)
    gptq, awq, fp8 = row(at, "4-bit GPTQ"), row(at, "4-bit AWQ"), row(at, "fp8 (W8A8)")
    assert label in gptq[next(iter(gptq))]
    assert (gptq["B=1"], gptq["B=64"]) == ("1.32×", "0.99×")
    assert (awq["B=1"], awq["B=64"]) == ("1.26×", "1.05×")
    assert (fp8["B=1"], fp8["B=64"]) == ("1.45×", "1.19×")
    nvidia = row(at, "Llama-3.1-8B · INT4 AWQ")
    assert (nvidia["B=1"], nvidia["B=2"], nvidia["B=64"]) == ("1.54×", "", "0.83×")  # quoted cells kept, gaps empty
    text = " ".join(m.value for m in at.markdown)
    assert "1.32× → 0.99×" in text and "1.26× → 1.05×" in text


def test_ladder_page_shows_our_h200_rung_apart_from_the_articles() -> None:
    at = AppTest.from_file(str(ROOT / "specreplay" / "views" / "ladder.py"), default_timeout=60)
    at.query_params["lang"] = "en"
    at.run()
    assert not at.exception, at.exception
    assert any("Our ladder" in h.value and "not an article" in h.value for h in at.subheader)
    assert any(e.label.startswith("Earlier measurement: H200 · SmolLM2-135M") for e in at.expander)
    open_expander(at, "ladder_h200_open")  # its table is read once the reader opens it
    assert any("smollm2-h200.jsonl" in b and b.startswith("green: measured here · ") for b in badges(at))
    copy = row(at, "copy-quote", "bf16 tok/s")  # the H200 table, below our llama.cpp ladder's
    assert (copy["bf16 tok/s"], copy["4-bit GGUF Q4_1 tok/s"], copy["4-bit ÷ bf16 (computed)"]) == (564, 515, "0.91×")
    assert copy["ngram ÷ bf16 (computed)"] == "2.49×"
    assert row(at, "prose-story (sampled)")["ngram ÷ bf16 (computed)"] == "0.39×"
