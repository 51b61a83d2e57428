"""One rule for every command that writes a file (export-html, import, video): an existing file is never replaced
unless --force, the command's input never, a wrong path is named, and a failure leaves nothing half-written
(specreplay/output.py; the recorder's -o resumes only its own recording: tests/engine/test_recorder_faults.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from specreplay import cli
from specreplay.output import OutputError, write_atomic
from tests.browser_fixtures import ROOT

REC = ROOT / "recordings" / "smollm2-vllm-cpu.jsonl"
VLLM = ROOT / "tests" / "fixtures" / "interop" / "vllm-bench-baseline.json"


def _run(argv: list[str], capsys) -> tuple[int, str]:
    try:
        code = cli.main(argv)
    except SystemExit as done:  # the video command reports through argparse
        code = int(done.code or 0)
    return code, capsys.readouterr().err


@pytest.fixture
def rec(tmp_path: Path) -> Path:
    path = tmp_path / "rec.jsonl"
    path.write_bytes(REC.read_bytes())
    return path


def test_export_never_overwrites_its_own_input(rec: Path, capsys) -> None:
    before = rec.read_bytes()
    for extra in ([], ["--force"]):
        code, err = _run(["export-html", str(rec), "-o", str(rec), *extra], capsys)
        assert code == 2 and f"{rec}: is this command's input" in err and err.count("\n") == 1
    assert rec.read_bytes() == before


def test_export_refuses_an_existing_file_unless_forced(rec: Path, tmp_path: Path, capsys) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    code, err = _run(["export-html", str(rec), "-o", str(notes)], capsys)
    assert code == 2 and notes.read_text() == "my notes"
    assert err == f"specreplay export-html: {notes}: exists — choose another -o, or pass --force to replace it " \
                  "(nothing was written)\n"
    assert _run(["export-html", str(rec), "-o", str(notes), "--force"], capsys)[0] == 0
    assert notes.read_text().startswith("<!doctype html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "rec.jsonl"]  # no temporary file left


@pytest.mark.parametrize("command", ["export-html", "import", "video"])
def test_a_missing_folder_is_blamed_on_the_output_not_the_input(command: str, rec: Path, tmp_path: Path,
                                                                 capsys) -> None:
    out = tmp_path / "missing" / ("x.mp4" if command == "video" else "x.html")
    argv = {"export-html": ["export-html", str(rec), "-o", str(out)],
            "import": ["import", "vllm-bench", str(VLLM), "-o", str(out)],
            "video": ["video", str(rec), "--prompt", "copy-quote", "-o", str(out)]}[command]
    code, err = _run(argv, capsys)
    assert code == 2 and f"{out}: the folder {out.parent} does not exist — create it, or choose another -o" in err
    assert not out.parent.exists()


def test_video_refuses_an_existing_file_and_its_input_before_rendering(rec: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "clip.mp4"
    out.write_bytes(b"mine")
    code, err = _run(["video", str(rec), "--prompt", "copy-quote", "-o", str(out)], capsys)
    assert code == 2 and f"{out}: exists — choose another -o, or pass --force" in err and out.read_bytes() == b"mine"
    code, err = _run(["video", str(rec), "--prompt", "../../x", "-o", str(tmp_path / "rec.jsonl.mp4")], capsys)
    assert code == 2 and "prompt '../../x' has no finished single-stream run" in err


def test_a_failed_write_leaves_the_old_file_and_no_partial(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "out.html"
    target.write_text("old")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError):
        write_atomic(target, "new")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.html"]


def test_a_directory_as_output_is_named(tmp_path: Path) -> None:
    from specreplay.output import check_output

    with pytest.raises(OutputError, match=f"^{tmp_path}: is a directory — give a file name"):
        check_output(tmp_path, force=True)


def test_the_recorders_header_rewrite_leaves_a_users_tmp_file_alone(tmp_path: Path) -> None:
    """It used to write FILE.tmp and rename it: a file of that name was replaced, and a crash left it behind."""
    from specreplay.recording import format as fmt

    rec = tmp_path / "rec.jsonl"
    rec.write_bytes(REC.read_bytes())
    mine = tmp_path / "rec.jsonl.tmp"
    mine.write_text("my notes")
    lines = rec.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    fmt.replace_header(rec, {**header, "title": "renamed"}, lines[1:])
    assert fmt.load(rec).title == "renamed" and mine.read_text() == "my notes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec.jsonl", "rec.jsonl.tmp"]
