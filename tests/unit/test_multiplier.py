"""The pages' multiplier format against the cases the browser's twin (assets/explainer/multiplier.js) reads too."""

import json

from specreplay.multiplier import times
from specreplay.resources import ASSETS


def test_every_shared_case() -> None:
    cases = json.loads((ASSETS / "multiplier_cases.json").read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 10
    for value, text in cases:
        assert times(value) == text, value


def test_a_missing_value_reads_as_asked() -> None:
    assert times(None, "not measured") == "not measured"
