"""One recorded request: stream it and stamp every chunk with the time its line arrived.

The time is the kernel's arrival stamp of the read that completed the line where the connection
has one (recorder/arrival.py: plain http on Linux), else the monotonic time the line came out of
httpx, taken before it is parsed.

Tokens per chunk come from the chunk's token_ids, else from the change in the
cumulative usage.completion_tokens; with speculative decoding one chunk carries
a whole accepted block, so a chunk is never assumed to be one token when the
server says otherwise.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

from recorder.config import Arm, Prompt
from recorder.redact import redact
from recorder.server import (
    STALE_RETRIES,
    Capabilities,
    chunk_problem,
    headers,
    parse_chunk,
    request_body,
    secrets,
    url,
)
from specreplay import engines
from specreplay.recording.format import event_dict


@dataclass
class Result:
    """A finished request, as a recording `run` line minus arm/prompt/repeat bookkeeping."""

    started_wall: str
    started_mono: float
    events: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, int] | None = None
    finish_reason: str | None = None
    request_metrics: dict[str, Any] | None = None
    error: str | None = None

    def line(self, arm: str, prompt: str, repeat: int, warmup: bool, concurrency: int, stream: int,
             spec: dict[str, Any] | None) -> dict[str, Any]:
        ttft = next((e["t"] for e in self.events if e["n"] > 0), None)
        return {"type": "run", "arm": arm, "prompt": prompt, "repeat": repeat, "warmup": warmup,
                "concurrency": concurrency, "stream": stream, "started_wall": self.started_wall,
                "started_mono": round(self.started_mono, 6), "events": self.events, "ttft": ttft,
                "usage": self.usage, "finish_reason": self.finish_reason, "spec": spec,
                "request_metrics": self.request_metrics, "status": "error" if self.error else "ok",
                "error": self.error}


async def record(client: httpx.AsyncClient, arm: Arm, prompt: Prompt, caps: Capabilities, max_tokens: int,
                 timeout: float, total: float) -> Result:
    """Stream one request. `timeout`: seconds without any byte; `total`: seconds for the whole request, so a
    server that sends only SSE keep-alive comments cannot hold the recorder forever. Every failure becomes
    the Result's `error` (credentials redacted), never an exception."""
    for _ in range(STALE_RETRIES):
        res = Result(datetime.now(UTC).isoformat(timespec="milliseconds"), time.monotonic())
        state = {"comments": 0}
        try:
            async with asyncio.timeout(total):
                await _stream(client, arm, prompt, caps, max_tokens, timeout, res, state)
            break
        except httpx.RemoteProtocolError as exc:
            if "without sending a response" not in str(exc):
                res.error = f"{type(exc).__name__}: {exc}"
                break
            # A pooled connection the server had just closed (see server.get): nothing was sent back, so the
            # request was not served; send it again, timed afresh, on another connection.
        except TimeoutError:
            res.error = (f"no finish within {total:g} s (--request-total-timeout); "
                         + (f"the server sent {state['comments']} keep-alive lines and {len(res.events)} chunks"
                            if state["comments"] else f"{len(res.events)} chunks arrived"))
            break
        except (httpx.HTTPError, ValueError, RecursionError) as exc:
            detail = chunk_problem(exc) if isinstance(exc, (ValueError, RecursionError)) else f"{type(exc).__name__}: {exc}"
            res.error = detail.rstrip(": ") or type(exc).__name__
            break
    else:
        res.error = f"the server closed {STALE_RETRIES} connections in a row without answering"
    if res.error:
        res.error = redact(res.error, secrets(arm))
    return res


async def _stream(client: httpx.AsyncClient, arm: Arm, prompt: Prompt, caps: Capabilities, max_tokens: int,
                  timeout: float, res: Result, state: dict[str, int]) -> None:
    body = request_body(prompt, arm, caps, max_tokens)
    t0 = res.started_mono
    cum = 0  # tokens counted so far
    t = 0.0
    final_usage: dict[str, int] | None = None
    async with client.stream("POST", url(arm, prompt.api), json=body, headers=headers(arm),
                             timeout=httpx.Timeout(timeout, connect=10)) as r:
        if r.status_code != 200:
            detail = (await r.aread()).decode(errors="replace")[:300]
            res.error = f"HTTP {r.status_code}: {detail}"
            return
        async for line, arrived in lines(r):
            t = max(arrived - t0, t)  # in order even if the wall clock steps under a kernel stamp (arrival.py)
            if not line.startswith("data:"):
                state["comments"] += line.startswith(":")
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            try:
                chunk = parse_chunk(data)
            except (ValueError, RecursionError) as exc:
                res.error = f"malformed stream line ({chunk_problem(exc)}): {data[:80]!r}"
                return
            if chunk.get("error"):
                res.error = f"server error mid-stream: {chunk['error']}"
                return
            usage = chunk.get("usage")
            choices = chunk.get("choices") or []
            if usage:
                done = usage.get("completion_tokens")
                if done is not None and (not isinstance(done, int) or isinstance(done, bool) or done < 0):
                    res.error = f"malformed stream: usage.completion_tokens is {done!r}, not a count of tokens"
                    return
                final_usage = {k: v for k, v in usage.items() if isinstance(v, int) and not isinstance(v, bool)}
            if isinstance(chunk.get("metrics"), dict) and chunk["metrics"]:
                res.request_metrics = chunk["metrics"]
            for engine in engines.ENGINES:  # the request's own counters and times (llama-server's timings)
                counters = engine.request_counters(chunk)
                if counters is not None:
                    res.request_metrics = {**(res.request_metrics or {}), **counters}
            if not choices:
                continue  # the closing usage-only chunk
            ch = choices[0]
            text = (ch.get("delta") or {}).get("content") or ch.get("text") or ""
            ids = ch.get("token_ids")
            running = final_usage.get("completion_tokens") if usage and final_usage else None
            if ids is not None:
                n = len(ids)
            elif running is not None:
                n = running - cum
            else:
                n = 1 if text else 0  # the server says nothing: see Capabilities.notes
            if n < 0:
                res.error = f"malformed stream: usage.completion_tokens went back from {cum} to {running}"
                return
            cum += n
            if ch.get("finish_reason"):
                res.finish_reason = ch["finish_reason"]
            if n or text:
                res.events.append(event_dict(t, n, text, list(ids) if ids is not None else None))
    if final_usage is not None:
        if final_usage.get("completion_tokens") == cum:
            res.usage = final_usage
        else:  # counts per chunk were assumed; keep the server's total beside them, not as `usage`
            res.request_metrics = {**(res.request_metrics or {}), "server_usage": final_usage}
    if res.finish_reason is None:
        res.error = "the stream ended without a finish_reason (cut off?)"
        return
    made = (final_usage or {}).get("completion_tokens", cum)
    if (caps.ignore_eos or caps.min_tokens) and made < max_tokens:
        # the length was forced: a shorter answer is not like-for-like with the other runs
        res.error = (f"short: {made} of the {max_tokens} forced tokens (finish_reason {res.finish_reason!r}) — "
                     "the server stopped early although it accepted ignore_eos/min_tokens")


async def lines(r: httpx.Response) -> AsyncIterator[tuple[str, float]]:
    """The response's lines, each with the monotonic time its last byte arrived (see the module docstring).

    httpx yields a line as soon as a read completes it, before it reads again, so the network
    stream's `arrival` is that read's.
    """
    conn: Any = r.extensions.get("network_stream")
    kernel = hasattr(conn, "arrival")
    async for line in r.aiter_lines():
        yield line, conn.arrival if kernel else time.monotonic()
