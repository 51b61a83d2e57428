"""Recording format v1: what the recorder writes loads back, and bad files give one specific line of error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from specreplay.recording import format as fmt
from tests.browser_fixtures import ROOT

# A valid header with two arms (spec against base) and one prompt; tests change copies of it.
HEADER = json.loads((ROOT / "tests" / "fixtures" / "format" / "header.json").read_text(encoding="utf-8"))


def run_line(**kw) -> dict:
    line = {"type": "run", "arm": "spec", "prompt": "p", "repeat": 0, "warmup": False, "concurrency": 1,
            "stream": 0, "started_wall": "2026-01-01T00:00:00Z", "started_mono": 1.0,
            "events": [fmt.event_dict(0.1, 1, "a", [5]), fmt.event_dict(0.15, 3, "bcd", [6, 7, 8])],
            "ttft": 0.1, "usage": {"prompt_tokens": 3, "completion_tokens": 4}, "finish_reason": "length",
            "spec": {"drafts": 1, "draft_tokens": 4, "accepted": 2, "per_position": [1, 1, 0, 0]},
            "request_metrics": None, "status": "ok", "error": None}
    line.update(kw)
    return line


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "rec.jsonl"
    fmt.create(path, HEADER)
    fmt.append(path, run_line())
    fmt.append(path, {"type": "level", "arm": "spec", "concurrency": 1, "started_mono": 1.0, "ended_mono": 2.0,
                      "spec": {"drafts": 1, "draft_tokens": 4, "accepted": 2}})
    return path


def test_round_trip(good: Path) -> None:
    rec = fmt.load(good)
    (run,) = rec.runs
    assert run.tokens == 4 and run.events[1].t_us == 150_000 and run.events[1].ids == (6, 7, 8)
    assert run.spec.acceptance_length == 3.0 and run.spec.acceptance_rate == 0.5
    assert rec.levels[0].concurrency == 1 and rec.arm("spec").baseline == "base"


def test_a_runs_events_read_like_a_tuple_of_events(good: Path) -> None:
    """Runs keep their chunks in arrays (specreplay/recording/events.py); readers see what a tuple of Event gave."""
    events = fmt.load(good).runs[0].events
    want = (fmt.Event(100_000, 1, "a", (5,)), fmt.Event(150_000, 3, "bcd", (6, 7, 8)))
    assert tuple(events) == want and events == want and len(events) == 2 and list(reversed(events)) == [*want[::-1]]
    assert (events[0], events[-1], events[-2], events[1:]) == (want[0], want[1], want[0], want[1:])
    with pytest.raises(IndexError):
        events[2]
    with pytest.raises(IndexError):
        events[-3]
    assert events.text == "abcd" and list(events.n) == [1, 3] and events.texts() == ["a", "bcd"]
    no_ids = fmt.loads(good.read_text(), keep_ids=False).runs[0].events
    assert [e.ids for e in no_ids] == [None, None] and no_ids != events
    assert fmt.loads(good.read_text()).runs[0].events == events


def test_a_parsed_recording_holds_no_object_per_chunk() -> None:
    """A parsed upload held three objects per chunk (160 bytes a chunk, a million objects for an 18 MiB file: what
    kept a server's memory after its visitors left); a run's chunks are arrays and one string now."""
    import tracemalloc

    events = [fmt.event_dict(0.1 + k / 100, 1, f" w{k % 50}", [k]) for k in range(500)]
    header = {"type": "header", "format": fmt.FORMAT_NAME, "version": fmt.FORMAT_VERSION, **HEADER}
    text = json.dumps(header) + "\n" + "".join(json.dumps(run_line(events=events, usage=None, repeat=i)) + "\n"
                                                for i in range(200))
    tracemalloc.start()
    try:
        rec = fmt.loads(text, keep_ids=False)
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(rec.runs) == 200
    assert held / (200 * 500) < 40  # bytes a chunk: 8 (time) + 4 (tokens) + 8 (where its text ends) + its text


def _error(path: Path) -> str:
    with pytest.raises(fmt.RecordingError) as exc:
        fmt.load(path)
    msg = str(exc.value)
    assert "\n" not in msg and "Traceback" not in msg
    return msg


def test_truncated_last_line_names_file_and_line(good: Path) -> None:
    data = good.read_bytes()
    good.write_bytes(data[: len(data) - 20])  # cut the level line mid-way
    msg = _error(good)
    assert msg.startswith("rec.jsonl:3:") and "truncated" in msg and "rerun the recorder" in msg
    assert fmt.drop_partial_tail(good) and len(fmt.load(good).runs) == 1


@pytest.mark.parametrize("mutate, where", [
    (lambda r: r.update(usage={"completion_tokens": 9}), "rec.jsonl:2: field 'usage.completion_tokens'"),
    (lambda r: r["events"][1].update(t=0.05), "rec.jsonl:2: field 'events[1].t'"),
    (lambda r: r["events"][1].update(ids=[1]), "rec.jsonl:2: field 'events[1].ids'"),
    (lambda r: r.update(arm="nope"), "rec.jsonl:2: field 'arm'"),
    (lambda r: r.pop("warmup"), "rec.jsonl:2: field 'warmup': missing"),
    (lambda r: r.update(spec={"drafts": -1, "draft_tokens": 0, "accepted": 0}), "rec.jsonl:2: field 'spec'"),
])
def test_corrupted_run_names_file_line_and_field(tmp_path: Path, mutate, where: str) -> None:
    path = tmp_path / "rec.jsonl"
    fmt.create(path, HEADER)
    line = run_line()
    mutate(line)
    fmt.append(path, line)
    assert _error(path).startswith(where)


@pytest.mark.parametrize("mutate, where", [
    (lambda h: h["arms"][1].update(baseline="spec"), "arms[1].baseline"),
    (lambda h: h["prompts"][0].update(api="rpc"), "prompts[0].api"),
    (lambda h: h["arms"][0].update(endpoint="http://u:pw@host:1"), "arms[0].endpoint"),
    (lambda h: h["prompts"][0].update(kind="poem"), "prompts[0].kind"),
])
def test_bad_header_names_the_field(tmp_path: Path, mutate, where: str) -> None:
    header = json.loads(json.dumps({"type": "header", "format": fmt.FORMAT_NAME, "version": 1, **HEADER}))
    mutate(header)
    path = tmp_path / "rec.jsonl"
    path.write_text(json.dumps(header) + "\n")
    assert _error(path).startswith(f"rec.jsonl:1: field '{where}'")


def test_not_a_recording(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"hello": 1}\n')
    assert _error(path).startswith("x.jsonl:1: field 'type'")
