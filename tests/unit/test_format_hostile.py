"""Hostile or broken recordings give one specific line of error, never a traceback or an endless render."""

from __future__ import annotations

import json

import pytest

from specreplay import format as fmt
from tests.unit.test_format import HEADER, run_line


def _text(*runs: dict, header: dict = HEADER) -> str:
    return "\n".join(json.dumps({"type": "header", "format": fmt.FORMAT_NAME, "version": 1, **header}) if i == 0
                     else json.dumps(r) for i, r in enumerate([None, *runs])) + "\n"


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_with_the_line(literal: str) -> None:
    text = _text(run_line()).replace('"ttft": 0.1', f'"ttft": {literal}')
    with pytest.raises(fmt.RecordingError, match=rf"^r.jsonl:2: field 'ttft': {literal} is not a number JSON allows"):
        fmt.loads(text, "r.jsonl")


def test_deeply_nested_json_is_refused_not_a_recursion_error() -> None:
    text = _text(run_line()).replace('"request_metrics": null', '"request_metrics": ' + "[" * 100_000 + "]" * 100_000)
    with pytest.raises(fmt.RecordingError, match="r.jsonl:2: nested too deeply"):
        fmt.loads(text, "r.jsonl")


def test_a_whitespace_only_file_says_it_holds_no_recording() -> None:
    with pytest.raises(fmt.RecordingError, match="only blank lines"):
        fmt.loads("  \n\t\n \n", "r.jsonl")


@pytest.mark.parametrize(("change", "message"), [
    ({"events": [fmt.event_dict(1e9, 1, "a", None)], "usage": None}, r"events\[0\].t'.*more than a day"),
    ({"ttft": 1e12}, "'ttft': 1e\\+12 s is outside"),
    ({"events": [{"t": 0.1, "n": 10**30, "text": "a"}], "usage": None}, r"events\[0\].n': a 31-digit number is too large"),
    ({"concurrency": 0}, "'concurrency': 0 is below 1"),
    ({"stream": -1}, "'stream': -1 is below 0"),
])
def test_values_no_engine_produces_are_refused(change: dict, message: str) -> None:
    with pytest.raises(fmt.RecordingError, match=message):
        fmt.loads(_text(run_line(**change)), "r.jsonl")


def test_an_arm_id_that_would_pass_for_a_simulated_arm_is_refused() -> None:
    header = json.loads(json.dumps(HEADER))
    header["arms"][0]["id"] = "sim:p000-bf16"
    header["arms"][1]["baseline"] = "sim:p000-bf16"
    with pytest.raises(fmt.RecordingError, match=r"arms\[0\].id'.*names simulated arms"):
        fmt.loads(_text(header=header), "r.jsonl")
