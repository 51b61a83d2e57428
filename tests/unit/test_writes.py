"""One rule for every command that writes a file (export-html, export-chart, video, import, record, sweep): the
output is a regular file or nothing yet (never a directory, device, FIFO or link), never the command's input, an
existing file is replaced only with --force (the recorder resumes only its own recording:
tests/engine/test_recorder_faults.py), a wrong path is named as given, and a failure leaves nothing half-written
(specreplay/output.py)."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
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


# Every writer and how it is called with -o OUT; the recorder's record and sweep have no --force (they resume).
CONFIG = '[[arms]]\nid = "a"\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n[[prompts]]\nid = "p"\nkind = "code"\ntext = "x"\n'
WRITERS = {
    "export-html": lambda rec, cfg, out: ["export-html", str(rec), "-o", out, "--force"],
    "export-chart": lambda rec, cfg, out: ["export-chart", "breakeven", "-o", out, "--force"],
    "video": lambda rec, cfg, out: ["video", str(rec), "--prompt", "copy-quote", "--format", "mp4", "-o", out, "--force"],
    "import": lambda rec, cfg, out: ["import", "vllm-bench", str(VLLM), "-o", out, "--force"],
    "record": lambda rec, cfg, out: ["record", str(cfg), "-o", out, "--no-progress"],
    "sweep": lambda rec, cfg, out: ["sweep", str(cfg), "-o", out, "--no-progress"],
}


@pytest.fixture
def cfg(tmp_path: Path) -> Path:
    path = tmp_path / "c.toml"
    path.write_text(CONFIG)
    return path


def _refused(argv: list[str], capsys) -> str:
    code, err = _run(argv, capsys)
    said = [line for line in err.splitlines() if line.startswith(("specreplay", "python"))]
    assert code == 2 and len(said) == 1 and "Traceback" not in err, err
    return said[0]


@pytest.mark.parametrize("command", WRITERS)
def test_no_writer_replaces_a_fifo_a_device_a_link_or_a_directory(command: str, rec: Path, cfg: Path,
                                                                   tmp_path: Path, capsys) -> None:
    """--force replaces regular files only: a FIFO was replaced by a file (and the recorder blocked reading it),
    a dangling link was replaced without --force; each refusal names the path as given."""
    fifo, link, folder = tmp_path / "pipe.mp4", tmp_path / "link.mp4", tmp_path / "dir.mp4"
    os.mkfifo(fifo)
    link.symlink_to(tmp_path / "nowhere.mp4")
    folder.mkdir()
    cases = [(fifo, "is a FIFO (named pipe), not a regular file"), (link, "is a symbolic link (to "),
             (folder, "is a directory — give a file name")]
    if command != "video":  # the video's name must end in its format
        cases.append((Path("/dev/null"), "is a character device, not a regular file"))
    for out, why in cases:
        line = _refused(WRITERS[command](rec, cfg, str(out)), capsys)
        assert f": {out}: {why}" in line, line
    assert fifo.is_fifo() and link.is_symlink() and not link.exists() and folder.is_dir()
    assert not (tmp_path / "nowhere.mp4").exists() and Path("/dev/null").is_char_device()


def test_export_chart_never_overwrites_a_recording_it_reads(tmp_path: Path, monkeypatch, capsys) -> None:
    """`export-chart breakeven -o <the recording it draws> --force` replaced that recording with HTML."""
    folder = tmp_path / "recs"
    folder.mkdir()
    breakeven = folder / "qwen-coder-1.5b-llamacpp-cpu-breakeven.jsonl"
    breakeven.write_bytes((ROOT / "recordings" / breakeven.name).read_bytes())
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(folder))
    before = breakeven.read_bytes()
    line = _refused(["export-chart", "breakeven", "-o", str(breakeven), "--force"], capsys)
    assert line == (f"specreplay export-chart: {breakeven}: is this command's input {breakeven} — choose another -o "
                    "(nothing was written)")
    assert breakeven.read_bytes() == before and sorted(folder.iterdir()) == [breakeven]


@pytest.mark.parametrize("command", ["record", "sweep"])
def test_the_recorder_never_writes_over_its_config(command: str, cfg: Path, capsys) -> None:
    before = cfg.read_bytes()
    line = _refused([command, str(cfg), "-o", str(cfg), "--no-progress"], capsys)
    assert f"{cfg}: is this command's input {cfg}" in line and cfg.read_bytes() == before


@contextmanager
def _mounted(where: Path, options: str) -> Iterator[Path]:
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", str(where)], check=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
@pytest.mark.parametrize("command", ["export-html", "export-chart", "video", "import"])
def test_a_full_disk_and_a_read_only_folder_are_one_line_naming_the_output(command: str, rec: Path, cfg: Path,
                                                                          tmp_path: Path, capsys) -> None:
    """Real file systems: a 4 KiB tmpfs (every output here is larger) and a read-only one. `video` said "seek of
    closed file" on a full disk, and a read-only folder's error named the hidden file written beside the output."""
    with _mounted(tmp_path / "full", "size=4k") as full, _mounted(tmp_path / "ro", "ro,size=4k") as ro:
        for folder, reason, advice in ((full, "No space left on device", "free some space, or choose another -o"),
                                       (ro, "Read-only file system", "the file system is read-only: choose another -o")):
            out = folder / "out.mp4"
            line = _refused(WRITERS[command](rec, cfg, str(out)), capsys)
            assert line.endswith(f": {out}: cannot write it ({reason}) — {advice}; nothing was written"), line
            assert list(folder.iterdir()) == []  # no part file left behind
