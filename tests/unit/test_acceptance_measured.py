"""Acceptance from our recordings (specreplay/explain/acceptance_measured.py): per-position rates, implied α, the formula
against the measured speedup, temperature sweeps. Checked against numbers worked out by hand from the counters."""

import shutil

import numpy as np
import pytest

from specreplay import theory
from specreplay.explain import acceptance_measured as am
from specreplay.recording.format import append, create, event_dict
from specreplay.resources import RECORDINGS

BUNDLED = RECORDINGS / "smollm2-vllm-cpu.jsonl"


def bundled_cell(prompt: str) -> am.AcceptanceCell:
    cells, problems = am.recorded_cells()
    assert problems == []
    return next(c for c in cells if c.file == BUNDLED.name and c.prompt == prompt)


def root_in_unit_interval(gamma: int, length: float) -> float:
    """α from α + α² + … + α^γ = L − 1 (E[τ] multiplied out), by numpy's polynomial roots: independent of theory.py."""
    roots = np.roots([1.0] * gamma + [-(length - 1)])  # α^γ + … + α − (L − 1)
    return next(r.real for r in roots if abs(r.imag) < 1e-12 and 0 <= r.real <= 1)


def test_copy_prompt_per_position_and_alpha_from_the_bundled_counters() -> None:
    # The three repeats of ngram · copy-quote each carry drafts 52, accepted 200, per position (51, 51, 50, 48).
    c = bundled_cell("copy-quote")
    assert (c.counts.drafts, c.counts.accepted, c.counts.per_position, c.gamma) == (156, 600, (153, 153, 150, 144), 4)
    assert c.position_rates == pytest.approx((153 / 156, 153 / 156, 150 / 156, 144 / 156))
    assert [round(r, 3) for r in c.position_rates] == [0.981, 0.981, 0.962, 0.923]
    assert c.acceptance_length == pytest.approx(1 + 600 / 156)  # 4.846
    assert c.alpha == pytest.approx(root_in_unit_interval(4, 1 + 600 / 156), abs=1e-9)
    assert round(c.alpha, 4) == 0.9844


def test_sampled_prose_accepts_only_at_the_first_position() -> None:
    # ngram · chat-advice at temperature 0.8: accepted 9 + 7 + 11 of 179 + 183 + 177 drafts, all at position 1.
    c = bundled_cell("chat-advice")
    assert (c.counts.drafts, c.counts.accepted, c.counts.per_position) == (539, 27, (27, 0, 0, 0))
    assert c.position_rates == pytest.approx((27 / 539, 0, 0, 0))
    assert c.alpha == pytest.approx(root_in_unit_interval(4, 1 + 27 / 539), abs=1e-9)
    assert round(c.alpha, 4) == 0.0477  # 0.0477 + 0.0477² + 0.0477³ + 0.0477⁴ = 0.05009 ≈ 27 / 539
    assert c.temperature == 0.8 and c.like_for_like


def test_closed_loop_on_the_bundled_copy_prompt() -> None:
    c = bundled_cell("copy-quote")
    # 3 repeats x 256 tokens: 765 after the first; 600 of them were accepted drafts, so 165 engine steps.
    assert (c.decode_tokens, c.steps, c.undrafted_steps) == (765, 165, 9)
    assert round(c.measured_speedup, 2) == 3.15  # docs/recorder.md's summary: 67.3 / 21.4 tok/s
    assert c.step_ratio == pytest.approx((765 / 165) / c.measured_speedup)
    assert c.cost_ratio == pytest.approx((c.step_ratio - 1) / 4)
    assert round(c.step_ratio, 2) == 1.47 and round(c.cost_ratio, 3) == 0.118
    assert c.predicted_ideal == pytest.approx(1 + 600 / 156)  # c = 0: the formula says E[τ]
    # With the measured c the formula misses only the steps that drafted nothing: L ÷ tokens per step.
    assert c.predicted / c.measured_speedup == pytest.approx((1 + 600 / 156) / (765 / 165))
    assert round(c.predicted, 2) == 3.29


def test_theory_inverse_and_cost_from_step_time() -> None:
    for gamma in (1, 4, 7):
        for alpha in (0.0, 0.1, 0.5, 0.9, 0.99):
            assert theory.implied_alpha(theory.expected_tokens(alpha, gamma), gamma) == pytest.approx(alpha, abs=1e-9)
    assert theory.implied_alpha(0.9, 4) == 0.0 and theory.implied_alpha(5.0, 4) == 1.0 and theory.implied_alpha(7, 4) == 1.0
    assert theory.implied_alpha(2.0, 1) == 1.0  # γ = 1: E[τ] = 1 + α
    assert theory.implied_alpha(1.5, 1) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="draft length"):
        theory.implied_alpha(2.0, 0)
    assert theory.cost_ratio_from_step(1.6, 4) == pytest.approx(0.15)
    assert theory.cost_ratio_from_step(0.8, 4) == pytest.approx(-0.05)  # a step measured faster than a plain one


def _run(arm: str, prompt: str, repeat: int, chunks: list[tuple[float, int]], spec: dict | None) -> dict:
    events = [event_dict(t, n, "x" * n, None) for t, n in chunks]
    return {"type": "run", "arm": arm, "prompt": prompt, "repeat": repeat, "warmup": False, "concurrency": 1,
            "stream": 0, "started_wall": "2026-12-01T06:00:00+00:00", "started_mono": 0.0, "events": events,
            "ttft": chunks[0][0], "usage": {"completion_tokens": sum(n for _, n in chunks)}, "finish_reason": "length",
            "spec": spec, "request_metrics": None, "status": "ok", "error": None}


def write_temperature_sweep(path) -> None:
    """A made-up cells-mode file, γ = 3, 11 tokens a run, baseline 10 tok/s after the first token:

    - copy at temperature 0: 3 drafts, 7 accepted (3 + 3 + 1; per position 3, 2, 2), 3 steps after the first
      token, 20 tok/s;
    - copy at temperature 1: 5 drafts, 1 accepted (position 1), 9 steps (4 without a draft), 6.67 tok/s;
    - another prompt at temperature 0.5 only (no sweep).
    """
    text = "Repeat this."
    create(path, {
        "title": "temperature test", "created": "2026-12-01T06:00:00+00:00",
        "machine": {"cpu": "Test CPU", "cores": 2, "ram_gib": 8.0, "accelerator": None, "os": "Debian"},
        "arms": [{"id": "base", "label": "baseline", "model": "tiny", "engine": {"name": "vllm", "version": "0.0-test"},
                  "flags": {}},
                 {"id": "spec", "label": "ngram k=3", "model": "tiny", "engine": {"name": "vllm", "version": "0.0-test"},
                  "flags": {"speculative_config": {"method": "ngram", "num_speculative_tokens": 3}}, "baseline": "base"}],
        "prompts": [{"id": "copy-t0", "kind": "copy-quote", "text": text, "sampling": {"temperature": 0.0}},
                    {"id": "copy-t1", "kind": "copy-quote", "text": text, "sampling": {"temperature": 1.0}},
                    {"id": "chat", "kind": "chat", "text": "Hi", "sampling": {"temperature": 0.5}}],
    })
    plain = [(0.1 + 0.1 * i, 1) for i in range(11)]
    fast = [(0.1, 1), (0.3, 4), (0.5, 4), (0.6, 2)]
    slow = [(0.1, 1)] + [(0.1 + 1.5 * (i + 1) / 9, 2 if i == 0 else 1) for i in range(9)]
    for prompt in ("copy-t0", "copy-t1", "chat"):
        for r in range(2):
            append(path, _run("base", prompt, r, plain, None))
    for r in range(2):
        append(path, _run("spec", "copy-t0", r, fast, {"drafts": 3, "draft_tokens": 9, "accepted": 7,
                                                        "per_position": [3, 2, 2]}))
        append(path, _run("spec", "copy-t1", r, slow, {"drafts": 5, "draft_tokens": 15, "accepted": 1,
                                                        "per_position": [1, 0, 0]}))
        append(path, _run("spec", "chat", r, fast, {"drafts": 3, "draft_tokens": 9, "accepted": 7,
                                                     "per_position": [3, 2, 2]}))


def test_made_up_recording_by_hand(tmp_path) -> None:
    write_temperature_sweep(tmp_path / "temp.jsonl")
    cells, problems = am.recorded_cells(tmp_path)
    assert problems == [] and [c.prompt for c in cells] == ["copy-t0", "copy-t1", "chat"]
    t0, t1, _ = cells
    assert (t0.gamma, t0.repeats, t0.temperature) == (3, 2, 0.0)
    assert t0.position_rates == (1.0, 2 / 3, 2 / 3)
    assert t0.acceptance_length == pytest.approx(1 + 14 / 6)
    assert t0.alpha == pytest.approx(root_in_unit_interval(3, 1 + 14 / 6), abs=1e-9)
    assert t0.measured_speedup == pytest.approx(2.0)  # 10 tokens in 0.5 s vs 10 in 1.0 s
    assert (t0.steps, t0.undrafted_steps) == (6, 0)
    assert t0.step_ratio == pytest.approx(10 / 6)  # 0.5 s / 3 steps vs 0.1 s a token
    assert t0.cost_ratio == pytest.approx((10 / 6 - 1) / 3)
    assert t0.predicted == pytest.approx(2.0)  # every step drafted: the formula meets the measurement
    assert t1.position_rates == (0.2, 0.0, 0.0) and t1.acceptance_length == pytest.approx(1.2)
    assert t1.measured_speedup == pytest.approx(10 / 1.5 / 10)
    assert (t1.steps, t1.undrafted_steps) == (18, 8)
    assert t1.predicted / t1.measured_speedup == pytest.approx(1.2 / (20 / 18))  # L ÷ tokens per step
    sweeps = am.temperature_sweeps(cells)
    assert list(sweeps) == [("temp.jsonl", "spec", "copy-t0")]
    assert [c.temperature for c in sweeps[("temp.jsonl", "spec", "copy-t0")]] == [0.0, 1.0]


def test_any_recording_with_counters_is_picked_up_and_a_bad_one_is_named(tmp_path) -> None:
    shutil.copy(BUNDLED, tmp_path / "renamed.jsonl")
    (tmp_path / "broken.jsonl").write_text('{"type": "header"}\n', encoding="utf-8")
    write_temperature_sweep(tmp_path / "temp.jsonl")
    cells, problems = am.recorded_cells(tmp_path)
    assert sorted({c.file for c in cells}) == ["renamed.jsonl", "temp.jsonl"]
    assert len(problems) == 1 and problems[0].startswith("broken.jsonl")
    # The bundled sweep has no per-run counters (they are per level), so it gives no cells.
    sweep_only = tmp_path / "sweep"
    sweep_only.mkdir()
    shutil.copy(RECORDINGS / "smollm2-vllm-cpu-sweep.jsonl", sweep_only)
    assert am.recorded_cells(sweep_only) == ([], [])


def test_nearest_cell_matches_the_browser_rule() -> None:
    copy, chat = bundled_cell("copy-quote"), bundled_cell("chat-advice")
    assert am.nearest([copy, chat], 0.8, 5) is copy
    assert am.nearest([copy, chat], 0.3, 4) is chat
    assert am.nearest([], 0.5, 4) is None


def test_bundled_temperature_sweep_counters() -> None:
    cells, _ = am.recorded_cells()
    sweeps = am.temperature_sweeps([c for c in cells if c.file == "smollm2-vllm-cpu-temperature.jsonl"])
    copy = sweeps[("smollm2-vllm-cpu-temperature.jsonl", "ngram", "copy-t0.0")]
    prose = sweeps[("smollm2-vllm-cpu-temperature.jsonl", "ngram", "prose-t0.0")]
    assert [c.temperature for c in copy] == [c.temperature for c in prose] == [0.0, 0.3, 0.6, 0.8, 1.0]
    # Greedy copying is deterministic: the cells-mode file's counters again (52 drafts, 200 accepted a run).
    assert (copy[0].counts.drafts, copy[0].counts.accepted, copy[0].counts.per_position) == (156, 600, (153, 153, 150, 144))
    # At 0.3 the engine accepted no draft of 253 (85 + 88 + 80): every rate 0, α 0, L 1 — while the baseline
    # still copied the passage and the ngram arm did not.
    t03 = copy[1]
    assert (t03.counts.drafts, t03.counts.accepted, t03.position_rates, t03.alpha) == (253, 0, (0, 0, 0, 0), 0.0)
    assert t03.base_copied > 0.9 and t03.spec_copied < 0.1
    assert all(c.like_for_like and c.repeats == 3 for c in copy + prose)


def test_copied_share() -> None:
    prompt = "Repeat: the lighthouse keeper climbed the spiral stairs."
    assert am.copied_share("The lighthouse keeper climbed, the SPIRAL stairs!", prompt) == 1.0
    assert am.copied_share("the lighthouse keeper sang loudly", prompt) == pytest.approx(1 / 3)  # of 3 triples, 1
    assert am.copied_share("too short", prompt) == 0.0
