"""Talking to one arm's server outside of the recorded stream: identity, capabilities, /metrics, idleness."""

from __future__ import annotations

import asyncio
import base64
import json
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from recorder import metrics
from recorder.config import Arm, Prompt
from recorder.errors import RecorderError
from recorder.redact import redact
from specreplay import engines


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
    if arm.api_key:
        return {"Authorization": f"Bearer {arm.api_key}"}
    if arm.auth:
        return {"Authorization": f"Basic {_basic(arm.auth)}"}
    return {}


def _basic(auth: tuple[str, str]) -> str:
    return base64.b64encode(f"{auth[0]}:{auth[1]}".encode()).decode()


def secrets(arm: Arm) -> list[str]:
    """What must never be stored or printed for this arm (see recorder/redact.py)."""
    out = [arm.api_key] if arm.api_key else []
    if arm.auth:
        out += [x for x in (arm.auth[1], _basic(arm.auth)) if x]
    return out


class Malformed(ValueError):
    """A stream line that is JSON but not the shape of an OpenAI streaming chunk."""


def parse_chunk(data: str) -> dict[str, Any]:
    """One `data:` line as a chunk whose fields have the types the recorder reads; Malformed (a ValueError,
    as json's own errors are) names what is wrong."""
    chunk = json.loads(data)
    if not isinstance(chunk, dict):
        raise Malformed(f"a data line holds {_kind(chunk)}, not a JSON object")
    choices = chunk.get("choices")
    if choices is not None and not (isinstance(choices, list) and all(isinstance(c, dict) for c in choices)):
        raise Malformed(f"'choices' is {_kind(choices)}, not a list of objects")
    usage = chunk.get("usage")
    if usage is not None and not isinstance(usage, dict):
        raise Malformed(f"'usage' is {_kind(usage)}, not an object")
    for ch in choices or []:
        delta = ch.get("delta")
        if delta is not None and not isinstance(delta, dict):
            raise Malformed(f"'choices[].delta' is {_kind(delta)}, not an object")
        for key, value in (("delta.content", (delta or {}).get("content")), ("text", ch.get("text")),
                           ("finish_reason", ch.get("finish_reason"))):
            if value is not None and not isinstance(value, str):
                raise Malformed(f"'choices[].{key}' is {_kind(value)}, not a string")
        ids = ch.get("token_ids")
        if ids is not None and not (isinstance(ids, list) and all(isinstance(i, int) for i in ids)):
            raise Malformed(f"'choices[].token_ids' is {_kind(ids)}, not a list of integers")
    return chunk


def _kind(value: Any) -> str:
    return "null" if value is None else {str: "a string", int: "a number", float: "a number", bool: "a boolean",
                                         list: "a list", dict: "an object"}.get(type(value), type(value).__name__)


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


def chunk_problem(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON: {exc.msg} at column {exc.colno}"
    return "nested too deeply" if isinstance(exc, RecursionError) else str(exc)


def url(arm: Arm, api: str) -> str:
    return f"{arm.endpoint}/v1/{'chat/completions' if api == 'chat' else 'completions'}"


STALE_RETRIES = 16  # more than a sweep's pooled connections


async def get(client: httpx.AsyncClient, arm: Arm, path: str) -> httpx.Response:
    """GET endpoint+path, once more on a fresh connection if the pooled one turns out closed.

    llama-server sometimes closes a keep-alive connection just after a streamed response; a GET sent on it in
    that moment gets "Server disconnected without sending a response". Nothing was processed, so asking
    again is safe (a GET changes nothing on the server). A sweep level leaves up to one such connection per
    stream in the pool, hence several tries."""
    for _ in range(STALE_RETRIES):
        try:
            return await client.get(f"{arm.endpoint}{path}", headers=headers(arm), timeout=10)
        except httpx.RemoteProtocolError:
            continue  # each failure drops that connection from the pool
    return await client.get(f"{arm.endpoint}{path}", headers=headers(arm), timeout=10)


async def snapshot(client: httpx.AsyncClient, arm: Arm) -> metrics.Snapshot | None:
    try:
        r = await get(client, arm, "/metrics")
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
        models = await get(client, arm, "/v1/models")
    except httpx.HTTPError as exc:
        raise RecorderError(f"arm {arm.id}: cannot reach {arm.endpoint} ({exc}) — is the server up?") from None
    if models.status_code != 200:
        raise RecorderError(f"arm {arm.id}: GET {arm.endpoint}/v1/models answered HTTP {models.status_code} — "
                            "check endpoint and key")
    listed = _model_list(models)
    if listed is None:
        start = " ".join(models.text[:60].split())
        raise RecorderError(
            f"arm {arm.id}: GET {arm.endpoint}/v1/models answered "
            f"{models.headers.get('content-type') or 'something'} that is not a JSON model list (it starts "
            f"{start!r}) — is {arm.endpoint} the OpenAI-compatible server's base URL, without /v1?")
    served = [m for m in listed if m.get("id") == arm.model]
    if not served:
        names = ", ".join(str(m.get("id", "?")) for m in listed)
        raise RecorderError(f"arm {arm.id}: the server does not serve model {arm.model!r} (it serves: {names})")
    info: dict[str, Any] = {k: served[0][k] for k in ("root", "max_model_len") if k in served[0]}
    for kind in engines.ENGINES:  # the first engine whose info path answers a JSON object says what this is
        body = await _json(client, arm, kind.info_path) if kind.info_path else None
        if body is not None:
            said = kind.identify(body)
            info.update(said.served)
            return {"name": said.name or arm.engine, "version": said.version}, info
    return {"name": arm.engine, "version": None}, info


async def _json(client: httpx.AsyncClient, arm: Arm, path: str) -> dict[str, Any] | None:
    """GET endpoint+path as a JSON object, or None (not there, not JSON)."""
    try:
        r = await get(client, arm, path)
        body = r.json() if r.status_code == 200 else None
    except (httpx.HTTPError, ValueError, RecursionError):
        return None
    return body if isinstance(body, dict) else None


def _model_list(r: httpx.Response) -> list[dict[str, Any]] | None:
    """/v1/models' `data` list, or None when the body is not that (an HTML page, a proxy's login form ...)."""
    try:
        body = r.json()
    except (ValueError, RecursionError):
        return None
    data = body.get("data") if isinstance(body, dict) else None
    if not isinstance(data, list) or not all(isinstance(m, dict) for m in data):
        return None
    return data


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
                text = redact((await r.aread()).decode(errors="replace")[:200], secrets(arm))
                raise RecorderError(f"arm {arm.id}: probe request answered HTTP {r.status_code}: {text}")
            async for line in r.aiter_lines():
                if not line.startswith("data:") or line[5:].strip() == "[DONE]":
                    continue
                try:
                    chunk = parse_chunk(line[5:])
                except (ValueError, RecursionError) as exc:
                    raise RecorderError(
                        f"arm {arm.id}: the probe's stream from {url(arm, prompt.api)} is not OpenAI streaming JSON "
                        f"({chunk_problem(exc)}; line {redact(line[:80], secrets(arm))!r}) — is this an OpenAI-compatible "
                        "server?") from None
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
