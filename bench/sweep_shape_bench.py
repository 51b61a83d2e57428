"""CPU seconds a sweep-shaped upload costs the server: the hold-out files of issue #33 and the largest files the caps
allow under the upload limit.

Not a test: run it by hand, copy the figures into docs/robustness.md.

    .venv/bin/python bench/sweep_shape_bench.py

For each file: CPU seconds of this process (time.process_time: the work, which a busy machine stretches far less
than wall time; the least of three tries) to load it as an upload, then to do what the replay page (level keys, the default levels' panes) and the
concurrency page's Pareto map (level table, points, fronts, the paired rows) compute from it. Prints one JSON
object.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from specreplay.explain import pareto
from specreplay.explain.sweeps import pair_rows
from specreplay.recording.format import MAX_LEVELS, MAX_MIXES, RecordingError
from specreplay.replay.levels import default_keys, has_levels, level_keys, level_pane
from specreplay.replay.source import MAX_UPLOAD_BYTES, load_upload

REPEATS = 3  # the least of three: on a shared machine other work inflates CPU time too (caches, hyperthreads)
EVENTS = [{"t": round(0.05 + k * 0.01, 6), "n": 1, "text": "a"} for k in range(8)]


def sweep(levels: int, mixes: int, streams: int, limit: int = MAX_UPLOAD_BYTES - 2**20) -> bytes:
    """Two arms (a drafter against its baseline), `levels` levels × `mixes` mixes, `streams` runs per level, cut
    at whole levels before `limit` bytes."""
    arms = [{"id": "base", "label": "base", "model": "m", "engine": {"name": "vllm"}, "flags": {}},
            {"id": "spec", "label": "spec", "model": "m", "engine": {"name": "vllm"}, "baseline": "base",
             "flags": {"speculative_config": {"method": "ngram"}}}]
    header = {"type": "header", "format": "specreplay-recording", "version": 1, "title": "hostile sweep",
              "created": "2026-12-02", "machine": {}, "arms": arms,
              "prompts": [{"id": "p", "kind": "chat", "text": "hi", "sampling": {"temperature": 0}}]}
    out = [json.dumps(header)]
    size, t = len(out[0]), 0.0
    for arm in ("base", "spec"):
        for m in range(mixes):
            for c in range(1, levels + 1):
                mix = {"mix": f"m{m}"} if mixes > 1 else {}
                block = [json.dumps({"type": "run", "arm": arm, "prompt": "p", "repeat": 0, "warmup": False,
                                     "concurrency": c, "stream": s, "started_wall": "x", "started_mono": t,
                                     "events": EVENTS, "ttft": 0.05, "status": "ok", **mix}) for s in range(streams)]
                block.append(json.dumps({"type": "level", "arm": arm, "concurrency": c, "started_mono": t,
                                         "ended_mono": t + 1, **mix}))
                size += sum(len(x) + 1 for x in block)
                if size > limit:
                    return ("\n".join(out) + "\n").encode()
                out += block
                t += 1
    return ("\n".join(out) + "\n").encode()


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    started = time.process_time()
    got = fn()
    return time.process_time() - started, got


def pages(rec: Any) -> None:
    """What the replay page (by level) and the Pareto map compute from one upload."""
    has_levels(rec)
    keys = level_keys(rec)
    for key in default_keys(rec):
        level_pane(rec, key)
    assert keys
    for pts in pareto.points(rec).values():
        pareto.front(pts)
    pair_rows(rec)


def main() -> None:
    cases = {
        "audit: 8,000 mixes": sweep(1, 8000, 1, limit=2**40),
        "audit: 8,000 levels": sweep(8000, 1, 1, limit=2**40),
        f"{MAX_LEVELS} levels, streams to the upload limit": sweep(MAX_LEVELS, 1, 100),
        f"{MAX_MIXES} mixes x 4 levels, to the upload limit": sweep(4, MAX_MIXES, 25),
        "16 levels x 16 mixes, to the upload limit": sweep(16, 16, 100),
    }
    rows = []
    for name, data in cases.items():
        runs = []
        for _ in range(REPEATS):  # each from a fresh load: the level table is kept with a parsed recording
            load_s, rec = cpu(lambda data=data: _load(data))
            runs.append((load_s, cpu(lambda rec=rec: pages(rec))[0] if not isinstance(rec, str) else 0.0))
        load_s, page_s = min(r[0] for r in runs), min(r[1] for r in runs)
        rows.append({"file": name, "mib": round(len(data) / 2**20, 2), "load_cpu_s": round(load_s, 2),
                     "pages_cpu_s": round(page_s, 2), "total_cpu_s": round(load_s + page_s, 2),
                     "refused": rec if isinstance(rec, str) else None})
    print(json.dumps(rows, indent=1, ensure_ascii=False))


def _load(data: bytes) -> Any:
    try:
        return load_upload("sweep.jsonl", data)
    except RecordingError as exc:
        return str(exc)


if __name__ == "__main__":
    main()
