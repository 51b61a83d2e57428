"""Bench: does the recorder stamp chunks when they really arrive? (Not a timed test: run it by hand.)

    .venv/bin/python bench/recorder_timing.py [--chunks 200] [--interval-ms 10]

A local emitter (this file, `emit PORT`, in its own process) streams OpenAI-style
SSE chunks on a known schedule: chunk k is due at k * interval, 1-5 tokens each
(token_ids, like speculative blocks). Every chunk's text is the emitter's
CLOCK_MONOTONIC send time, and the recorder's started_mono + t is on the same
clock, so recorded - sent is the recorder's stamping error. It runs the real
recorder CLI twice: record mode (1 stream at a time) and a sweep level of 64
concurrent streams. Prints p50 / p99 / max error and the emitter's own lateness.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


# ------------------------------------------------------------------ emitter

async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, chunks: int, interval: float) -> None:
    head = (await reader.readuntil(b"\r\n\r\n")).decode()
    method, path = head.split(" ", 2)[:2]
    length = next((int(line.split(":")[1]) for line in head.split("\r\n") if line.lower().startswith("content-length")), 0)
    body = json.loads(await reader.readexactly(length)) if length else {}
    if method == "GET" and path == "/v1/models":
        data = json.dumps({"data": [{"id": "emitter"}]}).encode()
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(data), data))
    elif method == "POST":
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
        n_chunks = min(chunks, body.get("max_tokens", chunks))
        rng = random.Random()
        t0, cum = time.monotonic(), 0
        for k in range(n_chunks):
            delay = t0 + k * interval - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            n = rng.randint(1, 5)
            cum += n
            sent = time.monotonic()
            chunk = {"choices": [{"index": 0, "delta": {"content": f"{sent:.6f}|{t0 + k * interval:.6f};"},
                                  "token_ids": list(range(n)),
                                  "finish_reason": "length" if k == n_chunks - 1 else None}],
                     "usage": {"prompt_tokens": 1, "completion_tokens": cum}}
            writer.write(f"data: {json.dumps(chunk)}\n\n".encode())
            await writer.drain()
        writer.write(b"data: [DONE]\n\n")
    else:
        writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    await writer.drain()
    writer.close()


async def emit(port: int, chunks: int, interval: float) -> None:
    server = await asyncio.start_server(lambda r, w: _handle(r, w, chunks, interval), "127.0.0.1", port, backlog=256)
    async with server:
        await server.serve_forever()


# ------------------------------------------------------------------ bench

def _errors(path: Path) -> tuple[list[float], list[float]]:
    from specreplay import format as fmt

    rec = fmt.load(path)
    stamp, late = [], []
    for run in rec.select(None, None, warmup=False, concurrency=None):
        for ev in run.events:
            sent, due = (float(x) for x in ev.text.rstrip(";").split("|"))
            stamp.append((run.started_mono + ev.t_us / 1e6 - sent) * 1e3)
            late.append((sent - due) * 1e3)
    return stamp, late


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chunks", type=int, default=200, help="chunks per request (default 200)")
    ap.add_argument("--interval-ms", type=float, default=10, help="schedule: one chunk every N ms (default 10)")
    ap.add_argument("--streams", type=int, default=64, help="concurrent streams in the sweep run (default 64)")
    ap.add_argument("--sweep-interval-ms", type=float, default=None,
                    help="schedule of the concurrent run (default: --interval-ms); 64 streams at 10 ms is 6,400 chunks/s")
    args = ap.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    tmp = Path(tempfile.mkdtemp(prefix="recorder-timing-"))
    cfg = tmp / "emitter.toml"
    cfg.write_text(f'title = "timing"\n[record]\nmax_tokens = {args.chunks}\n'
                   f'[[arms]]\nid = "emitter"\nlabel = "emitter"\nendpoint = "http://127.0.0.1:{port}"\n'
                   f'model = "emitter"\nengine = "emitter"\n'
                   f'[[prompts]]\nid = "p"\nkind = "chat"\ntext = "x"\n')
    sweep_ms = args.sweep_interval_ms or args.interval_ms
    runs = {f"1 stream (record mode, 5 requests), every {args.interval_ms:g} ms": (
                args.interval_ms, ["record", "--repeats", "5", "--warmup", "1"]),
            f"{args.streams} concurrent streams (sweep level), every {sweep_ms:g} ms": (
                sweep_ms, ["sweep", "--levels", str(args.streams)])}
    print(f"schedule: {args.chunks} chunks per request, 1-5 tokens each; "
          f"error = recorded arrival - emitter send time (same monotonic clock); load average {os.getloadavg()[0]:.1f}")
    for name, (interval, cli) in runs.items():
        emitter = subprocess.Popen([sys.executable, __file__, "emit", str(port), str(args.chunks), str(interval)])
        time.sleep(0.5)
        try:
            out = tmp / f"{cli[0]}.jsonl"
            subprocess.run([sys.executable, "-m", "recorder", cli[0], str(cfg), "-o", str(out), "--no-progress",
                            *cli[1:]], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            stamp, late = _errors(out)
            print(f"{name}: {len(stamp)} chunks; stamping error ms p50 {_pct(stamp, 50):.3f}  "
                  f"p99 {_pct(stamp, 99):.3f}  max {max(stamp):.3f}; emitter lateness vs schedule ms "
                  f"p50 {_pct(late, 50):.3f}  p99 {_pct(late, 99):.3f}")
        finally:
            emitter.terminate()
            emitter.wait()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "emit":
        asyncio.run(emit(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]) / 1e3))
    else:
        main()
