"""Sweep configs without an engine: prompt mixes and the mix rule, launch blocks, host load, mix-aware tables.

The real-engine side (launching vLLM, the batching bug itself) is in tests/engine/test_launch_vllm.py.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from recorder import config, host_load, sweep
from recorder.errors import RecorderError
from recorder.sweep_summary import render
from specreplay.explain.sweeps import level_table, pair_rows, paired_speedups
from specreplay.recording import format as fmt
from tests.browser_fixtures import ROOT

ARMS = '''
[[arms]]
id = "baseline"
endpoint = "http://127.0.0.1:9"
model = "m"

[[arms]]
id = "ngram"
endpoint = "http://127.0.0.1:9"
model = "m"
baseline = "baseline"
flags = { speculative_config = { method = "ngram", num_speculative_tokens = 4 } }
'''
PROMPTS = '''
[[prompts]]
id = "copy"
kind = "copy-quote"
text = "repeat"

[[prompts]]
id = "code"
kind = "code"
text = "code"
sampling = { temperature = 0 }

[[prompts]]
id = "story"
kind = "long-prose"
text = "story"
sampling = { temperature = 0.8, seed = 7 }
'''


def _write(tmp_path: Path, body: str, name: str = "c.toml") -> Path:
    p = tmp_path / name
    p.write_text(body)
    return p


def _sweep_cli(cfg: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "recorder", "sweep", str(cfg), "-o", str(tmp_path / "o.jsonl"),
                           "--no-progress"], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_mixes_are_read_in_order_and_no_mixes_means_one_mix_of_all_prompts(tmp_path: Path) -> None:
    cfg = config.load(_write(tmp_path, ARMS + PROMPTS + '''
[[mixes]]
id = "greedy"
prompts = ["copy", "code"]
[[mixes]]
id = "sampled"
prompts = ["story"]
'''))
    assert [(m.id, [q.id for q in m.prompts]) for m in cfg.mixes] == [("greedy", ["copy", "code"]), ("sampled", ["story"])]
    assert config.check_mixes(cfg)[1] == []
    old = config.load(_write(tmp_path, ARMS + PROMPTS, "old.toml"))
    assert [(m.id, [q.id for q in m.prompts]) for m in old.mixes] == [(None, ["copy", "code", "story"])]
    # An absent temperature is greedy, as the server's default for these requests is not used.
    assert [q.greedy for q in old.prompts] == [True, True, False]


def test_a_mix_naming_an_unknown_prompt_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(RecorderError, match=r"^c.toml: mixes\[0\].prompts: 'cpy' is not a prompt id \(prompts: copy, code, story\)$"):
        config.load(_write(tmp_path, ARMS + PROMPTS + '[[mixes]]\nid = "g"\nprompts = ["cpy"]\n'))


def test_greedy_batched_with_sampled_on_a_speculative_arm_is_refused_with_one_line(tmp_path: Path) -> None:
    cfg = _write(tmp_path, ARMS + PROMPTS + '[[mixes]]\nid = "both"\nprompts = ["copy", "story"]\n')
    proc = _sweep_cli(cfg, tmp_path)
    assert proc.returncode == 2 and not (tmp_path / "o.jsonl").exists()
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("recorder: c.toml: mixes: mixes[0] 'both' batches greedy (copy) with sampled (story) "
                               "prompts on speculative arm ngram — vLLM CPU 0.32.0 returns wrong greedy text")
    assert "allow_mixed_sampling = true" in lines[0]
    # Cells mode sends one request at a time: nothing is batched, so the same config records.
    assert config.load(cfg).mixes[0].id == "both"


def test_the_implicit_mix_of_an_old_config_is_refused_too_and_a_baseline_only_sweep_is_not(tmp_path: Path) -> None:
    with pytest.raises(RecorderError, match=r"the prompt mix \(no \[\[mixes\]\]: all prompts\) batches greedy \(copy, code\)"):
        config.check_mixes(config.load(_write(tmp_path, ARMS + PROMPTS)))
    base_only = ARMS.split("[[arms]]")[1]
    cfg, warnings = config.check_mixes(config.load(_write(tmp_path, "[[arms]]" + base_only + PROMPTS, "b.toml")))
    assert warnings == [] and not cfg.mixes[0].mixed_sampling


def test_allow_mixed_sampling_warns_and_marks_the_mix(tmp_path: Path) -> None:
    cfg = config.load(_write(tmp_path, '[record]\nallow_mixed_sampling = true\n' + ARMS + PROMPTS))
    cfg, warnings = config.check_mixes(cfg)
    assert cfg.mixes[0].mixed_sampling
    assert len(warnings) == 1 and "recording it anyway (allow_mixed_sampling)" in warnings[0]


def test_launch_block_expands_environment_variables(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SR_TEST_PY", "/opt/engine/bin/python")
    monkeypatch.delenv("SR_TEST_UNSET", raising=False)
    cfg = config.load(_write(tmp_path, ARMS.replace('model = "m"\n', '''model = "m"
[arms.launch]
command = ["${SR_TEST_PY}", "-m", "server", "--lib", "${SR_TEST_UNSET:-/usr/lib}/x.so"]
env = { A = "${SR_TEST_PY}", B = "2" }
stop_signal = "SIGINT"
start_timeout_s = 30
''', 1) + PROMPTS))
    launch = cfg.arms[0].launch
    assert launch is not None and cfg.arms[1].launch is None
    assert launch.command == ("/opt/engine/bin/python", "-m", "server", "--lib", "/usr/lib/x.so")
    assert launch.env == {"A": "/opt/engine/bin/python", "B": "2"}
    assert launch.health_url == "http://127.0.0.1:9/health"  # default: endpoint + /health
    assert (launch.stop_signal, launch.start_timeout_s) == ("SIGINT", 30.0)


@pytest.mark.parametrize("block, message", [
    ('command = ["${SR_TEST_UNSET}/python"]', "arms[0].launch.command[0]: environment variable SR_TEST_UNSET is not set"),
    ('command = []', "arms[0].launch.command: expected a non-empty list of strings"),
    ('command = ["x"]\nenv = { N = 2 }', "arms[0].launch.env.N: expected a string, got int"),
    ('command = ["x"]\nstop_signal = "SIGNOPE"', "arms[0].launch.stop_signal: 'SIGNOPE' is not a signal that stops a server: use one of SIGTERM, SIGINT, "
     "SIGQUIT, SIGHUP, SIGKILL"),
    # the recording format's check (specreplay/fields.py): a boolean is not a number of seconds
    ('command = ["x"]\nstart_timeout_s = true', "arms[0].launch.start_timeout_s: expected integer or number, got a boolean"),
])
def test_bad_launch_block_is_one_clear_line(tmp_path: Path, monkeypatch, block: str, message: str) -> None:
    monkeypatch.delenv("SR_TEST_UNSET", raising=False)
    body = ARMS.replace('model = "m"\n', 'model = "m"\n[arms.launch]\n' + block + "\n", 1) + PROMPTS
    with pytest.raises(RecorderError, match=r"^c.toml: " + message.replace("[", r"\[").replace("]", r"\]")
                       .replace("(", r"\(").replace(")", r"\)")):
        config.load(_write(tmp_path, body))


def test_proc_stat_busy_share() -> None:
    a = host_load.cpu_times("cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3 4\n")
    b = host_load.cpu_times("cpu  200 0 100 900 50 0 0 0 0 0\n")
    assert a == (150, 1000) and b == (300, 1250)
    assert host_load.busy_share(a, b) == pytest.approx(150 / 250)  # idle and iowait are not busy


def test_host_wait_sees_a_busy_core_and_waits_then_stops_with_one_line() -> None:
    """A process spinning on one core makes the host at least 1/cores busy; the wait says so, then gives up."""
    import asyncio
    import os

    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        notes: list[str] = []
        rule = config.HostIdle(busy_max=0.8 / os.cpu_count(), max_wait_s=1.5, on_timeout="stop")
        with pytest.raises(RecorderError, match=r"^the machine stayed \d+% busy for \d s \(ceiling \d+%, /proc/stat\)"):
            asyncio.run(host_load.wait_quiet(rule, 0.3, notes.append))
        assert notes and notes[0].startswith("recorder: host CPU ") and "waiting for a quiet machine" in notes[0]
        proceed = config.HostIdle(busy_max=0.8 / os.cpu_count(), max_wait_s=0.5, on_timeout="proceed")
        share = asyncio.run(host_load.wait_quiet(proceed, 0.3, notes.append))
        assert share is not None and share > 0.8 / os.cpu_count()
        assert "recording anyway" in notes[-1]
    finally:
        burner.kill()
        burner.wait()


# ------------------------------------------------------------- mix-aware tables from a made-up sweep file

def _sweep_file(path: Path) -> fmt.Recording:
    """Two mixes x two arms x levels 1 and 2; the ngram arm's greedy text differs at level 2 of the greedy mix."""
    fmt.create(path, {
        "title": "t", "created": "2026-12-01T00:00:00+00:00", "machine": {"cpu": "c", "cores": 2},
        "arms": [{"id": "baseline", "label": "b", "model": "m", "engine": {"name": "vllm", "version": "x"}, "flags": {}},
                 {"id": "ngram", "label": "n", "model": "m", "engine": {"name": "vllm", "version": "x"},
                  "flags": {"speculative_config": {"method": "ngram"}}, "baseline": "baseline"}],
        "prompts": [{"id": "copy", "kind": "copy-quote", "text": "r", "sampling": {"temperature": 0}},
                    {"id": "story", "kind": "long-prose", "text": "s", "sampling": {"temperature": 0.8}}],
        "recorder": {"mode": "sweep", "mixes": [{"id": "greedy", "prompts": ["copy"]}, {"id": "sampled", "prompts": ["story"]}]},
    })
    rate = {("baseline", 1): 10.0, ("baseline", 2): 8.0, ("ngram", 1): 30.0, ("ngram", 2): 4.0}
    for arm in ("baseline", "ngram"):
        for mix, prompt in (("greedy", "copy"), ("sampled", "story")):
            for c in (1, 2):
                t0 = 100.0 * c
                for s in range(c):
                    text = "y" if (arm, mix, c) == ("ngram", "greedy", 2) else "x"
                    events = [fmt.event_dict(i / rate[(arm, c)], 1, text, None) for i in range(10)]
                    fmt.append(path, {"type": "run", "arm": arm, "prompt": prompt, "repeat": 0, "warmup": False,
                                      "concurrency": c, "stream": s, "started_wall": "w", "started_mono": t0,
                                      "events": events, "ttft": 0.0, "usage": None, "finish_reason": "length",
                                      "spec": None, "request_metrics": None, "status": "ok", "error": None,
                                      "mix": mix})
                fmt.append(path, {"type": "level", "arm": arm, "concurrency": c, "started_mono": t0,
                                  "ended_mono": t0 + 1, "mix": mix, "host_busy": 0.04,
                                  **({"text_check": "differs" if c == 2 and mix == "greedy" else
                                      "equal" if mix == "greedy" else "not checkable (sampled)"}
                                     if arm == "ngram" else {})})
    return fmt.load(path)


def test_level_lines_keep_mix_host_busy_and_text_check(tmp_path: Path) -> None:
    rec = _sweep_file(tmp_path / "s.jsonl")
    ngram = [(lv.mix, lv.concurrency, lv.text_check, lv.host_busy) for lv in rec.levels if lv.arm == "ngram"]
    assert ngram == [("greedy", 1, "equal", 0.04), ("greedy", 2, "differs", 0.04),
                     ("sampled", 1, "not checkable (sampled)", 0.04), ("sampled", 2, "not checkable (sampled)", 0.04)]


def test_tables_are_per_mix_and_pair_within_a_mix(tmp_path: Path) -> None:
    rec = _sweep_file(tmp_path / "s.jsonl")
    table = {(s.arm, s.mix, s.concurrency): s for s in level_table(rec)}
    assert len(table) == 8 and table[("ngram", "greedy", 2)].requests == 2
    assert (table[("ngram", "greedy", 2)].greedy_runs, table[("ngram", "greedy", 2)].greedy_matches) == (2, 0)
    rows = {(r.speedup.mix, r.speedup.concurrency): r for r in pair_rows(rec)}
    assert not rows[("greedy", 2)].like_for_like and rows[("greedy", 1)].like_for_like
    assert (table[("ngram", "sampled", 1)].greedy_runs, table[("ngram", "sampled", 1)].sampled_runs) == (0, 1)
    pairs = {(p.mix, p.concurrency): p for p in paired_speedups(rec)}
    assert pairs[("greedy", 1)].decode == pytest.approx(3.0) and pairs[("sampled", 2)].decode == pytest.approx(0.5)
    text = render(rec)
    assert "text not checkable (sampled)" in text and "0/2" in text and " 4%" in text


def test_text_check_compares_greedy_runs_with_the_baselines_single_stream_text(tmp_path: Path) -> None:
    rec = _sweep_file(tmp_path / "s.jsonl")
    cfg_arm = config.Arm(id="ngram", label="n", endpoint="http://x", model="m", flags={}, baseline="baseline")
    copy = config.Prompt(id="copy", kind="copy-quote", text="r", sampling={"temperature": 0})
    story = config.Prompt(id="story", kind="long-prose", text="s", sampling={"temperature": 0.8})

    def run(prompt: str, text: str, warmup: bool = False) -> dict:
        return {"type": "run", "prompt": prompt, "warmup": warmup, "status": "ok", "events": [{"text": text}]}

    greedy = config.Mix("greedy", (copy,))
    assert sweep.text_check(rec, cfg_arm, greedy, [run("copy", "x" * 10), run("copy", "x" * 10)]) == "equal"
    assert sweep.text_check(rec, cfg_arm, greedy, [run("copy", "x" * 10), run("copy", "xy")]) == "differs"
    assert sweep.text_check(rec, cfg_arm, greedy, [run("copy", "zz", warmup=True), run("copy", "x" * 10)]) == "equal"
    assert sweep.text_check(rec, cfg_arm, config.Mix("s", (story,)), [run("story", "q")]) == "not checkable (sampled)"


def test_a_speculative_arm_may_keep_its_own_single_stream_text_but_not_be_changed_by_batching_more(tmp_path) -> None:
    """The like-for-like rule on GPU-like data: own single-stream text is fine; batch changes only up to the
    baseline's share."""
    from specreplay.explain.sweeps import LevelStats, like_for_like

    def stats(runs: int, matches: int, own: int) -> LevelStats:
        return LevelStats("a", 32, runs, 0, None, None, None, None, None, None, None, None, runs, matches,
                          greedy_own=own)

    assert like_for_like(stats(16, 8, 8), stats(16, 16, 0))  # half keep the arm's own text: bf16 verify rounding
    assert like_for_like(stats(64, 56, 0), stats(64, 53, 0))  # 8 changed by batching vs the baseline's 11
    assert not like_for_like(stats(64, 50, 0), stats(64, 60, 0))  # 14 vs 4: batching hurt the speculative arm
    assert not like_for_like(stats(2, 0, 0), stats(2, 2, 0))  # vLLM CPU's greedy+sampled batches


def test_more_streams_than_the_servers_slots_are_refused(tmp_path: Path) -> None:
    """llama-server says how many requests it serves at once (/props total_slots); 4 streams against one slot
    used to be stored as 4-stream data. The real server: tests/engine/test_recorder_llamacpp.py."""
    cfg = tmp_path / "c.toml"
    cfg.write_text(ARMS + PROMPTS)
    arm = config.load(cfg).arms[0]
    sweep.check_slots(arm, {"total_slots": 4}, 4)
    sweep.check_slots(arm, {}, 64)  # a server that does not say (vLLM): nothing to check against
    with pytest.raises(RecorderError, match=r"^arm baseline: the server reports 1 slot \(/props total_slots\), but "
                                            r"level 4 sends 4 streams at once: they would queue and be stored as "
                                            r"4-stream data — start it with --parallel 4 or more"):
        sweep.check_slots(arm, {"total_slots": 1}, 4)


OPEN_FILES = """
import resource, sys
from recorder import sweep
from recorder.errors import RecorderError
resource.setrlimit(resource.RLIMIT_NOFILE, (256, int(sys.argv[1])))
try:
    sweep.check_open_files(1000)
except RecorderError as exc:
    print(exc)
print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])
"""


@pytest.mark.parametrize(("hard", "said"), [
    (4096, "1064"),  # raised as far as needed: the streams and the recorder's own files
    (512, "level 1000 keeps 1000 streams open at once, but this process may open only 512 files (ulimit -n; hard "
          "limit 512) — raise the limit to 1064 or more (ulimit -n 1064), or leave out the levels above 448\n512"),
])
def test_a_level_needs_as_many_open_files_as_streams(hard: int, said: str) -> None:
    """A 1,000-stream sweep under `ulimit -n 256` failed 359 of 2,002 requests without a word about the limit. Run
    in a process of its own: it sets its own limits."""
    proc = subprocess.run([sys.executable, "-c", OPEN_FILES, str(hard)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert proc.stdout.strip() == said, proc.stderr
