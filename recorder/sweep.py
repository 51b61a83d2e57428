"""Sweep mode: for each arm in turn, for each prompt mix, for each concurrency level, N streams at once.

Never two arms at once; an arm with a launch block has its server started before its first level and
stopped after its last. Each level is: endpoint and host idle check, a warm-up round at the level's own
concurrency (N streams, one request each, stored and flagged: an engine compiles or captures a new batch shape
the first time it meets it, and that one-off stall belongs to no measured round), a /metrics snapshot, N
concurrent streams (stream s sends the mix's prompt (s + round) mod P, `rounds` requests in a row), a settled
snapshot. The level's runs and its `level` line are appended
together when the level ends, so an interrupted level leaves nothing behind and is redone whole.
"""

from __future__ import annotations

import asyncio
import os
import resource
import sys
import time
from pathlib import Path

import httpx

from recorder import arrival, host_load, metrics, server, stream, workers
from recorder.config import Arm, Config, Mix
from recorder.errors import RecorderError
from recorder.server import Capabilities
from recorder.session import Options, arm_up, check_output, header, open_output, prepare, unprobed
from specreplay.progress import Progress
from specreplay.recording import format as fmt


async def run(cfg: Config, opts: Options, levels: tuple[int, ...], rounds: int) -> tuple[fmt.Recording, int]:
    """Record every missing level; returns the recording and how many runs this call stored as errors."""
    top = max(levels)
    check_open_files(top)
    limits = httpx.Limits(max_connections=top + 4, max_keepalive_connections=top + 4)
    extra: dict = {"levels": list(levels), "rounds": rounds}
    if cfg.mixes[0].id is not None:
        extra["mixes"] = [{"id": m.id, "prompts": [q.id for q in m.prompts]} for m in cfg.mixes]
    check_output(opts.output, header(cfg, unprobed(cfg), "sweep", opts, extra), cfg)  # before any server is asked
    failed = 0
    async with arrival.client(limits) as client:
        entries = await prepare(client, cfg, opts)
        rec = open_output(opts.output, header(cfg, entries, "sweep", opts, extra), cfg)
        rec = _drop_unfinished_levels(opts.output, rec)
        done = {(lv.arm, lv.mix, lv.concurrency) for lv in rec.levels}
        todo = [(arm, mix, c) for arm in cfg.arms for mix in cfg.mixes for c in levels
                if (arm.id, mix.id, c) not in done]
        total = len(cfg.arms) * len(cfg.mixes) * len(levels)
        bar = Progress(total, total - len(todo), unit="levels", enabled=opts.progress)
        if done:
            bar.note(f"recorder: resuming {opts.output.name}: {len(done)} of {total} levels already there")
        for arm in cfg.arms:  # a resumed run starts only the arms that still have levels to record
            mine = [(mix, c) for a, mix, c in todo if a is arm]
            if not mine:
                continue
            async with arm_up(client, cfg, arm, entries, opts) as caps:
                check_slots(arm, entries[arm.id][0].get("served", {}), max(c for _, c in mine))
                for mix, c in mine:
                    lines = await _level(client, cfg, arm, caps, mix, c, rounds, opts)
                    level = lines[-1]
                    if arm.baseline:
                        level["text_check"] = text_check(fmt.load(opts.output), arm, mix, lines)
                    for line in lines:
                        fmt.append(opts.output, line)
                    errors = sum(1 for line in lines if line.get("status") == "error")
                    failed += errors
                    if level.get("spec_note"):
                        bar.note(f"recorder: {arm.id} · {c} streams: {level['spec_note']}")
                    bar.step(f"{arm.id} · {mix.id + ' · ' if mix.id else ''}{c} streams"
                             + (f" · text {level['text_check']}" if level.get("text_check") else "")
                             + (f"  {errors} requests FAILED" if errors else ""))
    return fmt.load(opts.output), failed


FILES_BESIDE_STREAMS = 64  # the recorder's own open files: the recording, logs, /proc and /metrics reads, pipes


def check_open_files(top: int) -> None:
    """Every stream of a level holds a connection, one open file each: raise this process's soft limit as far as
    the hard one allows, and refuse a level that still would not fit (a 1,000-stream sweep under `ulimit -n 256`
    failed 359 of 2,002 requests with no word about the limit)."""
    need = top + FILES_BESIDE_STREAMS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= need:
        return
    raised = need if hard == resource.RLIM_INFINITY else min(need, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
    if raised < need:
        raise RecorderError(f"level {top} keeps {top} streams open at once, but this process may open only {raised} "
                            f"files (ulimit -n; hard limit {hard}) — raise the limit to {need} or more "
                            f"(ulimit -n {need}), or leave out the levels above {raised - FILES_BESIDE_STREAMS}")


def check_slots(arm: Arm, served: dict, top: int) -> None:
    """More streams than the server has slots would wait in its queue and be stored as that many streams at once:
    refused where the server says how many it has (llama-server's /props total_slots)."""
    slots = served.get("total_slots")
    if type(slots) is int and 0 < slots < top:
        raise RecorderError(f"arm {arm.id}: the server reports {slots} slot{'s' if slots > 1 else ''} (/props "
                            f"total_slots), but level {top} sends {top} streams at once: they would queue and be "
                            f"stored as {top}-stream data — start it with --parallel {top} or more, or leave the "
                            f"levels above {slots} out (--levels)")


async def _level(client: httpx.AsyncClient, cfg: Config, arm: Arm, caps: Capabilities, mix: Mix, c: int,
                 rounds: int, opts: Options) -> list[dict]:
    async def idle() -> float | None:
        window = opts.idle.polls * opts.idle.interval
        _, busy = await asyncio.gather(
            server.wait_idle(client, arm, opts.idle.polls, opts.idle.interval, opts.idle.timeout),
            host_load.wait_quiet(cfg.host, window))
        return busy

    def tag(line: dict) -> dict:
        return {**line, "mix": mix.id} if mix.id is not None else line

    await idle()
    _, warm = await workers.gather(client, _stream, (arm, mix, caps, c, 1, opts, True), c, opts.workers)
    lines = [line for runs in warm for line in runs]
    host_busy = await idle()
    before = await server.settled(client, arm) if caps.metrics else None

    started, per_stream = await workers.gather(client, _stream, (arm, mix, caps, c, rounds, opts), c, opts.workers)
    ended = time.monotonic()
    after = await server.settled(client, arm) if caps.metrics else None
    lines += [line for runs in per_stream for line in runs]
    spec, spec_note = metrics.spec_delta(before, after) if before and after and arm.speculative else (None, None)
    level = tag({"type": "level", "arm": arm.id, "concurrency": c, "started_mono": round(started, 6),
                 "ended_mono": round(ended, 6), "streams": c, "rounds": rounds, "spec": spec,
                 "host_busy": None if host_busy is None else round(host_busy, 3)})
    if spec_note:
        level["spec_note"] = spec_note
    if mix.mixed_sampling:
        level["mixed_sampling"] = True
    lines.append(level)
    return lines


def _text(line: dict) -> str:
    return "".join(e["text"] for e in line["events"])


def text_check(rec: fmt.Recording, arm: Arm, mix: Mix, lines: list[dict]) -> str:
    """Greedy runs of this level against the baseline arm's single-stream text of the same prompt.

    "equal" / "differs" (any greedy run differs); "not checkable (sampled)" when the level has no greedy run
    (sampled text is not reproducible on vLLM's ngram arm even alone); "no reference" when the baseline has
    no single-stream run of these prompts yet (list the baseline arm first).
    """
    greedy = {q.id for q in mix.prompts if q.greedy}
    runs = [ln for ln in lines if ln["type"] == "run" and not ln["warmup"] and ln["status"] == "ok"
            and ln["prompt"] in greedy]
    if not runs:
        return "not checkable (sampled)"
    refs = {}
    for pid in greedy:
        base = rec.select(arm.baseline, pid, concurrency=1)
        if base:
            refs[pid] = base[0].events.text
    checked = [ln for ln in runs if ln["prompt"] in refs]
    if not checked:
        return "no reference"
    return "equal" if all(_text(ln) == refs[ln["prompt"]] for ln in checked) else "differs"


async def _stream(client: httpx.AsyncClient, s: int, arm: Arm, mix: Mix, caps: Capabilities, c: int, rounds: int,
                  opts: Options, warmup: bool = False) -> list[dict]:
    """Stream s of a level: `rounds` requests in a row from the mix (in a worker process when the level is split);
    with warmup, the level's warm-up round, stored flagged."""
    out = []
    for r in range(rounds):
        prompt = mix.prompts[(s + r) % len(mix.prompts)]
        res = await stream.record(client, arm, prompt, caps, opts.max_tokens, opts.request_timeout,
                                  opts.request_total)
        line = res.line(arm.id, prompt.id, r, warmup, c, s, None)
        out.append({**line, "mix": mix.id} if mix.id is not None else line)
    return out


def _drop_unfinished_levels(path: Path, rec: fmt.Recording) -> fmt.Recording:
    """Runs whose level line never made it (the process died while writing a level) are cut, so the level is redone whole."""
    finished = {(lv.arm, lv.mix, lv.concurrency) for lv in rec.levels}
    orphans = {r.line for r in rec.runs if (r.arm, r.mix, r.concurrency) not in finished}
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
