"""Every numeric option is read with bounds before anything computes with it (specreplay/cli_numbers.py): any
value, however absurd, gets argparse's one line naming the option. `--speed 1e999999999` used to build a
`Fraction` of 10**999999999 (one core at 100 % until killed).

The time asked of a refusal is CPU time of the command's own process (`time.process_time`), not wall time, so a
busy machine does not fail it; the subprocess's timeout only bounds a hang."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.browser_fixtures import ROOT

REC = str(ROOT / "recordings" / "smollm2-vllm-cpu.jsonl")
ABSURD = ["1e999999999", "-1e999999999", "1e-999999999", "nan", "inf", "9" * 5000, "1/0"]

# (command line, the option argparse names); each gets every absurd value
OPTIONS = [
    (["video", REC, "-o", "{tmp}/v.mp4", "--speed"], "--speed"),
    (["video", REC, "-o", "{tmp}/v.mp4", "--fps"], "--fps"),
    (["video", REC, "-o", "{tmp}/v.mp4", "--hold"], "--hold"),
    (["video", REC, "-o", "{tmp}/v.mp4", "--max-seconds"], "--max-seconds"),
    (["video", REC, "-o", "{tmp}/v.mp4", "--repeat"], "--repeat"),
    (["video", REC, "-o", "{tmp}/v.mp4", "--ref"], "--ref"),
    (["export-html", REC, "-o", "{tmp}/e.html", "--repeat"], "--repeat"),
    (["export-html", REC, "-o", "{tmp}/e.html", "--ref"], "--ref"),
    (["export-html", REC, "-o", "{tmp}/e.html", "--speed"], "--speed"),
    (["record", "c.toml", "--host-busy-max"], "--host-busy-max"),
    (["record", "c.toml", "--request-timeout"], "--request-timeout"),
    (["sweep", "c.toml", "--workers"], "--workers"),
]

# Runs each command line in one fresh process, after the imports, and reports the CPU seconds each took.
PROBE = """
import contextlib, io, json, sys, time
from specreplay import cli
import specreplay.video.cli, recorder.cli  # imported before the clock starts
out = []
for argv in json.loads(sys.argv[1]):
    err = io.StringIO()
    started = time.process_time()
    with contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv)
        except SystemExit as done:
            code = done.code
    out.append([code, time.process_time() - started, err.getvalue()])
print(json.dumps(out))
"""


@pytest.mark.parametrize(("argv", "option"), OPTIONS, ids=[o for _, o in OPTIONS])
def test_an_absurd_number_is_one_line_at_once(argv: list[str], option: str, tmp_path) -> None:
    values = [v for v in ABSURD if not (option == "--hold" and v == "1e-999999999")]  # 0 s: a valid hold
    lines = [[a.format(tmp=tmp_path) for a in argv] + [value] for value in values]
    proc = subprocess.run([sys.executable, "-c", PROBE, json.dumps(lines)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)  # bounds a hang only
    assert proc.returncode == 0, proc.stderr
    for value, (code, cpu_s, err) in zip(values, json.loads(proc.stdout)):
        case = f"{option} {value[:20]}"
        assert code == 2, case
        said = [line for line in err.splitlines() if not line.startswith(("usage:", "  "))]
        assert len(said) == 1 and f"argument {option}:" in said[0] and "Traceback" not in err, (case, err)
        assert cpu_s < 1, case
    assert not list(tmp_path.iterdir())  # nothing written
