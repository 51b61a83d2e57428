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
    for name in [m for m in sys.modules if m.startswith("specreplay.recorder")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "httpx", None)  # as if `pip install specreplay` without [record]
    assert cli.main(["record", "config.toml"]) == 2
    assert capsys.readouterr().err.strip() == ("specreplay record: needs httpx, which is not installed — "
                                               "pip install 'specreplay[record]'")


def test_the_app_gets_every_streamlit_setting_as_a_flag() -> None:
    """An installed app has no .streamlit/ folder in the working directory: each setting must travel as a flag."""
    config = ROOT / "views/streamlit_config.toml"
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
