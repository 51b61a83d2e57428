"""Measure this machine's memory bandwidth the way bench/roofline.py measures the H200's: a large array copy,
counting bytes read plus bytes written, fastest of the timed repeats (median beside it).

    nice python bench/memory_bandwidth.py --out assets/memory_bandwidth_cpu.json

Each of 1 … cores threads copies its own slice (numpy releases the GIL while copying), as llama.cpp's decode reads
its weights on every core; the fastest thread count is the figure (on a shared machine fewer threads can win). Arrays are 8× the last-level cache or more, so the copy runs from memory, not cache. The
figure is the physics ceiling's denominator for this CPU's arms (specreplay/explain/ceiling.py); a busy machine gives a
lower figure, so the load average at the start is written beside it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import platform
import statistics
import threading
import time
from pathlib import Path

import numpy as np

TOTAL_BYTES = 1 << 30  # source array: 1 GiB split over the threads
REPEATS = 12


def cpu_name() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def timed_copy(src: list[np.ndarray], dst: list[np.ndarray]) -> float:
    """Seconds for every thread to copy its slice once, all started together."""
    start = threading.Barrier(len(src) + 1)
    threads = [threading.Thread(target=lambda s=s, d=d: (start.wait(), np.copyto(d, s))) for s, d in zip(src, dst)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - t0


def measure(threads: int, total_bytes: int, repeats: int) -> dict:
    n = total_bytes // 8 // threads
    src = [np.random.default_rng(i).random(n) for i in range(threads)]
    dst = [np.empty_like(s) for s in src]
    timed_copy(src, dst)  # warm-up: touches every page of the destination
    seconds = [timed_copy(src, dst) for _ in range(repeats)]
    moved = 2 * n * 8 * threads  # read + written
    return {"copy_bandwidth_bytes_per_s": moved / min(seconds),
            "copy_bandwidth_median_bytes_per_s": moved / statistics.median(seconds),
            "copy_bytes": n * 8 * threads, "threads": threads, "repeats": repeats,
            "note": "fastest of the timed repeats (median beside it); bandwidth counts bytes read plus bytes written"}


def fastest(cores: int, total_bytes: int, repeats: int) -> dict:
    """measure() at every thread count up to `cores`, the fastest kept, each count's figure beside it."""
    runs = [measure(t, total_bytes, repeats) for t in range(1, cores + 1)]
    best = max(runs, key=lambda r: r["copy_bandwidth_bytes_per_s"])
    return {**best, "by_threads": {r["threads"]: r["copy_bandwidth_bytes_per_s"] for r in runs}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="write the JSON here (default: print it)")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1, help="try 1 … this many threads")
    parser.add_argument("--bytes", type=int, default=TOTAL_BYTES)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    args = parser.parse_args()
    load = os.getloadavg()
    result = {"provenance": {"date_utc": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                             "command": "python bench/memory_bandwidth.py", "cpu": cpu_name(),
                             "cores": os.cpu_count(), "load_avg_at_start": [round(x, 2) for x in load],
                             "python": platform.python_version(), "numpy": np.__version__,
                             "script_sha256": hashlib.sha256(Path(__file__).read_bytes()).hexdigest()},
              "ceilings": fastest(args.cores, args.bytes, args.repeats)}
    text = json.dumps(result, indent=1) + "\n"
    if args.out:
        args.out.write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
