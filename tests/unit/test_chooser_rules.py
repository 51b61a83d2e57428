"""Every chooser rule checked against the evidence it cites: one test per rule, reading the figure the rule rests on
(an article's cell, article 004's worked table, or a cell of our bundled recordings), and a test that no rule goes
without one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from specreplay.explain import chooser
from specreplay.quoted import article_tables


def rule(rule_id: str) -> chooser.Rule:
    return next(r for r in chooser.rules() if r.id == rule_id)


def value(r: chooser.Rule, table: str, key: str, metric: str, level: int | None = None) -> float:
    """The value of a figure the rule cites (it must cite it)."""
    for f in r.figures:
        if isinstance(f, article_tables.TableCell) and (f.table, f.key, f.metric) == (table, key, metric) and \
                (level is None or f.level == level) and f.value is not None:
            return f.value
    raise AssertionError(f"rule {r.id} does not cite {table}/{key}/{metric}@{level}")


def recorded(r: chooser.Rule) -> list[chooser.RecordedFigure]:
    return [f for f in r.figures if isinstance(f, chooser.RecordedFigure)]


def math_row(r: chooser.Rule) -> article_tables.MathRow:
    return next(f for f in r.figures if isinstance(f, article_tables.MathRow))


def test_eagle3_a_trained_drafter_beats_the_training_free_methods() -> None:
    r = rule("eagle3")
    assert value(r, "method_speedup", "eagle_3", "speedup") > value(r, "method_speedup", "training_free", "speedup_max")


def test_coding_low_code_is_accepted_longer_than_prose() -> None:
    r = rule("coding_low")
    assert value(r, "acceptance_length", "code", "acceptance_length_min") > \
        value(r, "acceptance_length", "prose", "acceptance_length_max")


def test_mtp_the_checkpoints_own_draft_layers_raise_decode_speed() -> None:
    r = rule("mtp")
    assert value(r, "rtx3090_steps", "mtp_tuned", "decode_rate") > value(r, "rtx3090_steps", "baseline", "decode_rate")


def test_copy_lookup_pays_when_the_output_copies_the_input() -> None:
    r = rule("copy")
    assert value(r, "method_speedup", "pld", "speedup") > 1
    assert value(r, "copy_vs_prose", "copy", "speedup") > 1


def test_small_model_a_training_free_drafter_gains_at_low_load() -> None:
    assert value(rule("small_model"), "method_speedup", "training_free", "speedup_min") > 1


def test_small_no_memory_a_draft_model_takes_kv_cache_and_sessions() -> None:
    r = rule("small_no_memory")
    assert value(r, "memory", "drafter_on", "kv_pool_change") < 0
    assert value(r, "memory", "drafter_on", "sessions") < value(r, "memory", "drafter_off", "sessions")


def test_peak_speedups_below_one_were_measured_at_large_batches() -> None:
    r = rule("peak")
    assert value(r, "batch_speedup", "eagle_sglang", "speedup", 48) < 1
    assert value(r, "collapse_64", "drafter_on", "throughput") < value(r, "collapse_64", "baseline", "throughput")


def test_mid_the_crossing_differs_per_checkpoint_at_eight_users() -> None:
    r = rule("mid")
    assert value(r, "concurrency_speedup", "int4_256k_edge_budget", "speedup", 8) < 1
    assert value(r, "concurrency_speedup", "kv_fp8_256k_edge_budget", "speedup", 8) > 1


def test_ngram_busy_low_acceptance_spends_more_compute_than_it_saves_time() -> None:
    row = math_row(rule("ngram_busy"))
    assert (row.alpha, row.gamma) == (0.2, 3) and row.compute > row.speedup


def test_creative_temperature_takes_the_gain_away() -> None:
    r = rule("creative")
    eagle = sorted((f for f in r.figures if isinstance(f, article_tables.TableCell) and f.table == "temperature_eagle3"),
                   key=lambda f: f.conditions["temperature"])
    assert eagle[0].value is not None and eagle[-1].value is not None and eagle[-1].value < eagle[0].value
    assert math_row(r).gamma <= 3  # the advice: keep γ at 2–3


def test_no_drafter_ngram_only_where_the_output_copies() -> None:
    r = rule("no_drafter")
    assert r.when["copies"] == frozenset({"yes"})  # never for text written anew (see writes_anew)
    assert value(r, "method_speedup", "training_free", "speedup_min") > 1


def test_writes_anew_ngram_slows_free_text_down_in_the_article_and_in_our_recordings() -> None:
    r = rule("writes_anew")
    assert r.verdict == "avoid" and r.methods == ("ngram",)
    assert value(r, "copy_vs_prose", "free_prose", "speedup") < 1 < value(r, "copy_vs_prose", "copy", "speedup")
    sampled = [f for f in recorded(r) if f.temperature == 0.8]
    assert len(sampled) == 4 and all(f.value < 1 for f in sampled)
    assert round(min(f.value for f in sampled), 2) == 0.39 and round(max(f.value for f in sampled), 2) == 0.69
    # greedy, as the rule's text says: 0.32–0.40× on the H200, 1.05× on the CPU's prose
    greedy = sorted(round(f.value, 2) for f in recorded(r) if f.temperature == 0)
    assert greedy == [0.32, 0.4, 1.05]


CHECKS: dict[str, Callable[[], None]] = {
    "eagle3": test_eagle3_a_trained_drafter_beats_the_training_free_methods,
    "coding_low": test_coding_low_code_is_accepted_longer_than_prose,
    "mtp": test_mtp_the_checkpoints_own_draft_layers_raise_decode_speed,
    "copy": test_copy_lookup_pays_when_the_output_copies_the_input,
    "small_model": test_small_model_a_training_free_drafter_gains_at_low_load,
    "small_no_memory": test_small_no_memory_a_draft_model_takes_kv_cache_and_sessions,
    "peak": test_peak_speedups_below_one_were_measured_at_large_batches,
    "mid": test_mid_the_crossing_differs_per_checkpoint_at_eight_users,
    "ngram_busy": test_ngram_busy_low_acceptance_spends_more_compute_than_it_saves_time,
    "creative": test_creative_temperature_takes_the_gain_away,
    "no_drafter": test_no_drafter_ngram_only_where_the_output_copies,
    "writes_anew": test_writes_anew_ngram_slows_free_text_down_in_the_article_and_in_our_recordings,
}


def test_every_rule_has_its_evidence_test_and_cites_a_figure() -> None:
    assert set(CHECKS) == {r.id for r in chooser.rules()}
    assert all(r.figures for r in chooser.rules())


@pytest.mark.parametrize("answers", [
    {"drafter": d, "copies": "no", "concurrency": c, "memory": "yes", "temperature": t}
    for d in chooser.QUESTIONS["drafter"] for c in chooser.QUESTIONS["concurrency"] for t in ("low", "high")])
def test_text_written_anew_never_gets_ngram_recommended(answers: dict[str, str]) -> None:
    fits, _ = chooser.choose(answers)
    assert all(f.method.id != "ngram" or f.verdict == "avoid" for f in fits)
