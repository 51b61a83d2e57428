"""The formulas, pinned at known points (article 004's worked table, Leviathan et al. 2023) and at their edges."""

import pytest

from specreplay import theory
from specreplay.quoted import article_tables


@pytest.mark.parametrize(("alpha", "gamma", "c", "tau", "gain", "compute"), [
    (0.8, 5, 0.05, 3.69, 2.95, 1.69),
    (0.6, 2, 0.05, 1.96, 1.78, 1.58),
])
def test_speculative_formulas_at_known_points(alpha, gamma, c, tau, gain, compute) -> None:
    assert theory.expected_tokens(alpha, gamma) == pytest.approx(tau, abs=0.005)
    assert theory.speedup(alpha, gamma, c) == pytest.approx(gain, abs=0.005)
    assert theory.compute_overhead(alpha, gamma, c) == pytest.approx(compute, abs=0.005)


def test_formulas_reproduce_every_row_of_article_004s_table() -> None:
    rows = article_tables.speculative_math()
    assert len(rows) == 6
    for r in rows:
        assert round(theory.expected_tokens(r.alpha, r.gamma), 2) == r.expected_tokens
        assert round(theory.speedup(r.alpha, r.gamma, r.c), 2) == r.speedup
        assert round(theory.compute_overhead(r.alpha, r.gamma, r.c), 2) == r.compute


def test_edges_of_acceptance() -> None:
    assert theory.expected_tokens(1.0, 7) == 8.0  # every draft accepted: γ + 1
    assert theory.expected_tokens(0.0, 7) == 1.0  # nothing accepted: only the verifier's own token
    assert theory.compute_overhead(1.0, 4, 0.0) == pytest.approx(1.0)  # γ+1 positions, γ+1 tokens
    assert theory.speedup(0.0, 4, 0.1) == pytest.approx(1 / 1.4)  # pure cost: below 1.0


@pytest.mark.parametrize(("fn", "args"), [
    (theory.expected_tokens, (1.2, 3)), (theory.expected_tokens, (0.5, 0)), (theory.speedup, (0.5, 3, -0.1)),
    (theory.cost_per_million, (4.29, 0)), (theory.seconds_per_answer, (0, 100.0)),
    (theory.kv_bytes_per_token, (80, 0, 128, 2)), (theory.sessions_fitting, (1e9, 0, 1000.0)),
    (theory.sessions_fitting, (1e9, 100, 1000.0, 1.0)),
])
def test_bad_input_is_a_clear_error(fn, args) -> None:
    with pytest.raises(ValueError, match=r"must|cannot"):
        fn(*args)


def test_cost_and_answer_time_match_article_004() -> None:
    # $4.29/h at 158.34 / 244.10 / 373.25 tok/s → about $7.53 / $4.88 / $3.19 and 3.16 / 2.05 / 1.34 s per 500 tokens.
    for tok_s, usd, secs in [(158.34, 7.53, 3.16), (244.10, 4.88, 2.05), (373.25, 3.19, 1.34)]:
        assert round(theory.cost_per_million(4.29, tok_s), 2) == usd
        assert round(theory.seconds_per_answer(500, tok_s), 2) == secs


def test_kv_budget_matches_article_002() -> None:
    per_token = theory.kv_bytes_per_token(80, 8, 128, 2)
    assert per_token == 327_680
    assert theory.tokens_fitting(10 * theory.GIB, per_token) == 32_768
    assert theory.sessions_fitting(10 * theory.GIB, 327, per_token) == pytest.approx(100.2, abs=0.05)
    # A drafter taking 36 % of the pool scales sessions like article 001's 6.7 → 4.3.
    full = theory.sessions_fitting(10 * theory.GIB, 327, per_token)
    with_drafter = theory.sessions_fitting(10 * theory.GIB, 327, per_token, 0.36)
    assert with_drafter == pytest.approx(100.2 * 0.64, abs=0.05)
    assert 6.7 * with_drafter / full == pytest.approx(4.3, abs=0.02)
