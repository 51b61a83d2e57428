"""Each importer against malformed input, one table per importer: every case is one line naming the input file and
the field, exit status 2 and nothing written (issue #24, point 5). The fixtures are the real tools' files
(tests/fixtures/interop/), each case changes one thing in a copy."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from specreplay import cli
from tests.browser_fixtures import ROOT

FIX = ROOT / "tests" / "fixtures" / "interop"
VLLM = FIX / "vllm-bench-baseline.json"
AIPERF = FIX / "aiperf-baseline" / "profile_export.jsonl"
AIPERF_RAW = FIX / "aiperf-baseline" / "profile_export_raw.jsonl"
GUIDELLM = FIX / "guidellm" / "benchmarks.json"


def _import(kind: str, name: str, text: str, tmp_path: Path, capsys) -> str:
    """Run `specreplay import` on `text` saved as `name`; assert the failure's shape; return the line."""
    src, out = tmp_path / name, tmp_path / "out.jsonl"
    src.write_text(text)
    assert cli.main(["import", kind, str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == [name]  # no partial, no temporary file
    return err.removeprefix("specreplay import: ").strip()


def _set(doc: Any, path: tuple, value: Any) -> Any:
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


VLLM_CASES: list[tuple[tuple, Any, str]] = [
    (("ttfts", 0), "0.1", "field 'ttfts[0]': expected a time in seconds, got str '0.1'"),
    (("ttfts", 0), -1, "field 'ttfts[0]': -1 s is outside 0 s..1 day"),
    (("ttfts", 0), True, "field 'ttfts[0]': expected a time in seconds, got a boolean"),
    (("itls", 0), {"a": 1}, "field 'itls[0]': expected an array of seconds, got an object"),
    (("itls", 0, 0), None, "field 'itls[0][0]': expected a time in seconds, got null"),
    (("itls", 0, 0), 1e6, "field 'itls[0][0]': 1e+06 s is outside 0 s..1 day"),
    (("output_lens", 0), "48", "field 'output_lens[0]': expected a non-negative integer, got str '48'"),
    (("output_lens", 0), 4.5, "field 'output_lens[0]': expected a non-negative integer, got 4.5"),
    (("input_lens", 0), "32", "field 'input_lens[0]': expected integer or null, got str '32'"),
    (("latencies", 0), [1], "field 'latencies[0]': expected integer or number or null, got an array"),
    (("start_times", 1), "now", "field 'start_times[1]': expected integer or number or null, got str 'now'"),
    (("generated_texts", 0), 7, "field 'generated_texts[0]': expected string or null, got 7"),
    (("errors", 0), {"e": 1}, "field 'errors[0]': expected string or null, got an object"),
    (("itls",), "x", "field 'itls': expected an array — run `vllm bench serve` with --save-result --save-detailed"),
]


@pytest.mark.parametrize(("path", "value", "message"), VLLM_CASES, ids=[m.split(":")[0] + str(v) for _, v, m in
                                                                         VLLM_CASES])
def test_vllm_bench(path: tuple, value: Any, message: str, tmp_path: Path, capsys) -> None:
    doc = _set(json.loads(VLLM.read_text()), path, value)
    assert _import("vllm-bench", "r.json", json.dumps(doc), tmp_path, capsys) == f"r.json:1: {message}"


def _first_line(path: Path, change: Callable[[dict], Any]) -> str:
    lines = path.read_text().splitlines()
    doc = json.loads(lines[0])
    change(doc)
    return "\n".join([json.dumps(doc), *lines[1:]]) + "\n"


AIPERF_CASES: list[tuple[Callable[[dict], Any], str]] = [
    (lambda d: _set(d, ("metrics", "time_to_first_token", "value"), "12"),
     "field 'metrics.time_to_first_token.value': expected integer or number or array, got str"),
    (lambda d: _set(d, ("metrics", "time_to_first_token"), [1, 2]), "field 'metrics.time_to_first_token': expected "
     "an object, got an array"),
    (lambda d: _set(d, ("metrics", "time_to_first_token", "unit"), 5), "field 'metrics.time_to_first_token.unit': "
     "expected string, got int"),
    (lambda d: _set(d, ("metrics", "time_to_first_token", "unit"), "fortnights"),
     "field 'metrics.time_to_first_token.unit': unknown time unit 'fortnights' — use one of ms, s, us, ns, sec"),
    (lambda d: _set(d, ("metrics", "inter_chunk_latency", "value", 3), "x"),
     "field 'metrics.inter_chunk_latency.value[3]': expected a time in seconds, got str 'x'"),
    (lambda d: _set(d, ("metrics", "inter_chunk_latency", "value", 3), -5),
     "field 'metrics.inter_chunk_latency.value[3]': -0.005 s is outside 0 s..1 day"),
    (lambda d: _set(d, ("metrics", "output_sequence_length", "value"), "48"),
     "field 'metrics.output_sequence_length.value': expected integer or number, got str"),
    (lambda d: _set(d, ("metrics", "output_sequence_length", "value"), 4.5),
     "field 'metrics.output_sequence_length.value': expected a whole number of tokens, got 4.5"),
    (lambda d: _set(d, ("metrics", "input_sequence_length"), 32), "field 'metrics.input_sequence_length': expected an "
     "object, got 32"),
    (lambda d: _set(d, ("metadata", "session_num"), "../x"), "field 'metadata.session_num': expected integer, got str"),
    (lambda d: _set(d, ("metadata", "turn_index"), -1), "field 'metadata.turn_index': expected a non-negative "
     "integer, got -1"),
    (lambda d: _set(d, ("metadata", "request_start_ns"), 1.5), "field 'metadata.request_start_ns': expected integer, "
     "got float"),
    (lambda d: _set(d, ("metadata", "benchmark_phase"), ["warmup"]), "field 'metadata.benchmark_phase': expected "
     "string, got list"),
]


@pytest.mark.parametrize(("change", "message"), AIPERF_CASES, ids=[m.split(":")[0] for _, m in AIPERF_CASES])
def test_aiperf(change: Callable[[dict], Any], message: str, tmp_path: Path, capsys) -> None:
    text = _first_line(AIPERF, change)
    assert _import("aiperf", "profile_export.jsonl", text, tmp_path, capsys) == f"profile_export.jsonl:1: {message}"


def _data(d: dict, k: int, body: Any) -> None:
    d["responses"][k]["packets"][0]["value"] = body if isinstance(body, str) else json.dumps(body)


AIPERF_RAW_CASES: list[tuple[Callable[[dict], Any], str]] = [
    (lambda d: _set(d, ("responses", 1, "perf_ns"), "1"), "field 'responses[1]': expected {perf_ns, packets}"),
    (lambda d: _set(d, ("responses", 1, "perf_ns"), d["start_perf_ns"] - 10**9),
     "field 'responses[1].perf_ns (after start_perf_ns)': -1 s is outside 0 s..1 day"),
    (lambda d: _set(d, ("responses", 2, "perf_ns"), d["responses"][1]["perf_ns"] - 1000),
     "field 'responses[].perf_ns': times go backwards between messages"),
    (lambda d: _set(d, ("responses", 1, "packets"), "data"), "field 'responses[1].packets': expected an array"),
    (lambda d: _set(d, ("responses", 1, "packets", 0, "value"), 5), "field 'responses[1].packets.value': expected a "
     "string, got 5"),
    (lambda d: _data(d, 1, "{not json"), "field 'responses[1].packets': a data packet that is not JSON"),
    (lambda d: _data(d, 1, [1, 2]), "field 'responses[1].packets': a data packet that is not a JSON object"),
    (lambda d: _data(d, 1, {"choices": "abc"}), "field 'responses[1].packets.data.choices': expected an array of "
     "objects"),
    (lambda d: _data(d, 1, {"choices": [{"text": 5}]}), "field 'responses[1].packets.data.choices[0].text': expected "
     "a string, got 5"),
    (lambda d: _data(d, 1, {"choices": [{"text": "a", "token_ids": ["1"]}]}),
     "field 'responses[1].packets.data.choices[0].token_ids': expected an array of integers"),
    (lambda d: _set(d, ("status",), "200"), "field 'status': expected integer, got str"),
    (lambda d: _set(d, ("payload",), []), "field 'payload': expected object, got list"),
    (lambda d: _set(d, ("payload", "temperature"), "hot"), "field 'payload.temperature': expected integer or number, "
     "got str"),
    (lambda d: _set(d, ("metadata",), "x"), "field 'metadata': expected object, got str"),
]


@pytest.mark.parametrize(("change", "message"), AIPERF_RAW_CASES, ids=[m.split(":")[0] for _, m in AIPERF_RAW_CASES])
def test_aiperf_raw(change: Callable[[dict], Any], message: str, tmp_path: Path, capsys) -> None:
    text = _first_line(AIPERF_RAW, change)
    line = _import("aiperf", "profile_export_raw.jsonl", text, tmp_path, capsys)
    assert line == f"profile_export_raw.jsonl:1: {message}"


GUIDELLM_CASES: list[tuple[Callable[[dict], Any], str]] = [
    (lambda d: _set(d, ("benchmarks",), {"a": 1}), "field 'benchmarks': missing: not a GuideLLM benchmark report"),
    (lambda d: _set(d, ("benchmarks", 0), [1]), "GuideLLM 0.8.1 keeps, for each of its 0 requests"),
    (lambda d: _set(d, ("benchmarks", 0, "requests"), "x"), "GuideLLM 0.8.1 keeps, for each of its 0 requests"),
    (lambda d: _set(d, ("benchmarks", 0, "requests", "successful"), {"a": 1}), "keeps, for each of its 0 requests"),
    (lambda d: _set(d, ("metadata",), [1]), "GuideLLM ? keeps"),
    (lambda d: _set(d, ("metadata", "guidellm_version"), 7), "GuideLLM ? keeps"),
    (lambda d: _set(d, ("benchmarks", 0, "requests", "successful", 0, "info"), "x"), "requests, only the first and last"),
]


@pytest.mark.parametrize(("change", "message"), GUIDELLM_CASES, ids=[str(i) for i in range(len(GUIDELLM_CASES))])
def test_guidellm(change: Callable[[dict], Any], message: str, tmp_path: Path, capsys) -> None:
    """GuideLLM's report is always refused (it has no chunk times); a report of the wrong shape is refused the same
    way, with its reason, never with a traceback."""
    doc = json.loads(GUIDELLM.read_text())
    change(doc)
    line = _import("guidellm", "benchmarks.json", json.dumps(doc), tmp_path, capsys)
    assert line.startswith("benchmarks.json:1: field 'benchmarks") and message in line, line


def test_a_missing_output_folder_is_blamed_on_the_output(tmp_path: Path, capsys) -> None:
    out = tmp_path / "no" / "such" / "out.jsonl"
    assert cli.main(["import", "vllm-bench", str(VLLM), "-o", str(out)]) == 2
    assert capsys.readouterr().err == (f"specreplay import: {out}: the folder {out.parent} does not exist — create "
                                       "it, or choose another -o\n")


def test_importing_onto_an_input_is_refused_even_with_force(tmp_path: Path, capsys) -> None:
    src = tmp_path / "r.json"
    src.write_text(VLLM.read_text())
    assert cli.main(["import", "vllm-bench", str(src), "-o", str(src), "--force"]) == 2
    assert "is this command's input" in capsys.readouterr().err and src.read_text() == VLLM.read_text()


def test_an_arm_id_from_a_file_name_is_made_safe(tmp_path: Path, capsys) -> None:
    """Arm ids travel in ?arms= and name files: a file called 'my results (1).json' gives 'my-results-1'."""
    from specreplay.recording.format import load

    src, out = tmp_path / "my results (1).json", tmp_path / "out.jsonl"
    src.write_text(VLLM.read_text())
    assert cli.main(["import", "vllm-bench", str(src), "-o", str(out)]) == 0
    assert [a.id for a in load(out).arms] == ["my-results-1"]
