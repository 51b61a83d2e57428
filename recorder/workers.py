"""A sweep level's streams, in this process or split over worker processes.

A GPU engine at 128 streams sends ~25,000 chunks/s; one Python process spends 40-150 µs of CPU on
each (httpx, JSON, the event), a core or more, so it falls behind (docs/recorder.md, timing bench):
each stream's next request goes out late, and when the process does not get the CPU a socket waits
past its next chunk, whose arrival then stamps both (recorder/arrival.py). So a large level is
split: each worker process records a contiguous group of streams with its own client, and the
parent puts the runs back in stream order. time.monotonic is one clock for all processes on a
machine, so the file is the same as from one process.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

import httpx

from recorder import arrival
from recorder.errors import RecorderError

MIN_STREAMS_PER_PROCESS = 16  # below this a process has time to spare; a worker costs ~0.3 s to start
StreamFn = Callable[..., Awaitable[list[dict]]]  # fn(client, s, *args) -> stream s's run lines


def processes_for(streams: int, processes: int) -> int:
    return max(1, min(processes, streams // MIN_STREAMS_PER_PROCESS))


async def gather(client: httpx.AsyncClient, fn: StreamFn, args: tuple, streams: int,
                 processes: int) -> tuple[float, list[list[dict]]]:
    """fn(client, s, *args) for every stream s at once: (monotonic start time, each stream's lines in order).

    fn must be a module-level function and args picklable: a worker process imports and calls it
    with its own client.
    """
    n = processes_for(streams, processes)
    if n == 1:
        started = time.monotonic()
        return started, await _here(client, fn, args, range(streams))
    return await _split(fn, args, [range(i * streams // n, (i + 1) * streams // n) for i in range(n)])


async def _here(client: httpx.AsyncClient, fn: StreamFn, args: tuple, streams: Sequence[int]) -> list[list[dict]]:
    gc.disable()  # a full collection stalls every stream at once for 30-50 ms (docs/recorder.md, timing bench)
    try:
        return list(await asyncio.gather(*(fn(client, s, *args) for s in streams)))
    finally:
        gc.enable()  # a level leaves almost no cyclic garbage (43 objects for 64 requests in the bench)


async def _split(fn: StreamFn, args: tuple, groups: list[range]) -> tuple[float, list[list[dict]]]:
    ctx = multiprocessing.get_context("spawn")  # never fork a process with a running event loop and open sockets
    procs, conns = [], []
    try:
        for group in groups:
            here, there = ctx.Pipe()
            proc = ctx.Process(target=_worker, args=(fn, args, group, there), daemon=True,
                               name=f"recorder-streams-{group.start}-{group.stop - 1}")
            proc.start()
            there.close()  # so a dead worker reads as EOF here
            procs.append(proc)
            conns.append(here)
        for group, reply in zip(groups, await asyncio.gather(*(asyncio.to_thread(_recv, c) for c in conns))):
            _check(group, reply)
        # the level starts before any worker can send: stamped after "go", a worker scheduled first on a busy host
        # sent its first request 4 ms before the level's own start (seen on 2 busy cores)
        started = time.monotonic()
        for conn in conns:  # every worker has its client ready: start all groups together
            conn.send("go")
        replies = await asyncio.gather(*(asyncio.to_thread(_recv, c) for c in conns))
    finally:
        for proc in procs:  # on Ctrl-C or an error: the workers ignore SIGINT and stop here
            if proc.is_alive():
                proc.terminate()
            proc.join()
        for conn in conns:
            conn.close()
    return started, [lines for group, reply in zip(groups, replies) for lines in _check(group, reply)]


def _recv(conn: Connection) -> tuple[str, Any]:
    try:
        return conn.recv()
    except EOFError:
        return "error", "the worker process exited without an answer"


def _check(group: range, reply: tuple[str, Any]) -> Any:
    kind, value = reply
    if kind == "error":
        raise RecorderError(f"worker process for streams {group.start}-{group.stop - 1}: {value}")
    return value


def _worker(fn: StreamFn, args: tuple, streams: range, conn: Connection) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group; the parent stops us
    try:
        conn.send(("done", asyncio.run(_work(fn, args, streams, conn))))
    except Exception as exc:  # a bug, not a failed request (those are error runs): the parent stops with this line
        conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


async def _work(fn: StreamFn, args: tuple, streams: range, conn: Connection) -> list[list[dict]]:
    limits = httpx.Limits(max_connections=len(streams) + 4, max_keepalive_connections=len(streams) + 4)
    async with arrival.client(limits) as client:
        conn.send(("ready", None))
        if conn.recv() != "go":  # blocks the loop on purpose: nothing runs in it yet
            raise RecorderError("no start signal from the recorder")
        return await _here(client, fn, args, streams)
