"""Issue #14, recorder side: files are never damaged, bad servers and bad input give one line, never a traceback.

Most of these faults cannot be made on demand by a real vLLM (it always sends well-formed JSON chunks, never
echoes credentials, honours ignore_eos, and a restart takes minutes): those use the scripted server
tests/stub_openai.py, as each docstring says. The output-file cases need no server at all: the recorder checks
the file before it contacts one. A real vLLM's case (every request refused) is in tests/engine/test_recorder_vllm.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from specreplay.recording import format as fmt
from tests.browser_fixtures import ROOT
from tests.local_server import free_port
from tests.stub_openai import stub_config as _config
from tests.stub_openai import stub_server

# The recorder reads speculative counters only for arms whose flags say they speculate.
SPECULATIVE = 'flags = { speculative_config = { method = "ngram", num_speculative_tokens = 4 } }'
NOWHERE = "http://127.0.0.1:9"  # nothing listens: a test that needs no server proves none was asked


def _record(cfg: Path, out: Path, *extra: str, repeats: int = 2, env: dict | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "recorder", "record", str(cfg), "-o", str(out), "--repeats",
                           str(repeats), "--warmup", "0", "--no-progress", "--host-busy-max", "1", "--idle-interval", "0.01",
                           *extra], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})


def _one_line(proc: subprocess.CompletedProcess) -> str:
    """The line the recorder stopped with: its last stderr line, every line its own, no traceback."""
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert lines and all(line.startswith("recorder: ") for line in lines), proc.stderr
    return lines[-1]


def _raw_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# ----------------------------------------------------------------- the output file (no server involved)

def test_output_that_is_not_a_recording_is_left_byte_for_byte(tmp_path: Path) -> None:
    """No server: a text file whose last line lacks its newline used to lose that line before the check."""
    out = tmp_path / "notes.txt"
    out.write_bytes(b"my notes\nthe last line, no newline")
    proc = _record(_config(tmp_path, NOWHERE), out)
    assert proc.returncode == 2
    line = _one_line(proc)
    assert "notes.txt" in line and "not a recording" in line and "nothing in it was changed" in line
    assert out.read_bytes() == b"my notes\nthe last line, no newline"


def test_another_recording_keeps_its_last_run_and_a_whole_last_line_is_kept_on_resume(tmp_path: Path) -> None:
    """The stub plays the server (a real one adds nothing to a file check). A recording of another config whose
    last run line lacks its newline is refused untouched; its own config resumes it and keeps that run."""
    out = tmp_path / "rec.jsonl"
    with stub_server() as url:
        assert _record(_config(tmp_path, url), out).returncode == 0
        whole = out.read_bytes()
        out.write_bytes(whole[:-1])  # a finished run line, only its newline missing
        other = _record(_config(tmp_path, url, text="something else", name="other.toml"), out)
        assert other.returncode == 2 and "different prompts" in _one_line(other)
        assert out.read_bytes() == whole[:-1]
        again = _record(_config(tmp_path, url), out, repeats=3)
    assert again.returncode == 0, again.stderr
    rec = fmt.load(out)
    assert out.read_bytes().startswith(whole) and [r.repeat for r in rec.runs] == [0, 1, 2]


def test_output_that_is_a_directory_is_one_line(tmp_path: Path) -> None:
    """No server: `-o` a directory."""
    proc = _record(_config(tmp_path, NOWHERE), tmp_path)
    assert proc.returncode == 2
    assert "is a directory" in _one_line(proc) and "rec.jsonl" in proc.stderr


def test_summary_of_a_missing_file_or_a_directory_is_one_line(tmp_path: Path) -> None:
    """No server: `recorder summary` of a file that is not there, and of a directory."""
    for path, words in ((tmp_path / "gone.jsonl", "no such file"), (tmp_path, "is a directory")):
        proc = subprocess.run([sys.executable, "-m", "recorder", "summary", str(path)], cwd=ROOT, capture_output=True,
                              text=True, timeout=30)
        assert proc.returncode == 2 and words in _one_line(proc)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_full_disk_stops_with_one_line_and_the_rerun_resumes(tmp_path: Path) -> None:
    """The stub plays the server (the disk is the fault); a real full disk: a 8 KiB tmpfs mounted here."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", str(mnt)], check=True)
    try:
        out = mnt / "rec.jsonl"
        with stub_server() as url:
            cfg = _config(tmp_path, url)
            full = _record(cfg, out, repeats=30)
            assert full.returncode == 2
            line = _one_line(full)
            assert "No space left on device" in line and "rerun the same command to resume" in line
            kept = fmt.load(out, repair=True).runs
            assert 0 < len(kept) < 30 and all(r.ok for r in kept)
            subprocess.run(["mount", "-o", "remount,size=1m", str(mnt)], check=True)
            again = _record(cfg, out, repeats=30)
        assert again.returncode == 0, again.stderr
        runs = fmt.load(out).runs
        assert [r.repeat for r in runs] == list(range(30))
        assert [r.started_wall for r in runs[:len(kept)]] == [r.started_wall for r in kept]  # the first ones kept
    finally:
        subprocess.run(["umount", str(mnt)], check=True)


# ----------------------------------------------------------------------------- faulty servers (stub)

def test_counters_going_backwards_store_no_spec_and_say_why(tmp_path: Path) -> None:
    """Stub: /metrics counters that drop between the snapshots, as a restarted server's do (restarting a real
    vLLM mid-run takes minutes here). No negative delta is stored; the file loads."""
    out = tmp_path / "rec.jsonl"
    with stub_server(restart_metrics=True) as url:
        proc = _record(_config(tmp_path, url, extra_arm=SPECULATIVE), out)
    assert proc.returncode == 0, proc.stderr
    assert "counters went backwards" in proc.stderr
    rec = fmt.load(out)
    assert len(rec.runs) == 2 and all(r.ok and r.spec is None for r in rec.runs)
    assert all("restarted" in line["spec_note"] for line in _raw_lines(out)[1:])


def test_models_answering_html_is_one_line(tmp_path: Path) -> None:
    """Stub: /v1/models answers an HTML page (a sign-in page in front of the server, or a wrong base URL)."""
    out = tmp_path / "rec.jsonl"
    with stub_server(models_html=True) as url:
        proc = _record(_config(tmp_path, url), out)
    assert proc.returncode == 2 and not out.exists()
    line = _one_line(proc)
    assert "text/html" in line and "not a JSON model list" in line and "without /v1" in line


def test_malformed_json_in_the_probe_is_one_line(tmp_path: Path) -> None:
    """Stub: the probe's stream carries a line that is not JSON (vLLM never sends one)."""
    out = tmp_path / "rec.jsonl"
    with stub_server(raw_line="{not json", in_probe=True) as url:
        proc = _record(_config(tmp_path, url), out)
    assert proc.returncode == 2 and not out.exists()
    assert "not OpenAI streaming JSON (not JSON" in _one_line(proc)


@pytest.mark.parametrize("raw, problem", [("null", "holds null, not a JSON object"),
                                          ('{"choices": "abc"}', "'choices' is a string"),
                                          ('{"choices": [], "usage": "lots"}', "'usage' is a string"),
                                          ('{"choices": [], "usage": {"completion_tokens": "5"}}',
                                           "usage.completion_tokens is '5', not a count")])
def test_chunks_of_the_wrong_shape_are_error_runs(tmp_path: Path, raw: str, problem: str) -> None:
    """Stub: valid JSON of the wrong shape in a recorded stream (vLLM's chunks are always well formed)."""
    out = tmp_path / "rec.jsonl"
    with stub_server(raw_line=raw) as url:
        proc = _record(_config(tmp_path, url), out)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "2 request(s) of this call failed" in proc.stderr
    runs = fmt.load(out).runs
    assert len(runs) == 2 and all(r.status == "error" and problem in r.error for r in runs)


def test_keepalive_comments_without_data_trip_the_total_timeout(tmp_path: Path) -> None:
    """Stub: a stream of SSE keep-alive comments and no data (a proxy or a stuck server); the per-read timeout
    never fires on it, the total one does."""
    out = tmp_path / "rec.jsonl"
    with stub_server(keepalive=True) as url:
        t0 = time.monotonic()
        proc = _record(_config(tmp_path, url), out, "--request-timeout", "30", "--request-total-timeout", "1.5")
        took = time.monotonic() - t0
    assert proc.returncode == 1 and took < 25
    runs = fmt.load(out).runs
    assert len(runs) == 2 and all(r.status == "error" for r in runs)
    assert "no finish within 1.5 s" in runs[0].error and "keep-alive lines" in runs[0].error


def test_an_error_body_echoing_the_key_does_not_store_it(tmp_path: Path) -> None:
    """Stub: an HTTP 401 body that echoes the Authorization header (vLLM does not echo it)."""
    out = tmp_path / "rec.jsonl"
    key = "sk-test-0123456789abcdef"
    with stub_server(echo_auth=True) as url:
        proc = _record(_config(tmp_path, url, extra_arm='api_key_env = "STUB_KEY"'), out, env={"STUB_KEY": key})
    assert proc.returncode == 1
    runs = fmt.load(out).runs
    assert all(r.status == "error" and "HTTP 401" in r.error and "Bearer ***" in r.error for r in runs)
    assert key not in out.read_text() and key not in proc.stderr + proc.stdout


def test_a_password_in_the_endpoint_is_never_printed_or_stored(tmp_path: Path) -> None:
    """Stub for the reachable case (it takes Basic auth like any server); nothing listens for the other."""
    dead = _record(_config(tmp_path, f"http://user:s3cret-pw@127.0.0.1:{free_port()}"), tmp_path / "a.jsonl")
    assert dead.returncode == 2 and "cannot reach" in _one_line(dead)
    assert "s3cret" not in dead.stderr + dead.stdout
    out = tmp_path / "b.jsonl"
    with stub_server(echo_auth=True) as url:
        proc = _record(_config(tmp_path, url.replace("//", "//user:s3cret-pw@")), out)
    assert proc.returncode == 1  # every POST after the probe is refused, echoing the Basic credentials
    assert "s3cret" not in out.read_text() + proc.stderr + proc.stdout
    assert "dXNlcjpzM2NyZXQtcHc" not in out.read_text()  # nor the Basic token the server echoed
    assert fmt.load(out).arm("stub").entry["endpoint"] == url  # the recording holds the URL without credentials


def test_fewer_tokens_than_the_forced_length_is_an_error_run(tmp_path: Path) -> None:
    """Stub: a server that accepts ignore_eos/min_tokens but stops early anyway (vLLM honours both)."""
    out = tmp_path / "rec.jsonl"
    with stub_server(short=5) as url:
        proc = _record(_config(tmp_path, url), out)
    assert proc.returncode == 1
    runs = fmt.load(out).runs
    assert all(r.status == "error" and r.tokens == 5 for r in runs)
    assert runs[0].error.startswith("short: 5 of the 12 forced tokens (finish_reason 'stop')")


def test_a_sweep_level_with_counters_going_backwards_stores_no_spec(tmp_path: Path) -> None:
    """Stub, as above, in sweep mode: the level line gets spec null and the reason; a resumed sweep with a
    different level list is refused with the file untouched."""
    out = tmp_path / "sweep.jsonl"
    sweep = [sys.executable, "-m", "recorder", "sweep", "-o", str(out), "--no-progress", "--host-busy-max", "1",
             "--idle-interval", "0.01", "--rounds", "1"]
    with stub_server(restart_metrics=True) as url:
        cfg = str(_config(tmp_path, url, extra_arm=SPECULATIVE))
        proc = subprocess.run([*sweep, cfg, "--levels", "1,2"], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        before = out.read_bytes()
        other = subprocess.run([*sweep, cfg, "--levels", "1,2", "--max-tokens", "8"], cwd=ROOT, capture_output=True,
                               text=True, timeout=60)
    assert other.returncode == 2 and "different max_tokens" in _one_line(other) and out.read_bytes() == before
    rec = fmt.load(out)
    assert [lv.concurrency for lv in rec.levels] == [1, 2] and all(lv.spec is None for lv in rec.levels)
    assert all("went backwards" in line["spec_note"] for line in _raw_lines(out) if line.get("type") == "level")
