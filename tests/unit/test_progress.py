"""The one progress bar (specreplay/progress.py), as a log shows it (stderr not a terminal)."""

from __future__ import annotations

import pytest

from specreplay.progress import Progress


def test_a_log_gets_a_line_per_named_step_and_a_render_every_ten_percent(capsys: pytest.CaptureFixture[str]) -> None:
    runs = Progress(3, unit="runs")
    for label in ("base · chat · 1", "base · chat · 2", "spec · chat · 1"):
        runs.step(label)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split("runs ")[1].split("  ")[0] for line in lines] == ["base · chat · 1", "base · chat · 2",
                                                                        "spec · chat · 1"]
    assert "100% 3/3" in lines[-1] and "left" not in lines[-1]

    frames = Progress(0, label="out.gif", unit="frames")
    for done in range(1, 1001):
        frames(done, 1000)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 11 and all(line.startswith("out.gif [") for line in lines)  # 0 %, 10 %, … 100 %
    assert "100% 1000/1000 frames" in lines[-1]


def test_a_resumed_run_starts_where_it_was_and_disabled_writes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    bar = Progress(10, 7, unit="runs")
    bar.step("x")
    assert "80% 8/10 runs x" in capsys.readouterr().err
    quiet = Progress(10, enabled=False)
    quiet.step("x")
    assert quiet.done == 1 and capsys.readouterr().err == ""
