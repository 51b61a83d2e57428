"""A small recorder config for the tests, pointing at the session's real vLLM arms."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from recorder.engine import serve
from tests.browser_fixtures import ROOT

COPY = ("Repeat this sentence exactly three times: The quick brown fox jumps over the lazy dog "
        "near the quiet river bank.")
PROSE = "Write a short poem about the sea."


def write_config(path: Path, servers: dict[str, serve.Server] | None, arms: tuple[str, ...] = ("baseline", "ngram"),
                 max_tokens: int = 48, mixes: dict[str, list[str]] | None = None,
                 launch_ports: dict[str, int] | None = None) -> Path:
    """Arms on the session's servers, or (launch_ports) with [arms.launch] blocks the recorder starts itself;
    mixes: [[mixes]] id -> prompt ids (the prompts are "copy", greedy, and "prose", sampled)."""
    parts = ['title = "test"', f"[record]\nmax_tokens = {max_tokens}"]
    for arm in arms:
        endpoint = f"http://127.0.0.1:{launch_ports[arm]}" if launch_ports else servers[arm].endpoint
        parts.append(f'[[arms]]\nid = "{arm}"\nlabel = "{arm}"\nendpoint = "{endpoint}"\n'
                     f'model = "{serve.SERVED_NAME}"\nflags = {_toml(serve.flags(arm))}'
                     + ('\nbaseline = "baseline"' if arm != "baseline" and "baseline" in arms else ""))
        if launch_ports:
            cmd, env = serve.command(arm, launch_ports[arm])
            parts.append(f"[arms.launch]\ncommand = {json.dumps(cmd)}\nenv = {_toml(env)}\nstart_timeout_s = 900"
                         "\nstop_grace_s = 30")
    for mix, ids in (mixes or {}).items():
        parts.append(f'[[mixes]]\nid = "{mix}"\nprompts = {json.dumps(ids)}')
    parts.append(f'[[prompts]]\nid = "copy"\nkind = "copy-quote"\ntext = {json.dumps(COPY)}\n'
                 'sampling = { temperature = 0.0 }')
    parts.append(f'[[prompts]]\nid = "prose"\nkind = "long-prose"\ntext = {json.dumps(PROSE)}\n'
                 'sampling = { temperature = 0.8, seed = 1 }')
    path.write_text("\n\n".join(parts) + "\n")
    return path


def _toml(d: dict) -> str:
    items = []
    for k, v in d.items():
        if v is None:
            continue
        items.append(f"{k} = {_toml(v) if isinstance(v, dict) else json.dumps(v)}")
    return "{ " + ", ".join(items) + " }"


def recorder_cmd(*args: str) -> list[str]:
    # Not a timing test: a machine busy with other work must not make it wait (tests/test_host_load.py tests that).
    return [sys.executable, "-m", "recorder", *args, "--no-progress", "--host-busy-max", "1"]


def run_recorder(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    proc = subprocess.run(recorder_cmd(*args), cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr
    return proc
