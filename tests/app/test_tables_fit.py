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
