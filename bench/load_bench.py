"""Loading recordings and holding uploads: time against file size and arms, server memory against concurrent uploads.

Not a test: run it by hand, copy the figures into docs/robustness.md.

    .venv/bin/python bench/load_bench.py [--tree PATH] [--uploads 1,2,4,8] [--skip-memory]

- load: `specreplay.recording.format.loads` on synthetic recordings made of the bundled sweep's lines, 1–16 MiB, and on
  files of the same runs spread over 4–256 arms (a recording holds at most 256): seconds and MiB/s.
- click: the replay page's per-click look-ups (prompts with runs, arms that ran the prompt, their labels, the
  chosen panes) against the number of arms.
- memory: N visitors each upload the same ~18 MiB recording to the replay page (AppTest sessions of the real page
  in one process, as one server holds them); the process's resident memory before, with the N sessions open,
  after the sessions are gone, and after the uploads' idle time has passed. Each N runs in a fresh process.

`--tree PATH` measures another checkout (e.g. one of main before this change) with the same script.
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = "smollm2-h200-sweep-sampled.jsonl"  # the bundled recording with the most chunks per MiB


def link_tree(tree: Path, into: Path) -> Path:
    """The tree laid out as the installed package (as `make typecheck` does): specreplay/ with recorder, assets and
    recordings beside its modules, so `import specreplay…` reads that tree and nothing else."""
    pkg = into / "specreplay"
    pkg.mkdir(parents=True)
    for item in (tree / "specreplay").iterdir():
        (pkg / item.name).symlink_to(item)
    for name in ("recorder", "assets", "recordings"):
        (pkg / name).symlink_to(tree / name)
    return into


def synthetic(tree: Path, mib: float, arms: int | None = None) -> str:
    """A recording of about `mib` MiB: the bundled sweep's run lines repeated; with `arms`, spread over that many
    arms (copies of the sweep's arms, renamed)."""
    head, *rest = (tree / "recordings" / SOURCE).read_text().splitlines()
    header = json.loads(head)
    runs = [json.loads(x) for x in rest if '"type":"run"' in x]
    if arms:
        header["arms"] = [{**header["arms"][i % 2], "id": f"arm-{i}", "baseline": None} for i in range(arms)]
        for a in header["arms"]:
            del a["baseline"]
    lines, size, i = [json.dumps(header)], 0, 0
    while size < mib * 2**20:
        run = dict(runs[i % len(runs)])
        if arms:
            run["arm"] = f"arm-{i % arms}"
        line = json.dumps(run, separators=(",", ":"))
        lines.append(line)
        size += len(line) + 1
        i += 1
    return "\n".join(lines) + "\n"


def many_arms(tree: Path, arms: int) -> str:
    """A file as small as a recording with `arms` arms can be: minimal arm entries, one short run line each."""
    header = json.loads((tree / "recordings" / SOURCE).read_text().split("\n", 1)[0])
    header["arms"] = [{"id": f"a{i}", "label": "a", "model": "m", "engine": {}, "flags": {}} for i in range(arms)]
    run = {"type": "run", "prompt": header["prompts"][0]["id"], "repeat": 0, "warmup": False, "concurrency": 1,
           "stream": 0, "started_wall": "x", "started_mono": 0, "events": [{"t": 0.1, "n": 1, "text": "a"}],
           "status": "ok"}
    return "\n".join([json.dumps(header)] + [json.dumps({**run, "arm": f"a{i}"}) for i in range(arms)]) + "\n"


def timed(fn, *args, repeat: int = 3) -> float:
    """The best of `repeat` runs of fn(*args), seconds."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - started)
    return best


def load_figures(tree: Path, hostile_arms: int) -> dict:
    from specreplay.recording.format import loads

    by_size = []
    for mib in (1, 2, 4, 8, 16):
        text = synthetic(tree, mib)
        s = timed(loads, text, "r.jsonl", repeat=2)
        by_size.append({"mib": round(len(text) / 2**20, 1), "s": round(s, 3),
                        "mib_per_s": round(len(text) / 2**20 / s, 1)})
    by_arms = []
    for arms in (4, 64, 256):
        text = synthetic(tree, 4, arms)
        by_arms.append({"arms": arms, "mib": round(len(text) / 2**20, 1),
                        "s": round(timed(loads, text, "r.jsonl", repeat=2), 3)})
    # the hostile file: 32,000 small arms and a run line each, 7–8 MB (a recording now holds at most 256)
    text = many_arms(tree, hostile_arms)
    started = time.perf_counter()
    try:
        loads(text, "r.jsonl")
        outcome = "loaded"
    except ValueError as exc:
        outcome = str(exc)[:120]
    hostile = {"arms": hostile_arms, "mib": round(len(text) / 2**20, 1), "s": round(time.perf_counter() - started, 3),
               "outcome": outcome}
    return {"by_size": by_size, "by_arms": by_arms, "hostile_arms": hostile}


def click_figures(tree: Path) -> list[dict]:
    """The look-ups specreplay/views/replay.py makes on every rerun, for one prompt, 4 chosen arms."""
    from specreplay.recording.format import loads

    out = []
    for arms in (4, 64, 256):
        rec = loads(synthetic(tree, 4, arms), "r.jsonl")
        out.append({"arms": arms, "runs": len(rec.runs), "ms": round(timed(_click, rec, repeat=5) * 1000, 1)})
    return out


def _click(rec) -> None:  # type: ignore[no-untyped-def]
    from specreplay.replay.arms import prompts_with_runs
    from specreplay.replay.panes import recorded_arm_pane

    prompt = prompts_with_runs(rec)[0]
    recorded = [a.id for a in rec.arms if rec.select(a.id, prompt)]
    {a: rec.arm(a).label for a in recorded}
    [rec.prompt(p.id) for p in rec.prompts]
    [recorded_arm_pane(rec, a, prompt) for a in recorded[:4]]


MEMORY = """
import gc, json, os, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[5])
os.environ["SPECREPLAY_RECORDINGS"] = sys.argv[4]
from streamlit.testing.v1 import AppTest
def rss():
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
data, n = Path(sys.argv[2]).read_bytes(), int(sys.argv[3])
def visit():
    at = AppTest.from_file(sys.argv[1] + "/app.py", default_timeout=300)
    at.query_params["lang"] = "en"
    at.run()
    at.switch_page("specreplay/views/replay.py")
    at.run()
    return at
warm = visit()  # the page's own imports and caches, before any upload
del warm; gc.collect()
base = rss()
sessions = []
for i in range(n):
    at = visit()
    at.radio(key="replay_source").set_value("upload").run()
    at.file_uploader[0].set_value(("mine.jsonl", data, "application/octet-stream")).run()
    assert not at.exception and not at.error, (at.exception, at.error)
    sessions.append(at)
held = rss()
sessions.clear(); gc.collect()
closed = rss()
try:
    from specreplay.replay import uploads
    uploads.drop_idle(time.monotonic() + uploads.IDLE_S + 1)
    idle = rss()
except ImportError:  # a tree without the upload cache
    idle = None
print(json.dumps({"uploads": n, "base_mib": round(base), "held_mib": round(held), "closed_mib": round(closed),
                  "idle_mib": None if idle is None else round(idle)}))
"""


DIRECT = """
import ctypes, gc, json, os, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from specreplay.replay import source
def rss():
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
data, n = Path(sys.argv[2]).read_bytes(), int(sys.argv[3])
base = rss()
try:
    from specreplay.replay import uploads
    held = [uploads.parsed(f"upload-{i}", "mine.jsonl", lambda: data) for i in range(n)]
    peak = rss()
    held.clear()
    uploads.drop_idle(time.monotonic() + uploads.IDLE_S + 1)
except ImportError:  # a tree without the cache: each session held its own parse
    held = [source.load_upload("mine.jsonl", data) for _ in range(n)]
    peak = rss()
    held.clear()
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)  # the most a server could hand back
print(json.dumps({"uploads": n, "base_mib": round(base), "held_mib": round(peak), "released_mib": round(rss())}))
"""


def direct_figures(tree: Path, packages: Path, counts: list[int]) -> list[dict]:
    """Without Streamlit: N uploads parsed as the page parses them, held, then released (the cache's idle drop, or
    for a tree without it the sessions' parses dropped, collected and trimmed)."""
    with tempfile.TemporaryDirectory() as tmp:
        upload = Path(tmp) / "upload.jsonl"
        upload.write_text(synthetic(tree, 18))
        out = []
        for n in counts:
            proc = subprocess.run([sys.executable, "-c", DIRECT, str(packages), str(upload), str(n)],
                                  capture_output=True, text=True, timeout=900, cwd=tree)
            if proc.returncode != 0:
                raise SystemExit(proc.stderr[-3000:])
            out.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return out


def memory_figures(tree: Path, packages: Path, counts: list[int]) -> list[dict]:
    with tempfile.TemporaryDirectory() as tmp:
        upload = Path(tmp) / "upload.jsonl"
        upload.write_text(synthetic(tree, 18))
        folder = Path(tmp) / "recordings"
        folder.mkdir()
        (folder / "small.jsonl").write_bytes((tree / "recordings" / "smollm2-vllm-cpu.jsonl").read_bytes())
        out = []
        for n in counts:
            proc = subprocess.run([sys.executable, "-c", MEMORY, str(tree), str(upload), str(n), str(folder),
                                   str(packages)],
                                  capture_output=True, text=True, timeout=1800, cwd=tree)
            if proc.returncode != 0:
                raise SystemExit(proc.stderr[-3000:])
            out.append({**json.loads(proc.stdout.strip().splitlines()[-1]),
                        "upload_mib": round(upload.stat().st_size / 2**20, 1)})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    ap.add_argument("--uploads", default="1,2,4,8", help="concurrent uploads to measure memory at")
    ap.add_argument("--skip-memory", action="store_true")
    ap.add_argument("--only-memory", action="store_true")
    ap.add_argument("--direct", help="concurrent uploads (e.g. 1,4) parsed without Streamlit: memory held and "
                    "handed back; light enough to run beside other work")
    ap.add_argument("--hostile-arms", type=int, default=32_000,
                    help="arms in the hostile file (the issue's 32,000 took 64 s before the loader was linear)")
    args = ap.parse_args()
    packages = link_tree(args.tree.resolve(), Path(tempfile.mkdtemp(prefix="specreplay-bench-")))
    sys.path.insert(0, str(packages))
    result: dict = {"tree": str(args.tree), "python": platform.python_version(), "cores": os.cpu_count(),
                    "load_avg": os.getloadavg()[0], "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    if not args.only_memory:
        result |= {"load": load_figures(args.tree, args.hostile_arms), "click": click_figures(args.tree)}
    gc.collect()
    if args.direct:
        result["direct"] = direct_figures(args.tree, packages, [int(x) for x in args.direct.split(",")])
    if not args.skip_memory:
        result["memory"] = memory_figures(args.tree, packages, [int(x) for x in args.uploads.split(",")])
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
