"""Bench: does the recorder stamp chunks when they really arrive, and keep up? (Not a timed test: run it by hand.)

    python3 bench/recorder_timing.py [--streams 128] [--rate 200] [--workers 1,auto] [--json OUT.json]

Needs only the standard library and httpx (numpy only for the recorder's closing table).
Local emitter processes (this file, `emit`, sharing one port with SO_REUSEPORT) stream
OpenAI-style SSE chunks on a known schedule: chunk k of a request is due at k / rate, 1-5
tokens each (token_ids, like speculative blocks). Every chunk's text is the emitter's
CLOCK_MONOTONIC send time, and the recorder's started_mono + t is on the same clock, so
recorded - sent is the recorder's stamping error. It runs the real recorder CLI: cells mode
(1 stream) and one sweep level of --streams concurrent streams per --workers value. Per run:
stamping error p50 / p99 / max, the chunk rate the emitters reached and their lateness, and
how long after a request's last chunk arrived its stream sent the next request (the recorder's
processing backlog), and the CPU the recorder and the emitters used. Figures: docs/recorder.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TARGET_P99_MS = 1.0


# ------------------------------------------------------------------ emitter

async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, chunks: int, interval: float) -> None:
    try:
        await _respond(reader, writer, chunks, interval)
    except ConnectionError:
        pass  # the recorder went away (stopped mid-request)
    writer.close()


async def _respond(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, chunks: int, interval: float) -> None:
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
            due = t0 + k * interval
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            n = rng.randint(1, 5)
            cum += n
            # Everything but the send time is formatted first, so the error includes little of the emitter's own work.
            head_ = '{"choices": [{"index": 0, "delta": {"content": "'
            tail = (f';"}}, "token_ids": {list(range(n))}, '
                    f'"finish_reason": {json.dumps("length" if k == n_chunks - 1 else None)}}}], '
                    f'"usage": {{"prompt_tokens": 1, "completion_tokens": {cum}}}}}\n\n')
            sent = time.monotonic()
            writer.write(f"data: {head_}{sent:.6f}|{due:.6f}{tail}".encode())
            await writer.drain()
        writer.write(b"data: [DONE]\n\n")
    else:
        writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    await writer.drain()


async def emit(port: int, chunks: int, interval: float) -> None:
    server = await asyncio.start_server(lambda r, w: _handle(r, w, chunks, interval), "127.0.0.1", port,
                                        backlog=1024, reuse_port=True)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


# ------------------------------------------------------------------ bench

def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q / 100 * (len(xs) - 1))))]


def _figures(path: Path) -> dict[str, object]:
    from specreplay.recording import format as fmt

    rec = fmt.load(path)
    stamp, late, sent_at, next_gap = [], [], [], []
    runs = rec.select(None, None, warmup=False, concurrency=None)
    by_stream: dict[int, list] = {}
    for run in runs:
        by_stream.setdefault(run.stream, []).append(run)
        for ev in run.events:
            sent, due = (float(x) for x in ev.text.rstrip(";").split("|"))
            stamp.append((run.started_mono + ev.t_us / 1e6 - sent) * 1e3)
            late.append((sent - due) * 1e3)
            sent_at.append(sent)
    # A sweep's backlog: from a request's last chunk to the stream's next request (cells mode writes the file there)
    for seq in by_stream.values() if rec.levels else ():
        seq.sort(key=lambda r: r.repeat)
        next_gap += [(b.started_mono - (a.started_mono + a.events[-1].t_us / 1e6)) * 1e3 for a, b in zip(seq, seq[1:])
                     if a.events]
    errors = sum(1 for run in runs if run.status != "ok")
    out: dict[str, object] = {
        "requests": len(runs), "failed_requests": errors, "chunks": len(stamp),
        "chunks_per_s": round(len(stamp) / (max(sent_at) - min(sent_at)), 1),
        "error_ms": {"p50": round(_pct(stamp, 50), 3), "p99": round(_pct(stamp, 99), 3), "max": round(max(stamp), 3)},
        "emitter_late_ms": {"p50": round(_pct(late, 50), 3), "p99": round(_pct(late, 99), 3)},
    }
    if next_gap:
        out["next_request_after_ms"] = {"p50": round(_pct(next_gap, 50), 3), "p99": round(_pct(next_gap, 99), 3),
                                        "max": round(max(next_gap), 3)}
    return out


def _children_cpu() -> float:
    """CPU seconds of finished child processes (the recorder CLI counts with its workers: it waits for them)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _machine() -> dict[str, object]:
    from recorder.machine import describe

    m = describe()
    try:
        m["usable_cores"] = len(os.sched_getaffinity(0))
    except AttributeError:
        pass
    return m


def _start_emitters(n: int, port: int, chunks: int, interval_ms: float) -> list[subprocess.Popen]:
    procs = [subprocess.Popen([sys.executable, __file__, "emit", str(port), str(chunks), str(interval_ms)],
                              stdout=subprocess.PIPE, text=True) for _ in range(n)]
    for p in procs:
        if p.stdout.readline().strip() != "ready":
            raise SystemExit(f"an emitter did not start (exit {p.wait()})")
    return procs


def main() -> None:
    from recorder.machine import default_processes

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--streams", type=int, default=128, help="concurrent streams of the sweep level (default 128)")
    ap.add_argument("--rate", type=float, default=200, help="chunks per second per stream (default 200)")
    ap.add_argument("--chunks", type=int, default=200, help="chunks per request (default 200)")
    ap.add_argument("--rounds", type=int, default=2, help="requests each stream sends in a row (default 2)")
    ap.add_argument("--workers", default="1,auto",
                    help="recorder worker processes for the sweep level, one run each, comma-separated; "
                         f"auto = the recorder's default here ({default_processes()}) (default 1,auto)")
    ap.add_argument("--emitters", type=int, default=max(1, min(8, (os.cpu_count() or 1) // 4)),
                    help="emitter processes (default cores / 4, 1 to 8)")
    ap.add_argument("--no-single", action="store_true", help="skip the single-stream cells-mode run")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
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
    interval_ms = 1e3 / args.rate
    runs: list[tuple[str, dict, list[str]]] = []
    if not args.no_single:
        runs.append(("1 stream (record mode, 5 requests)", {"mode": "record", "streams": 1, "workers": 1},
                     ["record", "--repeats", "5", "--warmup", "1"]))
    for n in dict.fromkeys(default_processes() if w == "auto" else int(w) for w in args.workers.split(",")):
        runs.append((f"{args.streams} streams (sweep level, {args.rounds} rounds), {n} recorder process(es)",
                      {"mode": "sweep", "streams": args.streams, "workers": n},
                      ["sweep", "--levels", str(args.streams), "--rounds", str(args.rounds), "--workers", str(n)]))
    report: dict[str, object] = {
        "bench": "recorder_timing", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "machine": _machine(), "target_p99_ms": TARGET_P99_MS,
        "schedule": {"rate_per_stream": args.rate, "interval_ms": round(interval_ms, 3), "chunks": args.chunks,
                     "rounds": args.rounds, "emitters": args.emitters},
        "runs": []}
    print(f"schedule: {args.chunks} chunks per request at {args.rate:g}/s per stream, 1-5 tokens each, "
          f"{args.emitters} emitter process(es); error = recorded arrival - emitter send time (same monotonic "
          f"clock); {report['machine']['cores']} cores, load average {os.getloadavg()[0]:.2f}")
    for name, meta, cli in runs:
        emitters = _start_emitters(args.emitters, port, args.chunks, interval_ms)
        try:
            out = tmp / f"{cli[0]}-{meta['workers']}.jsonl"
            load = [round(x, 2) for x in os.getloadavg()]
            started, cpu = time.monotonic(), _children_cpu()
            subprocess.run([sys.executable, "-m", "recorder", cli[0], str(cfg), "-o", str(out), "--no-progress", "--host-busy-max", "1",
                            *cli[1:]], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            fig = {"name": name, **meta, "offered_chunks_per_s": meta["streams"] * args.rate,
                   "load_avg_at_start": load, "wall_s": round(time.monotonic() - started, 1),
                   "recorder_cpu_s": round(_children_cpu() - cpu, 2), **_figures(out)}
        finally:
            cpu = _children_cpu()
            for p in emitters:
                p.terminate()
                p.wait()
        fig["emitter_cpu_s"] = round(_children_cpu() - cpu, 2)
        if meta["mode"] == "sweep":
            fig["target_met"] = fig["error_ms"]["p99"] <= TARGET_P99_MS and not fig["failed_requests"]
        report["runs"].append(fig)
        e, late = fig["error_ms"], fig["emitter_late_ms"]
        gap = fig.get("next_request_after_ms")
        print(f"{name}: {fig['chunks']} chunks at {fig['chunks_per_s']:,.0f}/s "
              f"(offered {fig['offered_chunks_per_s']:,.0f}); stamping error ms p50 {e['p50']:.3f}  "
              f"p99 {e['p99']:.3f}  max {e['max']:.3f}; emitter late ms p50 {late['p50']:.3f}  p99 {late['p99']:.3f}"
              + (f"; next request after ms p50 {gap['p50']:.1f}  p99 {gap['p99']:.1f}" if gap else "")
              + f"; CPU s recorder {fig['recorder_cpu_s']:.1f}, emitters {fig['emitter_cpu_s']:.1f}, "
                f"wall {fig['wall_s']:.1f}"
              + (f"; {fig['failed_requests']} requests FAILED" if fig["failed_requests"] else ""))
        if args.json:  # after every run, so a run cut short by a time limit keeps the finished ones
            args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "emit":
        asyncio.run(emit(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]) / 1e3))
    else:
        main()
