"""Video export speed: a 2-arm replay rendered to 720p30 MP4, how many times faster than real time,
and whether render time grows linearly with the number of frames. Also checks the bytes repeat.

    .venv/bin/python bench/video_bench.py            # the 30 s case plus 10/20 s for linearity
    .venv/bin/python bench/video_bench.py --gif      # GIF at 10 fps as well

The replay is made up (two arms streaming mixed Korean/English words; the fast one in bursts of
several tokens), sized like the article's: it is a rendering workload, not a measurement of a model.
Not a test: timings depend on the machine, so they are printed (and copied into docs/video.md), not asserted.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from specreplay.recording.format import Event  # noqa: E402
from specreplay.replay.panes import Pane  # noqa: E402
from specreplay.replay.timeline import make_track  # noqa: E402
from specreplay.video.draw import FrameDrawer  # noqa: E402
from specreplay.video.plan import PRESETS, frame_times  # noqa: E402
from specreplay.video.render import render  # noqa: E402
from specreplay.video.yuv import Yuv420  # noqa: E402

WORDS = ("토큰이 ", "도착한 ", "시각을 ", "그대로 ", "다시 ", "그립니다. ", "The ", "draft ", "model ", "proposes ",
         "several ", "tokens, ", "and ", "the ", "target ", "verifies ", "them ", "in ", "one ", "pass.\n")


def arm(label: str, seconds: float, tok_s: float, burst: int) -> Pane:
    """Chunks of `burst` tokens at a steady pace so the arm ends at `seconds` (first token at 0.3 s)."""
    events, t, i = [], 300_000, 0
    while t <= seconds * 1_000_000:
        n = burst if i % 3 else 1
        events.append(Event(round(t), n, "".join(WORDS[(i + j) % len(WORDS)] for j in range(n))))
        t += n / tok_s * 1_000_000
        i += 1
    return Pane(label, label, "made-up replay · bench", "simulated", make_track(events))


def panes(seconds: float) -> list[Pane]:
    return [arm("4-bit + 스펙 디코딩", seconds / 3, 90.0, 3), arm("BF16 기준", seconds, 30.0, 1)]


def timed(ps: list[Pane], out: Path, fmt: str, fps: int) -> tuple[float, float, float]:
    """(wall s, this process's CPU s, ffmpeg's CPU s)."""
    c0, r0, w0 = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    render(ps, out, fmt=fmt, fps=fps)
    wall = time.perf_counter() - w0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, time.process_time() - c0, (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)


def draw_blocks(seconds: int, fps: int, blocks: int = 6) -> list[float]:
    """Drawing + YUV conversion only (no encoder), CPU ms/frame in equal blocks of one long replay: flat = linear."""
    ps = panes(seconds)
    times = frame_times(ps, fps, Fraction(1), hold_s=0)
    drawer, yuv = FrameDrawer(ps, *PRESETS["720p"]), Yuv420(*PRESETS["720p"])
    size = len(times) // blocks
    out = []
    for b in range(blocks):
        c0 = time.process_time()
        for t in times[b * size:(b + 1) * size]:
            yuv.update(drawer.draw(drawer.state(t)), drawer.dirty)
        out.append((time.process_time() - c0) / size * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fps", type=int, default=30)
    ap.add_argument("--gif", action="store_true", help="also time a 10 fps GIF of the 30 s replay")
    args = ap.parse_args()
    os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:2])  # the target is for 2 cores; ffmpeg inherits this
    cores = len(os.sched_getaffinity(0))
    print(f"cores used: {cores}; load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    # Drawing (this process) and encoding (ffmpeg) run in parallel, one core each, so on two otherwise idle cores
    # a frame takes about max(py CPU, ffmpeg CPU): the "CPU-bound" column. Wall time includes whatever else runs.
    print("| replay | format | frames | video s | wall s | × real time (wall) | py CPU ms/frame | "
          "ffmpeg CPU ms/frame | × real time (CPU-bound, 2 idle cores) |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(s, "mp4", args.fps) for s in (10, 20, 30)] + ([(30, "gif", 10)] if args.gif else [])
        for seconds, fmt, fps in cases:
            ps = panes(seconds)
            n = len(frame_times(ps, fps, Fraction(1)))
            out = Path(tmp) / f"{seconds}.{fmt}"
            wall, py, ff = timed(ps, out, fmt, fps)
            video_s = n / fps
            bound = max(py, ff)
            rows.append((fmt, n, wall, bound))
            print(f"| {seconds} s, 2 arms | {fmt} {fps} fps | {n} | {video_s:.1f} | {wall:.2f} | {video_s / wall:.1f} | "
                  f"{py / n * 1000:.2f} | {ff / n * 1000:.2f} | {video_s / bound:.1f} |", flush=True)
        mp4 = [(n, w, b) for f, n, w, b in rows if f == "mp4"]
        (n1, w1, b1), (n3, w3, b3) = mp4[0], mp4[-1]
        print(f"\nlinearity ({n1} → {n3} frames), time per frame ratio (1.00 = linear): "
              f"wall {(w3 / n3) / (w1 / n1):.2f}, CPU-bound {(b3 / n3) / (b1 / n1):.2f}")
        blocks = draw_blocks(120, args.fps)
        print(f"drawing only, 120 s replay at {args.fps} fps, CPU ms/frame in 6 equal blocks: "
              + " ".join(f"{b:.2f}" for b in blocks))
        again = Path(tmp) / "again.mp4"
        render(panes(30), again, fps=args.fps)
        a, b = (hashlib.sha256(p.read_bytes()).hexdigest() for p in (Path(tmp) / "30.mp4", again))
        print(f"sha256 30 s mp4: {a}\nsha256 re-render: {b}\nidentical: {a == b}")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
