"""Hostile or broken recordings give one specific line of error, never a traceback or an endless render."""

from __future__ import annotations

import json

import pytest

from specreplay.recording import format as fmt
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


@pytest.mark.parametrize(("literal", "message"), [
    ("1e400", "field 'ttft': 1e400 is too large to be a number here"),  # valid JSON, inf to Python
    ("-1e400", "field 'ttft': -1e400 is too large to be a number here"),
    ("9" * 5000, "field 'ttft': a 5000-digit number is too large to be a count here"),  # int() refuses in its words
])
def test_numbers_beyond_a_float_or_a_count_name_their_field(literal: str, message: str) -> None:
    text = _text(run_line()).replace('"ttft": 0.1', f'"ttft": {literal}')
    with pytest.raises(fmt.RecordingError, match=f"^r.jsonl:2: {message}"):
        fmt.loads(text, "r.jsonl")


def _header(change) -> dict:
    header = json.loads(json.dumps(HEADER))
    change(header)
    return header


@pytest.mark.parametrize(("change", "message"), [
    # an `imported` block of the wrong shape crashed the export and the upload
    (lambda h: h.update(imported="vllm"), r"field 'imported': expected object, got str"),
    (lambda h: h.update(imported={"lacks": "tokens"}), r"field 'imported.lacks': expected array, got str"),
    (lambda h: h.update(imported={"lacks": [1]}), r"field 'imported.lacks': expected an array of strings"),
    (lambda h: h["arms"][0].update(imported={"tool": 5}), r"field 'arms\[0\].imported.tool': expected string"),
    (lambda h: h["arms"][0].update(counts="bytes"), r"field 'arms\[0\].counts': expected 'tokens' or 'chunks'"),
    (lambda h: h.update(recorder=None), r"field 'recorder': expected object, got null"),
    (lambda h: h.update(recorder={"mixes": [{"id": "m", "prompts": [1]}]}), r"'recorder.mixes\[0\].prompts'"),
    (lambda h: h["prompts"][0]["sampling"].update(temperature="hot"), r"'prompts\[0\].sampling.temperature'"),
    (lambda h: h["prompts"][0].update(id="../../x"), r"field 'prompts\[0\].id': '../../x' is not a usable id"),
    (lambda h: (h["arms"][0].update(id="a,b"), h["arms"][1].update(baseline="a,b")),
     r"field 'arms\[0\].id': 'a,b' is not a usable id"),
    (lambda h: h["arms"][0].update(endpoint=["x"]), r"field 'arms\[0\].endpoint': expected string"),
    (lambda h: h.update(arms=[{**h["arms"][0], "id": f"a{i}"} for i in range(300)]), r"300 arms; a recording holds "
     r"at most 256"),
])
def test_header_blocks_the_pages_read_are_typed(change, message: str) -> None:
    with pytest.raises(fmt.RecordingError, match=message):
        fmt.loads(_text(header=_header(change)), "r.jsonl")


def test_loading_is_linear_in_the_number_of_lines() -> None:
    """Each line used to be checked against a set of arm ids built again for that line: O(arms x lines)."""
    import time

    def timed(arms: int) -> float:
        header = _header(lambda h: h.update(arms=[{**h["arms"][0], "id": f"a{i}"} for i in range(arms)]))
        runs = [run_line(arm=f"a{i % arms}", spec=None) for i in range(2000)]
        text = _text(*runs, header=header)
        started = time.perf_counter()
        fmt.loads(text, "r.jsonl")
        return time.perf_counter() - started

    few, many = min(timed(2) for _ in range(3)), min(timed(256) for _ in range(3))
    assert many < few * 2, (few, many)  # 128x the arms, the same lines: about the same time
