"""vLLM's synthetic rejection sampling on a real server (CPU build 0.32.0, SmolLM2-135M, ngram K=4), recorded by
our recorder: the acceptance length the counters record is the one requested — at start-up, and through
gpu/synthetic_switch.py, the plugin that lets one H200 server serve every acceptance arm (docs/gpu.md)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from gpu import device
from gpu.ladder27 import toml_value
from specreplay import format as fmt
from specreplay.recorder.engine import serve
from tests.engine_fixtures import _missing
from tests.vllm_config import COPY, run_recorder

START, SWITCHED = 2.0, 3.0  # K = 4: vLLM's schedule accepts exactly 1, then exactly 2 draft tokens per step


def _spec(length: float) -> dict:
    return {**serve.NGRAM, "rejection_sample_method": "synthetic", "synthetic_acceptance_length": length}


@pytest.fixture(scope="module")
def synthetic_server(tmp_path_factory):
    why = _missing()
    if why:
        if os.environ.get("SPECREPLAY_REQUIRE_ENGINE"):
            pytest.fail(why)
        pytest.skip(why)
    tmp = tmp_path_factory.mktemp("synth")
    device.write_plugin(tmp / "plugin")
    port = serve.free_port()
    py = serve.engine_python()
    names = [f"smollm2@{START:g}", f"smollm2@{SWITCHED:g}"]
    cmd = [str(py), "-m", "vllm.entrypoints.openai.api_server", "--model", str(serve.models_dir() / serve.MODEL_DIR),
           "--served-model-name", *names, "--host", "127.0.0.1", "--port", str(port),
           "--max-model-len", str(serve.MAX_MODEL_LEN), "--dtype", serve.DTYPE,
           "--speculative-config", json.dumps(_spec(START))]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "VLLM_CPU_KVCACHE_SPACE": "2",
           "LD_PRELOAD": str(py.parent.parent / "lib/libiomp5.so"), "PYTHONPATH": str(tmp / "plugin"),
           "SPECREPLAY_SYNTHETIC_SWITCH": "1"}
    log = tmp / "vllm.log"
    with open(log, "w") as fh:
        proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    server = serve.Server("synthetic", port, proc, log)
    try:
        serve.wait_ready(server, timeout=900)
        yield server, tmp
    finally:
        server.stop()


def _config(path: Path, endpoint: str) -> Path:
    arms = []
    for length in (START, SWITCHED):
        flags = {"dtype": serve.DTYPE, "max_model_len": serve.MAX_MODEL_LEN, "speculative_config": _spec(length)}
        arms.append(f'[[arms]]\nid = "synth@{length:g}"\nlabel = "synthetic {length:g}"\nendpoint = "{endpoint}"\n'
                    f'model = "smollm2@{length:g}"\nflags = {toml_value(flags)}')
    text = ('title = "synthetic acceptance"\ntiming_only = true\n[record]\nmax_tokens = 48\n\n' + "\n\n".join(arms)
            + f'\n\n[[prompts]]\nid = "copy"\nkind = "copy-quote"\ntext = {json.dumps(COPY)}\n'
            'sampling = { temperature = 0.0 }\n')
    path.write_text(text)
    return path


def test_the_recorded_acceptance_length_is_the_requested_one(synthetic_server):
    server, tmp = synthetic_server
    out = tmp / "rec.jsonl"
    run_recorder("record", str(_config(tmp / "synth.toml", server.endpoint)), "-o", str(out), "--repeats", "2",
                 "--warmup", "1", timeout=600)
    rec = fmt.load(out)
    assert rec.timing_only  # the config says so: the acceptance was set, the text is not the drafter's doing
    for arm, length in (("synth@2", START), ("synth@3", SWITCHED)):
        runs = rec.select(arm, "copy")
        assert len(runs) == 2 and all(r.spec is not None and r.spec.drafts > 0 for r in runs)
        for run in runs:
            # ngram proposes fewer than K tokens where the copy runs short, so a run can fall below L, never above
            assert length - 0.3 <= run.spec.acceptance_length <= length + 0.05, (arm, run.spec)
        assert rec.arm(arm)["flags"]["speculative_config"]["synthetic_acceptance_length"] == length
    log = server.log.read_text(errors="replace")
    assert f"acceptance length {START} -> {SWITCHED}" in log  # the plugin switched, the start-up length did not
