"""Talking to one arm's server outside of the recorded stream: identity, capabilities, /metrics, idleness."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from recorder import metrics
from recorder.config import Arm, Prompt
from recorder.errors import RecorderError


@dataclass
class Capabilities:
    """What this server accepts and sends back; decided by a probe request before recording."""

    metrics: bool = False  # GET /metrics answers
    token_ids: bool = False  # chunks carry choices[0].token_ids (return_token_ids)
    running_usage: bool = False  # chunks carry cumulative usage (continuous_usage_stats)
    final_usage: bool = False  # the last chunk carries usage (include_usage)
    ignore_eos: bool = False  # the request field is accepted (HTTP 200)
    min_tokens: bool = False
    notes: list[str] = field(default_factory=list)  # what could not be measured, said plainly

    def header(self) -> dict[str, Any]:
        return {"metrics": self.metrics, "token_ids": self.token_ids, "running_usage": self.running_usage,
                "final_usage": self.final_usage, "ignore_eos": self.ignore_eos, "min_tokens": self.min_tokens,
                "not_measured": self.notes}


def headers(arm: Arm) -> dict[str, str]:
    return {"Authorization": f"Bearer {arm.api_key}"} if arm.api_key else {}


def request_body(prompt: Prompt, arm: Arm, caps: Capabilities | None, max_tokens: int,
                 extras: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON body: sampling params, forced length, and the streaming extras this server takes."""
    body: dict[str, Any] = {"model": arm.model, "stream": True,
                            **{k: v for k, v in prompt.sampling.items() if k != "max_tokens"}}
    body["max_tokens"] = max_tokens
    if prompt.api == "chat":
        body["messages"] = [{"role": "user", "content": prompt.text}]
    else:
        body["prompt"] = prompt.text
    if extras is not None:
        body.update(extras)
    elif caps is not None:
        body["stream_options"] = {"include_usage": True, "continuous_usage_stats": True}
        if caps.token_ids:
            body["return_token_ids"] = True
        if caps.ignore_eos:
            body["ignore_eos"] = True
        if caps.min_tokens:
            body["min_tokens"] = max_tokens
    return body


def url(arm: Arm, api: str) -> str:
    return f"{arm.endpoint}/v1/{'chat/completions' if api == 'chat' else 'completions'}"


async def snapshot(client: httpx.AsyncClient, arm: Arm) -> metrics.Snapshot | None:
    try:
        r = await client.get(f"{arm.endpoint}/metrics", headers=headers(arm), timeout=10)
    except httpx.HTTPError as exc:
        raise RecorderError(f"arm {arm.id}: cannot reach {arm.endpoint}/metrics ({exc}) — is the server up?") from None
    return metrics.parse(r.text) if r.status_code == 200 else None


async def settled(client: httpx.AsyncClient, arm: Arm, interval: float = 0.1, limit: float = 3.0) -> metrics.Snapshot | None:
    """A /metrics snapshot once the spec counters stop moving (they are logged a step after the stream ends)."""
    prev = await snapshot(client, arm)
    deadline = time.monotonic() + limit
    while prev is not None and time.monotonic() < deadline:
        await asyncio.sleep(interval)
        cur = await snapshot(client, arm)
        if cur is None or (cur.busy == 0 and (cur.drafts, cur.accepted, cur.per_position)
                           == (prev.drafts, prev.accepted, prev.per_position)):
            return cur
        prev = cur
    return prev


async def wait_idle(client: httpx.AsyncClient, arm: Arm, polls: int, interval: float, timeout: float) -> None:
    """Block until running + waiting == 0 on `polls` consecutive polls; RecorderError after `timeout` s."""
    deadline = time.monotonic() + timeout
    quiet = 0
    last: metrics.Snapshot | None = None
    while quiet < polls:
        last = await snapshot(client, arm)
        if last is None:
            return  # no /metrics: idleness cannot be checked (the capabilities note says so)
        quiet = quiet + 1 if last.busy == 0 else 0
        if quiet >= polls:
            return
        if time.monotonic() > deadline:
            raise RecorderError(
                f"arm {arm.id}: {arm.endpoint} stayed busy for {timeout:.0f} s "
                f"(running={last.running:g}, waiting={last.waiting:g}) — another client is using it; "
                "stop that client or raise --idle-timeout")
        await asyncio.sleep(interval)


async def identify(client: httpx.AsyncClient, arm: Arm) -> tuple[dict[str, Any], dict[str, Any]]:
    """(engine {name, version}, model info from /v1/models) as the server reports them."""
    try:
        models = await client.get(f"{arm.endpoint}/v1/models", headers=headers(arm), timeout=10)
    except httpx.HTTPError as exc:
        raise RecorderError(f"arm {arm.id}: cannot reach {arm.endpoint} ({exc}) — is the server up?") from None
    if models.status_code != 200:
        raise RecorderError(f"arm {arm.id}: GET /v1/models answered HTTP {models.status_code} — check endpoint and key")
    served = [m for m in models.json().get("data", []) if m.get("id") == arm.model]
    if not served:
        names = ", ".join(m.get("id", "?") for m in models.json().get("data", []))
        raise RecorderError(f"arm {arm.id}: the server does not serve model {arm.model!r} (it serves: {names})")
    version = None
    try:
        v = await client.get(f"{arm.endpoint}/version", headers=headers(arm), timeout=10)
        if v.status_code == 200:
            version = v.json().get("version")
    except (httpx.HTTPError, ValueError):
        pass
    info = {k: served[0][k] for k in ("root", "max_model_len") if k in served[0]}
    return {"name": arm.engine, "version": version}, info


async def probe(client: httpx.AsyncClient, arm: Arm, prompt: Prompt, timeout: float) -> Capabilities:
    """Find out which streaming extras the server honours, by asking for 3 tokens with all of them."""
    caps = Capabilities()
    caps.metrics = await snapshot(client, arm) is not None
    extras: dict[str, Any] = {"stream_options": {"include_usage": True, "continuous_usage_stats": True},
                              "return_token_ids": True, "ignore_eos": True, "min_tokens": 3}
    # Drop fields one by one while the server rejects the request (HTTP 400/422).
    for drop in (None, "return_token_ids", "min_tokens", "ignore_eos", "stream_options"):
        if drop:
            extras.pop(drop)
        body = request_body(prompt, arm, None, 3, extras)
        async with client.stream("POST", url(arm, prompt.api), json=body, headers=headers(arm), timeout=timeout) as r:
            if r.status_code in (400, 422):
                await r.aread()
                continue
            if r.status_code != 200:
                text = (await r.aread()).decode(errors="replace")[:200]
                raise RecorderError(f"arm {arm.id}: probe request answered HTTP {r.status_code}: {text}")
            async for line in r.aiter_lines():
                if not line.startswith("data:") or line[5:].strip() == "[DONE]":
                    continue
                chunk = json.loads(line[5:])
                choice = (chunk.get("choices") or [{}])[0]
                if choice.get("token_ids"):
                    caps.token_ids = True
                if chunk.get("usage"):
                    caps.final_usage = True
                    if choice:
                        caps.running_usage = True
            caps.ignore_eos = "ignore_eos" in extras
            caps.min_tokens = "min_tokens" in extras
            break
    else:
        raise RecorderError(f"arm {arm.id}: the server rejects even a plain streaming request — check model and api")
    if not caps.metrics:
        caps.notes.append("no /metrics: idle check, acceptance rate and acceptance length not measured")
    if not (caps.token_ids or caps.running_usage):
        caps.notes.append("neither token ids nor running usage in chunks: tokens per chunk assumed 1 "
                          "(speculative blocks cannot be seen)" if not caps.final_usage else
                          "neither token ids nor running usage in chunks: tokens per chunk assumed 1, "
                          "checked against the final usage")
    if not caps.final_usage:
        caps.notes.append("no usage in the stream: token totals not confirmed by the server")
    if not (caps.ignore_eos or caps.min_tokens):
        caps.notes.append("neither ignore_eos nor min_tokens accepted: output length is not forced")
    return caps
