"""`specreplay`, the one command: every subcommand answers --help under its own name, a missing role's package
is named with the extra that brings it, and `specreplay app` starts Streamlit with the app's settings.

tests/engine/test_wheel.py runs the installed command from a wheel; this file runs it from the checkout.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest

from specreplay import cli
from specreplay.resources import ASSETS
from tests.browser_fixtures import ROOT

COMMANDS = ["app", "record", "sweep", "summary", "video", "export-html", "import"]


def test_help_lists_every_command(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert f"specreplay {command} " in out


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_answers_help_under_its_own_name(command: str, capsys) -> None:
    try:
        code = cli.main([command, "--help"])
    except SystemExit as done:  # argparse's --help
        code = done.code
    assert code == 0
    assert capsys.readouterr().out.startswith(f"usage: specreplay {command} ")


def test_python_dash_m_specreplay_is_the_same_command() -> None:
    proc = subprocess.run([sys.executable, "-m", "specreplay", "summary", "--help"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("usage: specreplay summary "), proc.stderr


def test_a_missing_role_package_names_the_extra(monkeypatch, capsys) -> None:
    for name in [m for m in sys.modules if m.startswith("recorder")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "httpx", None)  # as if `pip install specreplay` without [record]
    assert cli.main(["record", "config.toml"]) == 2
    assert capsys.readouterr().err.strip() == ("specreplay record: needs httpx, which is not installed — "
                                               "pip install 'specreplay[record]'")


@pytest.mark.parametrize("command", COMMANDS)
def test_help_and_summary_need_no_extra(command: str, monkeypatch, capsys) -> None:
    """A plain install has no httpx: every --help still answers, and summary (a file reader) still prints."""
    for name in [m for m in sys.modules if m.startswith("recorder")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "httpx", None)
    with pytest.raises(SystemExit) as done:
        cli.main([command, "--help"]) if command != "app" else sys.exit(cli.main([command, "--help"]))
    assert done.value.code == 0 and capsys.readouterr().out.startswith(f"usage: specreplay {command} ")
    if command == "summary":
        assert cli.main(["summary", "smollm2-h200"]) == 0 and "copy-quote" in capsys.readouterr().out


def test_the_app_gets_every_streamlit_setting_as_a_flag() -> None:
    """An installed app has no .streamlit/ folder in the working directory: each setting must travel as a flag."""
    config = ROOT / "specreplay/views/streamlit_config.toml"
    flags = cli.streamlit_flags(config)
    table = tomllib.loads(config.read_text())
    assert len(flags) == sum(len(options) for options in table.values())
    assert "--client.showErrorDetails=none" in flags  # visitors never see a traceback
    assert "--server.fileWatcherType=none" in flags
    assert "--server.headless=true" in flags
    # the checkout's `streamlit run app.py` reads the same file
    assert (ROOT / ".streamlit/config.toml").resolve() == config.resolve()


def test_the_data_comes_from_the_mapped_package_folders() -> None:
    assert (ASSETS / "player/player.js").is_file() and (ASSETS / "fonts/NanumGothic.ttf").is_file()


def test_a_bundled_recording_is_named_without_its_path(tmp_path, monkeypatch, capsys) -> None:
    """An install has no recordings/ folder to point at: the commands take a bundled recording's name."""
    monkeypatch.chdir(tmp_path)
    assert cli.main(["summary", "smollm2-h200"]) == 0
    assert "copy-quote" in capsys.readouterr().out
    assert cli.main(["export-html", "smollm2-vllm-cpu.jsonl", "-o", "replay.html"]) == 0
    assert (tmp_path / "replay.html").stat().st_size > 10_000


@pytest.mark.parametrize("command", [["summary"], ["export-html", "-o", "x.html"], ["video", "--prompt", "p"]])
def test_a_missing_recording_is_one_line_naming_the_bundled_ones(command: list[str], tmp_path, monkeypatch,
                                                                 capsys) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        code = cli.main([command[0], "nope.jsonl", *command[1:]])
    except SystemExit as done:  # the video command reports through argparse
        code = done.code
    assert code == 2
    err = capsys.readouterr().err
    assert "nope.jsonl: no such file" in err and "smollm2-h200.jsonl" in err and "Traceback" not in err
    assert f"specreplay {command[0]}: " in err  # the command's own name, not the recorder's
    assert not (tmp_path / "x.html").exists()


def test_the_app_listens_on_this_machine_only_unless_told(monkeypatch, capsys) -> None:
    calls: list[list[str]] = []

    def execv(_exe: str, cmd: list[str]) -> None:
        calls.append(cmd)

    monkeypatch.setattr(cli.os, "execv", execv)
    assert cli.main(["app"]) == 0
    assert "--server.address=127.0.0.1" in calls[-1]
    assert "serving this machine only (127.0.0.1); pass --server.address 0.0.0.0" in capsys.readouterr().err
    cli.main(["app", "--server.address", "0.0.0.0"])
    assert calls[-1][-2:] == ["--server.address", "0.0.0.0"]  # given after the defaults: Streamlit takes the last
    assert capsys.readouterr().err == ""
    cli.main(["app", "--help"])
    assert "http://127.0.0.1:8501: this machine only" in capsys.readouterr().out


def test_ctrl_c_before_a_commands_own_handler_is_an_exit_status_not_a_traceback(monkeypatch, capsys) -> None:
    """The recorder's first second or two is imports (httpx, asyncio): Ctrl-C there used to print a traceback."""
    def interrupted(argv: list[str]) -> int:
        raise KeyboardInterrupt
    monkeypatch.setitem(cli.COMMANDS, "sweep", interrupted)
    assert cli.main(["sweep", "c.toml"]) == 130
    assert capsys.readouterr().err.strip() == "specreplay: interrupted"


# Ctrl-C arriving while `python -m …` imports its command: a finder that raises it at that import, as the signal would
INTERRUPT_IMPORT = """
import runpy, sys
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == sys.argv[1] + ".cli":
            raise KeyboardInterrupt
sys.meta_path.insert(0, Interrupt())
runpy.run_module(sys.argv[1], run_name="__main__")
"""


@pytest.mark.parametrize("package", ["specreplay", "recorder"])
def test_ctrl_c_while_python_dash_m_imports_is_an_exit_status_not_a_traceback(package: str) -> None:
    proc = subprocess.run([sys.executable, "-c", INTERRUPT_IMPORT, package], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 130 and "Traceback" not in proc.stderr, proc.stderr


def test_a_finished_recording_whose_table_cannot_be_drawn_is_not_called_a_write_failure(tmp_path, monkeypatch,
                                                                                        capsys) -> None:
    """On the lent GPU the recorder runs from sources without the app's assets: the table after a recording read
    the ceiling's weight sizes, failed, and the recorder said it could not write the recording (issue #38's lease)."""
    from recorder import cli as recorder_cli
    from specreplay.explain import ceiling
    from specreplay.recording import catalogue

    rec = catalogue.recording(ROOT / "recordings/qwen-coder-1.5b-vllm026-eagle3.jsonl")
    monkeypatch.setattr(ceiling, "WEIGHTS_FILE", tmp_path / "assets/weight_bytes.csv")
    ceiling.weight_bytes_table.cache_clear()
    said: list[str] = []
    recorder_cli._print_table(rec, tmp_path / "out.jsonl", said.append)
    assert len(said) == 1 and said[0].startswith(f"recorded {tmp_path / 'out.jsonl'}; its table could not be drawn")
    assert "cannot write" not in said[0] and "specreplay summary" in said[0]
    ceiling.weight_bytes_table.cache_clear()  # the next reader loads the real table
