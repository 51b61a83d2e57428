"""The shared derived rules (specreplay.explain.derived): each table builder and page reads its ratios, crossings and
break-evens through these, so a reader sees one rule for one question everywhere."""

from __future__ import annotations

import pytest

from specreplay.explain import derived


def test_a_ratio_needs_both_sides_and_a_base_above_zero() -> None:
    assert derived.ratio(3.0, 2.0) == 1.5
    assert derived.ratio(0.0, 2.0) == 0.0  # a measured zero is a value
    assert derived.ratio(None, 2.0) is None
    assert derived.ratio(3.0, None) is None
    assert derived.ratio(3.0, 0.0) is None  # nothing to compare against


def test_percentages_read_as_a_share_or_a_signed_change() -> None:
    assert derived.percent(0.834) == "83 %"
    assert derived.percent(None) == "—"
    assert derived.change_percent(0.123) == "+12%"
    assert derived.change_percent(-0.03) == "-3%"
    assert derived.change_percent(0.004) == "0%"  # no '+0%'


def test_first_below_is_the_first_measured_level_strictly_under_the_threshold() -> None:
    assert derived.first_below({16: 1.1, 1: 1.8, 8: 0.9, 64: 0.5}) == 8
    assert derived.first_below({1: 1.8, 8: 1.0}) is None  # 1.0 is not below 1.0
    assert derived.first_below({1: 1.2, 8: 1.1}, threshold=1.15) == 8
    assert derived.first_below([(1, 1.3), (2, None), (4, 0.7)]) == 4  # an unmeasured level is skipped


def test_a_one_level_dip_is_not_a_sustained_crossing() -> None:
    assert derived.sustained_below({1: 1.6, 2: 1.5, 4: 0.9, 8: 1.2, 16: 0.8, 32: 0.7}) == 16
    assert derived.sustained_below({1: 1.2, 2: 1.1}) is None
    assert derived.sustained_below({1: 0.9, 2: None, 4: 0.8}) == 1


def test_break_even_reads_between_the_measured_points() -> None:
    assert derived.break_even([(1.5, 0.5), (2, 0.9), (3, 1.3)]) == (pytest.approx(2.25), False)
    assert derived.break_even([(3, 1.2), (1.5, 1.01)]) == (1.5, True)  # already pays at the smallest
    assert derived.break_even([(1.5, 0.2), (5, 0.9)]) == (None, False)
    assert derived.break_even([]) == (None, False)
    assert derived.bracket([(4, 1.2), (2, 0.8), (3, 0.9)]) == ((3, 0.9), (4, 1.2))
    assert derived.bracket([(2, 1.2), (3, 0.9)]) is None  # falls, never rises through 1.0


def test_tokens_per_step_counts_one_token_plus_the_accepted_drafts_per_step() -> None:
    assert derived.tokens_per_step(100, 60) == 2.5  # 40 steps
    assert derived.tokens_per_step(100, 0) == 1.0  # no drafter: one token a step
    assert derived.tokens_per_step(0, 0) is None
