"""Hostile or broken recordings give one specific line of error, never a traceback or an endless render."""

from __future__ import annotations

import json
import re

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


def test_loading_builds_the_arm_ids_once_not_once_per_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line used to be checked against a set of arm ids built again for that line: O(arms x lines). Counted,
    not timed (a timed version failed on a busy machine)."""
    built = []
    real = fmt._Ids.of
    monkeypatch.setattr(fmt._Ids, "of", staticmethod(lambda header: built.append(1) or real(header)))
    header = _header(lambda h: h.update(arms=[{**h["arms"][0], "id": f"a{i}"} for i in range(256)]))
    rec = fmt.loads(_text(*[run_line(arm=f"a{i % 256}", spec=None) for i in range(2000)], header=header), "r.jsonl")
    assert len(rec.runs) == 2000 and len(built) == 1


def test_a_chunk_time_past_a_floats_range_in_microseconds_is_refused_on_its_line() -> None:
    """1e303 s is a float; in microseconds it is past a float's range (was: OverflowError, Python's words)."""
    with pytest.raises(fmt.RecordingError, match=r"^r.jsonl:2: field 'events\[0\].t': 1e\+303 s after the request is "
                                                 r"more than a day"):
        fmt.loads(_text(run_line(events=[fmt.event_dict(1e303, 1, "a", None)], usage=None)), "r.jsonl")


@pytest.mark.parametrize(("escaped", "field"), [
    (r"\ud800", "events[0].text"), (r"x\uDFFFy", "events[0].text"), (r"\udbff\u0041", "events[0].text")])
def test_half_a_surrogate_pair_is_refused_with_its_field(escaped: str, field: str) -> None:
    """JSON may escape half a UTF-16 pair alone; Python keeps it, and the upload view and export-html then failed
    to write it as UTF-8, in Python's words."""
    text = _text(run_line(events=[fmt.event_dict(0.1, 1, "MARK", None)], usage=None)).replace("MARK", escaped)
    with pytest.raises(fmt.RecordingError, match=rf"^r.jsonl:2: field '{re.escape(field)}': holds half of a UTF-16 "
                                                 "surrogate pair"):
        fmt.loads(text, "r.jsonl")


def test_a_whole_surrogate_pair_is_one_character_and_loads() -> None:
    text = _text(run_line(events=[fmt.event_dict(0.1, 1, "MARK", None)], usage=None)).replace("MARK", r"\ud83d\ude00")
    assert fmt.loads(text, "r.jsonl").runs[0].events[0].text == "\U0001f600"


def test_a_byte_order_mark_is_named() -> None:
    with pytest.raises(fmt.RecordingError, match=r"^r.jsonl:1: the file starts with a UTF-8 byte-order mark \(BOM\).* "
                                                 "— save it as UTF-8 without a BOM"):
        fmt.loads("\ufeff" + _text(run_line()), "r.jsonl")
