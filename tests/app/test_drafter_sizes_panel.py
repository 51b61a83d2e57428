"""The acceptance page's target-size panel (issue #29): break-even acceptance against target size, per drafter kind."""

import pytest

from tests.apptest_helpers import open_page, shown


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_acceptance_page_shows_where_each_drafter_starts_to_pay_by_target_size(lang):
    at = open_page("acceptance", lang)
    assert not at.exception, at.exception
    title = "How big must the target be" if lang == "en" else "타깃이 얼마나 커야"
    assert any(title in e.label for e in at.expander)  # under c, closed: the page's first screen is its own
    target = "target" if lang == "en" else "타깃"
    table = next(d.value for d in at.dataframe if target in d.value.columns)
    assert list(dict.fromkeys(table[target])) == ["1.5B", "7B", "14B", "27B"] and len(table) == 12
    text = shown(" ".join([*(m.value for m in at.markdown), *(c.value for c in at.caption)]))
    assert "PR #47460" in text and "https://github.com/vllm-project/vllm/pull/47460" in text
    before_after = "as shipped" if lang == "en" else "그대로"
    assert text.count(before_after) >= 2  # 1.5B and 7B, both measured on the same host as the patched arms
