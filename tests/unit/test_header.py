"""The typed header: what a loaded recording's readers see of line 1, and one clear line for each wrong type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from specreplay.recording import format as fmt
from specreplay.recording.header import Header, Imported, Machine, Mix, RecorderSettings
from tests.unit.test_format import HEADER


def _write(tmp_path: Path, **changes) -> Path:
    header = json.loads(json.dumps({"type": "header", "format": fmt.FORMAT_NAME, "version": 1, **HEADER}))
    header.update(changes)
    path = tmp_path / "h.jsonl"
    path.write_text(json.dumps(header) + "\n")
    return path


GOOD = {"machine": {"cpu": "Xeon", "cores": 16, "accelerator": "NVIDIA H200, 143771 MiB", "os": "Debian"},
        "timing_only": True,
        "recorder": {"mode": "sweep", "max_tokens": 64, "rounds": 2, "config": "c.toml",
                     "mixes": [{"id": "code", "prompts": ["p"]}]},
        "imported": {"tool": "vllm bench serve", "version": "0.32.0", "file": "r.json", "lacks": ["machine"],
                     "notes": ["n"]}}


def test_a_good_header_reads_as_typed_fields(tmp_path: Path) -> None:
    rec = fmt.load(_write(tmp_path, **GOOD))
    h = rec.header
    assert isinstance(h, Header) and (h.title, h.created, h.date) == ("t", "2026-01-01T00:00:00+00:00", "2026-01-01")
    assert h.machine == Machine("NVIDIA H200, 143771 MiB", "NVIDIA H200, 143771 MiB") == Machine(
        accelerator="NVIDIA H200, 143771 MiB", line=rec.machine_line)
    assert h.timing_only and rec.timing_only
    assert h.recorder == RecorderSettings("sweep", 64, 2, (Mix("code", ("p",)),))
    assert h.imported == Imported("vllm bench serve", "0.32.0", "r.json", None, ("machine",), ("n",))
    assert [a.id for a in h.arms] == ["base", "spec"] and [p.id for p in h.prompts] == ["p"]
    assert h.arms[0].entry["id"] == "base"  # the entry as written, for what compares or writes it back


def test_optional_blocks_read_as_empty(tmp_path: Path) -> None:
    h = fmt.load(_write(tmp_path)).header
    assert h.machine == Machine(None, "x (2 cores)")  # no accelerator: the CPU and its cores
    assert not h.timing_only and h.recorder == RecorderSettings() and h.imported is None


def test_a_description_is_the_machine_line(tmp_path: Path) -> None:
    h = fmt.load(_write(tmp_path, machine={"description": "not in the AIPerf file", "accelerator": None})).header
    assert h.machine == Machine(None, "not in the AIPerf file")


@pytest.mark.parametrize("changes, field", [
    ({"title": 3}, "title"),
    ({"created": ["2026"]}, "created"),
    ({"machine": "a laptop"}, "machine"),
    ({"machine": {"accelerator": 1}}, "machine.accelerator"),
    ({"machine": {"cpu": {"name": "x"}}}, "machine.cpu"),
    ({"machine": {"cores": "16"}}, "machine.cores"),
    ({"machine": {"cores": True}}, "machine.cores"),
    ({"machine": {"description": 7}}, "machine.description"),
    ({"arms": {"base": {}}}, "arms"),
    ({"prompts": "p"}, "prompts"),
    ({"timing_only": "yes"}, "timing_only"),
    ({"recorder": ["sweep"]}, "recorder"),
    ({"recorder": {"mode": 1}}, "recorder.mode"),
    ({"recorder": {"max_tokens": "64"}}, "recorder.max_tokens"),
    ({"recorder": {"rounds": 1.5}}, "recorder.rounds"),
    ({"recorder": {"mixes": {"id": "m"}}}, "recorder.mixes"),
    ({"recorder": {"mixes": ["m"]}}, "recorder.mixes[0]"),
    ({"recorder": {"mixes": [{"id": 2, "prompts": []}]}}, "recorder.mixes[0].id"),
    ({"recorder": {"mixes": [{"id": "m", "prompts": "p"}]}}, "recorder.mixes[0].prompts"),
    ({"imported": "vllm"}, "imported"),
    ({"imported": {"tool": 1}}, "imported.tool"),
    ({"imported": {"lacks": [1]}}, "imported.lacks"),
])
def test_a_wrong_type_is_one_line_naming_line_1_and_the_field(tmp_path: Path, changes: dict, field: str) -> None:
    path = _write(tmp_path, **changes)
    for read in (fmt.load, fmt.load_header):
        with pytest.raises(fmt.RecordingError) as exc:
            read(path)
        msg = str(exc.value)
        assert msg.startswith(f"h.jsonl:1: field '{field}': ") and "\n" not in msg, msg
        assert (exc.value.line, exc.value.field) == (1, field)


def test_load_header_reads_line_1_alone(tmp_path: Path) -> None:
    path = _write(tmp_path, **GOOD)
    with open(path, "a") as fh:
        fh.write("not a line load would accept\n")
    assert fmt.load_header(path).recorder.mode == "sweep"
    path.write_text('{"type": "header", "format": ')
    with pytest.raises(fmt.RecordingError, match=r"^h\.jsonl:1: the header is not valid JSON"):
        fmt.load_header(path)


@pytest.mark.parametrize("change, refused", [
    ({}, None),
    ({"max_tokens": 65}, "max_tokens"),
    ({"rounds": 3}, "rounds"),
    ({"mode": "cells"}, "mode"),
    ({"mixes": [{"id": "code", "prompts": ["p"]}, {"id": "more", "prompts": ["p"]}]}, "mixes"),
])
def test_resume_compares_the_typed_recorder_settings(tmp_path: Path, change: dict, refused: str | None) -> None:
    from recorder import session
    from recorder.errors import RecorderError

    path = tmp_path / "r.jsonl"
    fmt.create(path, {**HEADER, "recorder": GOOD["recorder"]})
    new = {**HEADER, "recorder": {**GOOD["recorder"], **change}}
    if refused is None:
        assert session.check_output(path, new)[0] is not None
        return
    with pytest.raises(RecorderError, match=f"was recorded with different {refused} than this config asks for"):
        session.check_output(path, new)
    assert fmt.load(path).header.recorder == RecorderSettings("sweep", 64, 2, (Mix("code", ("p",)),))  # untouched
