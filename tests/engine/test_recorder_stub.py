"""The recorder against a server without /metrics or streamed usage, and a stream cut mid-way.

These use tests/stub_openai.py, because a real vLLM cannot be made to lack /metrics
or to drop a connection on demand (its docstring says more).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from specreplay.recording import format as fmt
from tests.browser_fixtures import ROOT
from tests.stub_openai import stub_config as _config
from tests.stub_openai import stub_server


def _record(cfg: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "recorder", "record", str(cfg), "-o", str(out), "--repeats", "2",
                           "--warmup", "0", "--no-progress", "--host-busy-max", "1", *extra], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


def test_no_metrics_no_usage_is_recorded_and_said_plainly(tmp_path: Path) -> None:
    out = tmp_path / "rec.jsonl"
    with stub_server() as url:
        proc = _record(_config(tmp_path, url), out)
    assert proc.returncode == 0, proc.stderr
    assert "no /metrics" in proc.stderr and "no usage in the stream" in proc.stderr
    rec = fmt.load(out)
    caps = rec.arm("stub").entry["capabilities"]
    assert caps["metrics"] is False and caps["running_usage"] is False and caps["token_ids"] is False
    assert any("acceptance length not measured" in n for n in caps["not_measured"])
    assert rec.arm("stub").entry["engine"] == {"name": "stub", "version": None}
    assert [r.tokens for r in rec.runs] == [12, 12] and all(r.spec is None and r.usage is None for r in rec.runs)
    assert "stub" in proc.stdout  # the closing summary


def test_stream_cut_midway_is_an_error_run_and_the_file_stays_valid(tmp_path: Path) -> None:
    out = tmp_path / "rec.jsonl"
    with stub_server(cut_after=5) as url:
        proc = _record(_config(tmp_path, url), out)
    assert proc.returncode == 1 and "2 request(s) of this call failed" in proc.stderr  # exit 1: some runs failed
    runs = fmt.load(out).runs
    assert len(runs) == 2 and all(r.status == "error" and r.error for r in runs)
    assert all(r.tokens == 5 for r in runs)


def test_bad_config_is_one_clear_line(tmp_path: Path) -> None:
    cfg = tmp_path / "bad.toml"
    cfg.write_text('[[arms]]\nid = "a"\nendpoint = "localhost:8000"\nmodel = "m"\n[[prompts]]\nid="p"\nkind="chat"\ntext="x"\n')
    proc = _record(cfg, tmp_path / "o.jsonl")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "recorder: bad.toml: arms[0].endpoint: expected an http(s) URL, got 'localhost:8000'"
