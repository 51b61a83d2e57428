"""Every recorder config value is typed and bounded when the config is loaded: one line naming the file, the field
and what is allowed, before any server is contacted or any file written (issue #24, point 3)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from recorder import cli, config
from recorder.errors import RecorderError
from tests.browser_fixtures import ROOT

ARM = '[[arms]]\nid = "a"\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n'
PROMPT = '[[prompts]]\nid = "p"\nkind = "code"\ntext = "x"\n'
LAUNCH = '[arms.launch]\ncommand = ["x"]\n'


@pytest.mark.parametrize(("body", "message"), [
    # a boolean is an int to Python; to a level it is nothing
    ("[record]\nlevels = [true]\n" + ARM + PROMPT,
     "record.levels: True is not a level: expected whole numbers from 1 to 1024 (streams at once)"),
    ("[record]\nlevels = [1, 100000000]\n" + ARM + PROMPT,
     "record.levels: 100000000 is not a level: expected whole numbers from 1 to 1024 (streams at once)"),
    ("[record]\nlevels = [1.5]\n" + ARM + PROMPT, "record.levels: 1.5 is not a level"),
    ("[record]\nlevels = [1, 2, 2]\n" + ARM + PROMPT, "record.levels: 2 is listed twice: each level is recorded once"),
    ("[record]\nlevels = []\n" + ARM + PROMPT, "record.levels: expected a list of whole numbers from 1 to 1024"),
    ("[record]\nrepeats = 0\n" + ARM + PROMPT, "record.repeats: 0 is outside the allowed 1–1000"),
    ("[record]\nrepeats = true\n" + ARM + PROMPT, "record.repeats: expected integer, got a boolean"),
    ("[record]\nwarmup = 1000\n" + ARM + PROMPT, "record.warmup: 1000 is outside the allowed 0–100"),
    ("[record]\nmax_tokens = 100000000\n" + ARM + PROMPT, "record.max_tokens: 100000000 is outside the allowed 1–262144"),
    ("[record]\nrounds = 0\n" + ARM + PROMPT, "record.rounds: 0 is outside the allowed 1–100"),
    ("[record]\nhost_busy_max = 1.5\n" + ARM + PROMPT, "record.host_busy_max: expected a share of the CPU"),
    ("[record]\nhost_busy_max_wait_s = 1e9\n" + ARM + PROMPT,
     "record.host_busy_max_wait_s: 1e+09 s is outside the allowed 0–86400 s"),
    # TOML's nan and inf, anywhere: JSON has no such number (a request or a header holding one cannot be written)
    ("[record]\nhost_busy_max = nan\n" + ARM + PROMPT, "record.host_busy_max: nan is not a finite number"),
    (ARM + LAUNCH + "start_timeout_s = nan\n" + PROMPT, "arms[0].launch.start_timeout_s: nan is not a finite number"),
    (ARM + PROMPT + "sampling = { temperature = nan }\n", "prompts[0].sampling.temperature: nan is not a finite number"),
    (ARM + "flags = { speculative_config = { synthetic_acceptance_length = inf } }\n" + PROMPT,
     "arms[0].flags.speculative_config.synthetic_acceptance_length: inf is not a finite number"),
    (ARM + "flags = { x = [1.0, -inf] }\n" + PROMPT, "arms[0].flags.x[1]: -inf is not a finite number"),
    # a table or key the recorder does not read is refused, with the nearest one it does
    ("[recrd]\nmax_tokens = 3\n" + ARM + PROMPT, "[recrd]: not a setting the recorder knows — did you mean record?"),
    ("[sweep]\nlevels = [1]\n" + ARM + PROMPT, "[sweep]: not a setting the recorder knows — the top level holds "
     "title, timing_only, record, arms, prompts, mixes"),
    ("[record]\nmax_tokns = 3\n" + ARM + PROMPT,
     "record.max_tokns: not a setting the recorder knows — did you mean record.max_tokens?"),
    (ARM + 'modle = "m"\n' + PROMPT, "arms[0].modle: not a setting the recorder knows — did you mean arms[0].model?"),
    (ARM + LAUNCH + "start_timout_s = 5\n" + PROMPT, "arms[0].launch.start_timout_s: not a setting the recorder "
     "knows — did you mean arms[0].launch.start_timeout_s?"),
    (ARM + PROMPT + 'txet = "x"\n', "prompts[0].txet: not a setting the recorder knows — did you mean prompts[0].text?"),
    # tables passed on to the server: a near miss of a name the recorder or the engines read (a typo ran unnoticed)
    (ARM + PROMPT + "sampling = { temprature = 0.7 }\n", "prompts[0].sampling.temprature: not a sampling setting "
     "the recorder or the engines know — did you mean prompts[0].sampling.temperature? (a name far from every "
     "known one is passed on as it is)"),
    (ARM + PROMPT + "[prompts.sampling]\nseeed = 3\n", "prompts[0].sampling.seeed: not a sampling setting"),
    (ARM + "[arms.flags]\nquantisation = 'gguf'\n" + PROMPT, "arms[0].flags.quantisation: not a flag the recorder "
     "or the engines know — did you mean arms[0].flags.quantization?"),
    (ARM + "[arms.flags.speculative_confg]\nmethod = 'ngram'\n" + PROMPT,
     "[arms[0].flags.speculative_confg]: not a flag the recorder or the engines know — did you mean "
     "arms[0].flags.speculative_config?"),
    ("[record]\nlevels = [" + ", ".join(map(str, range(1, 258))) + "]\n" + ARM + PROMPT,
     "record.levels: 257 levels; a recording holds at most 256"),
    (ARM + PROMPT + "".join(f'[[mixes]]\nid = "m{i}"\nprompts = ["p"]\n' for i in range(257)),
     "mixes: 257 mixes; a recording holds at most 256"),
    (ARM + LAUNCH + "start_timeout_s = 0\n" + PROMPT,
     "arms[0].launch.start_timeout_s: 0 s is outside the allowed more than 0–86400 s"),
    (ARM + LAUNCH + "stop_grace_s = -1\n" + PROMPT, "arms[0].launch.stop_grace_s: -1 s is outside the allowed 0–86400 s"),
    (ARM + LAUNCH + 'stop_signal = "SIG_DFL"\n' + PROMPT,
     "arms[0].launch.stop_signal: 'SIG_DFL' is not a signal that stops a server: use one of SIGTERM, SIGINT, SIGQUIT, "
     "SIGHUP, SIGKILL"),
    (ARM + LAUNCH + 'stop_signal = "SIGCHLD"\n' + PROMPT, "arms[0].launch.stop_signal: 'SIGCHLD' is not a signal"),
    (ARM + PROMPT.replace('id = "p"', 'id = "../p"'), "prompts[0].id: '../p' is not a usable id"),
    (ARM + PROMPT + '[[mixes]]\nid = "a/b"\nprompts = ["p"]\n', "mixes[0].id: 'a/b' is not a usable id"),
    (ARM + PROMPT + "sampling = { temperature = true }\n",
     "prompts[0].sampling.temperature: expected integer or number, got a boolean"),
    (ARM + PROMPT + 'sampling = { temperature = "hot" }\n', "prompts[0].sampling.temperature: expected integer or "
     "number, got str"),
    (ARM + PROMPT + "sampling = { seed = 1.5 }\n", "prompts[0].sampling.seed: expected integer, got float"),
])
def test_a_bad_value_is_one_line_naming_file_field_and_what_is_allowed(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(body)
    with pytest.raises(RecorderError) as err:
        config.load(path)
    assert str(err.value).startswith(f"c.toml: {message}"), str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(("argv", "message"), [
    (["sweep", "c.toml", "--levels", "1,1"], "argument --levels: 1 is listed twice"),
    (["sweep", "c.toml", "--levels", "0"], "argument --levels: 0 is not a level"),
    (["sweep", "c.toml", "--levels", "9" * 5000], "argument --levels: expected comma-separated whole numbers"),
    (["record", "c.toml", "--request-timeout", "nan"], "argument --request-timeout: nan is outside the allowed"),
    (["record", "c.toml", "--request-total-timeout", "inf"], "argument --request-total-timeout: inf is outside"),
    (["record", "c.toml", "--max-tokens", "1000000000"], "argument --max-tokens: 1000000000 is outside the allowed"),
    (["record", "c.toml", "--repeats", "0"], "argument --repeats: 0 is outside the allowed 1–1000"),
    (["record", "c.toml", "--idle-interval", "0"], "argument --idle-interval: 0 is outside the allowed more than 0"),
])
def test_command_line_numbers_are_bounded_too(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_an_engines_own_setting_far_from_every_known_name_is_passed_on(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(ARM + "[arms.flags]\nmax_model_len = 4096\ntensor_parallel_size = 1\n" + PROMPT +
                    "sampling = { temperature = 0.7, min_p = 0.05, mirostat = 2 }\n")
    cfg = config.load(path)
    assert cfg.prompts[0].sampling == {"temperature": 0.7, "min_p": 0.05, "mirostat": 2}
    assert cfg.arms[0].flags == {"max_model_len": 4096, "tensor_parallel_size": 1}


def test_a_refused_config_writes_nothing(tmp_path: Path) -> None:
    """levels = [true] used to pass the check and append a level line the loader then refused."""
    cfg = tmp_path / "c.toml"
    cfg.write_text("[record]\nlevels = [true]\n" + ARM + PROMPT)
    out = tmp_path / "o.jsonl"
    proc = subprocess.run([sys.executable, "-m", "specreplay", "sweep", str(cfg), "-o", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and not out.exists()
    assert proc.stderr.strip().splitlines() == [
        "specreplay sweep: c.toml: record.levels: True is not a level: expected whole numbers from 1 to 1024 (streams at once)"]


def test_the_bundled_configs_pass(monkeypatch) -> None:
    monkeypatch.setenv("SPECREPLAY_MODELS", "/models")
    monkeypatch.setenv("SPECREPLAY_LLAMA_SERVER", "/opt/llama-server")
    for path in sorted((ROOT / "recorder" / "configs").glob("*.toml")):
        assert config.load(path).arms, path


def _llama_arm(synth: str = "1.5", parallel: str = "8", command: str = '"--port", "8313", "--parallel", "8", '
               '"--spec-synth-len", "1.5"') -> str:
    return ('[[arms]]\nid = "s"\nendpoint = "http://127.0.0.1:8313"\nmodel = "m"\nengine = "llama.cpp"\n'
            f"flags = {{ parallel = {parallel}, speculative_config = {{ synthetic_acceptance_length = {synth} }} }}\n"
            f'[arms.launch]\ncommand = ["llama-server", {command}]\n')


@pytest.mark.parametrize(("arm", "message"), [
    (_llama_arm(synth="4.0"), "arms[0].flags.speculative_config.synthetic_acceptance_length: says 4.0, but the launch "
     "command sets --spec-synth-len 1.5: the recording would store what the config claims, not what the server does"),
    (_llama_arm(command='"--spec-synth-len", "fast"'), "arms[0].launch.command: --spec-synth-len 'fast' is not a number"),
    (_llama_arm(command='"--port", "8313"'), "arms[0].flags.speculative_config.synthetic_acceptance_length: says 1.5, "
     "but the launch command has no --spec-synth-len"),
    (_llama_arm(parallel="4", command='"-np", "1", "--spec-synth-len", "1.5"'),
     "arms[0].flags.parallel: says 4, but the launch command sets --parallel 1"),
    (_llama_arm(command='"--port=8314", "--spec-synth-len", "1.5"'), "arms[0].launch.command: starts the server on "
     "port 8314, but the endpoint is http://127.0.0.1:8313: the recorder would wait at a port nothing listens on"),
])
def test_flags_that_contradict_the_launch_command_are_refused(tmp_path: Path, arm: str, message: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(arm + PROMPT)
    with pytest.raises(RecorderError) as err:
        config.load(path)
    assert str(err.value).startswith(f"c.toml: {message}"), str(err.value)
    path.write_text(_llama_arm() + PROMPT)
    assert config.load(path).arms[0].flags["speculative_config"]["synthetic_acceptance_length"] == 1.5
