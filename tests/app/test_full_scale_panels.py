"""The 27B-class H200 panels (issue #25) on the ladder, concurrency and roofline pages: what a reader sees."""

import pytest

from tests.apptest_helpers import open_page, shown


def _text(at) -> str:
    return shown(" ".join([*(m.value for m in at.markdown), *(c.value for c in at.caption)]))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_ladder_page_shows_our_ladder_at_every_quoted_acceptance_badged_measured_timing_quoted_acceptance(lang):
    at = open_page("ladder", lang)
    assert not at.exception, at.exception
    heads = [h.value for h in at.subheader]
    assert any("27B" in h for h in heads)
    setting = "set acceptance" if lang == "en" else "정한 수용 길이"
    # the earlier SmolLM2 table above it also has a "bf16 tok/s" column: the panel's has the set acceptance too
    table = next(d.value for d in at.dataframe if {"bf16 tok/s", setting} <= set(d.value.columns))
    assert sorted(set(table[setting])) == ["2.2", "2.5", "3.1", "5.3", "5.6"]
    text = _text(at)
    assert ("measured timing, quoted acceptance" if lang == "en" else "측정한 타이밍 · 인용한 수용 길이") in text
    assert ("NVFP4 needs Blackwell" if lang == "en" else "NVFP4가 없어") in text


def test_concurrency_page_reads_off_where_the_drafter_stops_paying_at_27b():
    at = open_page("concurrency", "en")
    assert not at.exception, at.exception
    text = _text(at)
    assert "L 2.2: below 1.0 from 32 streams on" in text
    assert "L 5.3: pays up to 64" in text
    assert "The acceptance length from which the drafter pays" in text
    assert "The same drafter on the bf16 target" in text and "L 2.2: below 1.0 from 64" in text


def test_roofline_page_has_the_27b_serving_curve():
    at = open_page("roofline", "en")
    assert not at.exception, at.exception
    assert any("27B-class serving" in h.value for h in at.subheader)
    assert "at 1–16 streams" in _text(at)
