"""Every table on every page, as the pages send it (AppTest): its first column, what a row is, pinned, so at a
phone's width the other columns scroll inside the table's frame beside it (specreplay/views/tables.py;
tests/browser/test_screens_browser.py measures the drawn pages), and a missing value shows empty, not as "None"."""

import json

import pytest

from tests.apptest_helpers import open_expander, open_page

PAGES = {"replay": [], "acceptance": ["acceptance_check_open", "acceptance_tables_open"],
         "concurrency": ["concurrency_levels_open", "concurrency_more_open"], "ladder": ["ladder_h200_open"],
         "roofline": ["roofline_provenance_open"]}


@pytest.mark.parametrize("name", PAGES)
def test_every_table_pins_its_key_column_and_prints_no_none(name: str) -> None:
    at = open_page(name, "en")
    for key in PAGES[name]:
        at = open_expander(at, key)
    assert not at.exception and at.dataframe
    for frame in at.dataframe:
        first = list(frame.value.columns)[0]
        assert json.loads(frame.proto.columns).get(first, {}).get("pinned") is True, (name, first)
        assert frame.proto.placeholder == "", (name, first)  # a missing value shows empty


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("recording", ["qwen-coder-1.5b-llamacpp-cpu", "timing-only-sizes-1.5b-h200"])
def test_the_replay_summary_shows_its_key_figures_beside_a_narrow_arm_column(recording: str, lang: str) -> None:
    """Issue #41: at 390 px the summary's pinned arm column filled the width. Now it is 140 px wide, its rows tall
    enough for the longest label wrapped (about 14 Latin letters a line, a Hangul syllable two), and the two figures
    the table exists for come right after it; the model every arm shares is said once under the table."""
    at = open_page("replay", lang, recording=recording)
    frame = at.dataframe[0]
    arm, vs, ceiling = list(frame.value.columns)[:3]
    assert (vs, ceiling) == (("× vs reference", "% of ceiling") if lang == "en" else ("기준 팔 대비 ×", "천장 대비 %"))
    assert json.loads(frame.proto.columns)[arm]["width"] == 140
    longest = max(sum(2 if ord(ch) > 0x3000 else 1 for ch in label) for label in frame.value[arm])
    assert frame.proto.row_height >= 8 + 20 * -(-longest // 14)
    assert not any(label.endswith(("Qwen2.5-Coder-1.5B", "H200")) for label in frame.value[arm])
    assert any(c.value.startswith(("Every arm above:", "위 모든 팔:")) for c in at.caption)
