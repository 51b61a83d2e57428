"""bench/roofline.py's CPU dry run in the engine venv (it has torch): every kernel is checked, timed or named as skipped."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.browser_fixtures import ROOT


def test_cpu_dry_run_exercises_the_benchmark_without_a_gpu(tmp_path: Path) -> None:
    engine_py = os.environ.get("SPECREPLAY_ENGINE_PY")
    if not engine_py:
        pytest.skip("SPECREPLAY_ENGINE_PY is unset (make test sets it to the engine venv's python, which has torch)")
    out = tmp_path / "dry.json"
    done = subprocess.run([engine_py, str(ROOT / "bench" / "roofline.py"), "--cpu-dry-run", "--out", str(out)],
                          capture_output=True, text=True, timeout=180, cwd=ROOT,
                          env={**os.environ, "CUDA_VISIBLE_DEVICES": ""})
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(out.read_text())
    assert result["provenance"]["device"] == "cpu"
    timed = {r["kernel"] for r in result["results"]}
    skipped = {line.split(":")[0] for line in result["provenance"]["skipped"]}
    assert "bf16" in timed and timed | skipped == {"bf16", "int4", "fp8"}  # each kernel timed or named as skipped
    assert all(c["ok"] for c in result["checks"])
    assert result["ceilings"]["copy_bandwidth_bytes_per_s"] > 0
