"""Sweep mode: for each arm in turn, for each concurrency level, N streams at once over the prompt mix.

Never two arms at once. Each level is: idle check, one warm-up request (stored,
flagged), a /metrics snapshot, N concurrent streams (stream s sends prompt
(s + round) mod P, `rounds` requests in a row), a settled snapshot. The level's
runs and its `level` line are appended together when the level ends, so an
interrupted level leaves nothing behind and is redone whole on the next run.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import httpx

from recorder import arrival, metrics, server, stream, workers
from recorder.config import Arm, Config
from recorder.progress import Progress
from recorder.server import Capabilities
from recorder.session import Options, header, open_output, prepare
from specreplay import format as fmt


async def run(cfg: Config, opts: Options, levels: tuple[int, ...], rounds: int) -> fmt.Recording:
    top = max(levels)
    limits = httpx.Limits(max_connections=top + 4, max_keepalive_connections=top + 4)
    async with arrival.client(limits) as client:
        arms = await prepare(client, cfg, opts.request_timeout)
        rec = open_output(opts.output, header(cfg, arms, "sweep", opts, {"levels": list(levels), "rounds": rounds}))
        rec = _drop_unfinished_levels(opts.output, rec)
        done = {(lv.arm, lv.concurrency) for lv in rec.levels}
        todo = [(arm, c) for arm in cfg.arms for c in levels if (arm.id, c) not in done]
        total = len(cfg.arms) * len(levels)
        bar = Progress(total, total - len(todo), opts.progress)
        if done:
            bar.note(f"recorder: resuming {opts.output.name}: {len(done)} of {total} levels already there")
        for arm, c in todo:
            lines = await _level(client, cfg, arm, arms[arm.id][1], c, rounds, opts)
            for line in lines:
                fmt.append(opts.output, line)
            errors = sum(1 for line in lines if line.get("status") == "error")
            bar.step(f"{arm.id} · {c} streams" + (f"  {errors} requests FAILED" if errors else ""))
    return fmt.load(opts.output)


async def _level(client: httpx.AsyncClient, cfg: Config, arm: Arm, caps: Capabilities, c: int, rounds: int,
                 opts: Options) -> list[dict]:
    async def idle() -> None:
        await server.wait_idle(client, arm, opts.idle.polls, opts.idle.interval, opts.idle.timeout)

    await idle()
    warm = await stream.record(client, arm, cfg.prompts[0], caps, opts.max_tokens, opts.request_timeout)
    lines = [warm.line(arm.id, cfg.prompts[0].id, 0, True, c, 0, None)]
    await idle()
    before = await server.settled(client, arm) if caps.metrics else None

    started, per_stream = await workers.gather(client, _stream, (cfg, arm, caps, c, rounds, opts), c, opts.workers)
    ended = time.monotonic()
    after = await server.settled(client, arm) if caps.metrics else None
    lines += [line for runs in per_stream for line in runs]
    lines.append({"type": "level", "arm": arm.id, "concurrency": c, "started_mono": round(started, 6),
                  "ended_mono": round(ended, 6), "streams": c, "rounds": rounds,
                  "spec": metrics.spec_delta(before, after) if before and after else None})
    return lines


async def _stream(client: httpx.AsyncClient, s: int, cfg: Config, arm: Arm, caps: Capabilities, c: int, rounds: int,
                  opts: Options) -> list[dict]:
    """Stream s of a level: `rounds` requests in a row (in a worker process when the level is split)."""
    out = []
    for r in range(rounds):
        prompt = cfg.prompts[(s + r) % len(cfg.prompts)]
        res = await stream.record(client, arm, prompt, caps, opts.max_tokens, opts.request_timeout)
        out.append(res.line(arm.id, prompt.id, r, False, c, s, None))
    return out


def _drop_unfinished_levels(path: Path, rec: fmt.Recording) -> fmt.Recording:
    """Runs whose level line never made it (the process died while writing a level) are cut, so the level is redone whole."""
    finished = {(lv.arm, lv.concurrency) for lv in rec.levels}
    orphans = {r.line for r in rec.runs if (r.arm, r.concurrency) not in finished}
    if not orphans:
        return rec
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write("".join(line for i, line in enumerate(lines, 1) if i not in orphans))
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    print(f"recorder: {path.name}: removed {len(orphans)} runs of a level that never finished; it will be redone",
          file=sys.stderr)
    return fmt.load(path)
