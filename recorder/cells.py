"""Cells mode: every arm x prompt cell, warm-ups then repeats, one request at a time.

Arms run strictly one after another (an arm with a launch block has its server
started before its first cell and stopped after its last); before every request
the endpoint must be idle and the host quiet. Each finished run is appended (and fsynced) at once, so rerunning the same
command resumes where it stopped.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import httpx

from recorder import arrival, host_load, metrics, server, stream
from recorder.config import Arm, Config, Prompt
from recorder.session import Options, arm_up, check_output, header, open_output, prepare, unprobed
from specreplay.progress import Progress
from specreplay.recording import format as fmt


@dataclass(frozen=True)
class Cell:
    arm: Arm
    prompt: Prompt
    repeat: int
    warmup: bool

    @property
    def key(self) -> tuple[str, str, int, bool]:
        return self.arm.id, self.prompt.id, self.repeat, self.warmup

    @property
    def label(self) -> str:
        return f"{self.arm.id} · {self.prompt.id} · {'warm-up' if self.warmup else 'repeat'} {self.repeat + 1}"


def plan(cfg: Config, repeats: int, warmup: int) -> list[Cell]:
    return [Cell(arm, prompt, r, w) for arm in cfg.arms for prompt in cfg.prompts
            for w, count in ((True, warmup), (False, repeats)) for r in range(count)]


async def run(cfg: Config, opts: Options, repeats: int, warmup: int) -> tuple[fmt.Recording, int]:
    """Record every missing cell; returns the recording and how many runs this call stored as errors."""
    limits = httpx.Limits(max_connections=8, max_keepalive_connections=4)
    extra = {"repeats": repeats, "warmup": warmup}
    check_output(opts.output, header(cfg, unprobed(cfg), "cells", opts, extra), cfg)  # before any server is asked
    failed = 0
    async with arrival.client(limits) as client:
        arms = await prepare(client, cfg, opts)
        rec = open_output(opts.output, header(cfg, arms, "cells", opts, extra), cfg)
        done = {(r.arm, r.prompt, r.repeat, r.warmup) for r in rec.runs if r.ok and r.concurrency == 1}
        cells = plan(cfg, repeats, warmup)
        todo = [c for c in cells if c.key not in done]
        bar = Progress(len(cells), len(cells) - len(todo), unit="runs", enabled=opts.progress)
        if done:
            bar.note(f"recorder: resuming {opts.output.name}: {len(cells) - len(todo)} of {len(cells)} runs already there")
        for arm in cfg.arms:  # in plan order, so arms never interleave; a resumed run starts only the arms it needs
            mine = [c for c in todo if c.arm is arm]
            if not mine:
                continue
            async with arm_up(client, cfg, arm, arms, opts) as caps:
                for cell in mine:
                    _, busy = await asyncio.gather(
                        server.wait_idle(client, arm, opts.idle.polls, opts.idle.interval, opts.idle.timeout),
                        host_load.wait_quiet(cfg.host, opts.idle.polls * opts.idle.interval))
                    before = await server.snapshot(client, arm) if caps.metrics else None
                    res = await stream.record(client, arm, cell.prompt, caps, opts.max_tokens, opts.request_timeout,
                                              opts.request_total)
                    after = await server.settled(client, arm) if caps.metrics else None
                    spec, spec_note = metrics.spec_delta(before, after) if before and after and arm.speculative else (None, None)
                    line = res.line(arm.id, cell.prompt.id, cell.repeat, cell.warmup, 1, 0, spec)
                    if spec_note:
                        line["spec_note"] = spec_note
                        bar.note(f"recorder: {cell.label}: {spec_note}")
                    fmt.append(opts.output, {**line, "host_busy": None if busy is None else round(busy, 3)})
                    failed += res.error is not None
                    bar.step(cell.label + (f"  ERROR {res.error}" if res.error else ""))
    return fmt.load(opts.output), failed
