"""AIPerf's per-request export (`profile_export.jsonl`, `--export-level records`, the default) → an imported arm.

The schema is AIPerf's own (ai-dynamo/aiperf): each line is a `MetricRecordInfo`
(src/aiperf/common/models/record_models.py) — `metadata` (MetricRecordMetadata: `session_num`,
`request_start_ns`, `benchmark_phase` "warmup"/"profiling", `conversation_id`, `turn_index`, …),
`metrics` ({tag: {"value", "unit"}} in display units), `error`. The tags used here
(src/aiperf/metrics/types/): `time_to_first_token` (ms, request start → first response with content),
`inter_chunk_latency` (ms, a list: gaps between consecutive responses with content),
`output_sequence_length` (tokens), `input_sequence_length`, `request_latency` (ms).
The sibling summary `profile_export_aiperf.json` (if present) gives `aiperf_version` and the model.

With `--export-level raw` AIPerf also writes `profile_export_raw.jsonl`: per request a `RawRecordInfo`
(`metadata`, `start_perf_ns`, `payload` — the request body —, `status`, `responses`: every SSE message as
received, `{perf_ns, packets: [{name, value}]}`, `error`). Importing that file keeps every chunk's time and
text, the prompt and its parameters, and each chunk's token count where the server sent `token_ids` (vLLM with
`--extra-inputs return_token_ids:true`).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from itertools import accumulate
from pathlib import Path
from typing import Any

from specreplay.importers.common import (
    ImportedArm,
    ImportedRequest,
    count,
    dig,
    kind_of,
    need,
    parse,
    read_text,
    seconds,
)
from specreplay.recording.format import MAX_EVENT_S, SAMPLING, RecordingError

TOOL = "AIPerf"
SUMMARY = "profile_export_aiperf.json"
LACKS = [
    "Token text: profile_export.jsonl has timings and counts only; the panes show one ▪ per chunk.",
    "Tokens per chunk: inter_chunk_latency has one gap per response chunk, not per token.",
    "Prompt text and sampling parameters: only input lengths are in the file.",
    "The server's engine, version, flags and machine: AIPerf's per-request export does not record them.",
    "Speculative-decoding counters (drafts, accepted tokens): AIPerf's exports do not record them.",
]
RAW_LACKS = ["The server's engine, version, flags and machine: AIPerf does not record them.",
             "Speculative-decoding counters (drafts, accepted tokens): AIPerf's exports do not record them."]
NO_IDS = ("Tokens per chunk: the SSE messages carry no token_ids (run AIPerf with --extra-inputs "
          "return_token_ids:true against vLLM to keep them).")
_MS = {"ms": 1e-3, "s": 1.0, "us": 1e-6, "ns": 1e-9, "sec": 1.0}


WHAT = "AIPerf's profile_export.jsonl (or profile_export_raw.jsonl)"


def _seconds(metric: Any, path: Path, line: int, tag: str) -> float | list[float] | None:
    """A metric {value, unit} in seconds: a number, or a list of numbers (inter_chunk_latency)."""
    if metric is None:
        return None
    where = f"metrics.{tag}"
    unit = need(metric, "unit", str, path, line, where + ".", "ms")
    scale = _MS.get(unit)
    if scale is None:
        raise RecordingError(path, line, f"{where}.unit", f"unknown time unit {unit[:20]!r}",
                             f"use one of {', '.join(_MS)}")
    value = need(metric, "value", (int, float, list), path, line, where + ".")
    if isinstance(value, list):
        return [seconds(v * scale if _number(v) else v, path, line, f"{where}.value[{k}]")
                for k, v in enumerate(value)]
    return seconds(value * scale, path, line, f"{where}.value")


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _summary(path: Path) -> dict[str, Any]:
    """The sibling summary file, if it is there and readable; it only adds names, so a bad one is skipped."""
    summary = path.with_name(SUMMARY)
    try:
        doc = parse(summary.read_text(encoding="utf-8"), summary, 1, SUMMARY) if summary.is_file() else {}
    except (OSError, ValueError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _model(summary: dict[str, Any]) -> str | None:
    """input_config.models.items[0].name (AIPerf 0.13's BenchmarkConfig)."""
    items = dig(summary, "input_config", "models", "items")
    name = dig(items[0], "name") if isinstance(items, list) and items else None
    return name if isinstance(name, str) and name else None


def _endpoint(summary: dict[str, Any]) -> dict[str, Any]:
    endpoint = dig(summary, "input_config", "endpoint")
    return endpoint if isinstance(endpoint, dict) else {}


def _error_text(error: Any) -> str | None:
    """AIPerf's error field (an object with a message, or a string), cut to 300 characters; None: no error."""
    if not error:
        return None
    return str(error.get("message", error) if isinstance(error, dict) else error)[:300]


def _prompt_id(meta: dict, path: Path, line: int) -> str:
    """req-<session_num>[/<turn_index>]: conversation ids are random per run; session numbers line up."""
    session = need(meta, "session_num", int, path, line, "metadata.", line)
    turn = need(meta, "turn_index", int, path, line, "metadata.", 0)
    return f"req-{count(session, path, line, 'metadata.session_num')}" + (
        f"/{count(turn, path, line, 'metadata.turn_index')}" if turn else "")


def _started(meta: dict, path: Path, line: int) -> float:
    return count(need(meta, "request_start_ns", int, path, line, "metadata.", 0), path, line,
                 "metadata.request_start_ns") / 1e9


def _warmup(meta: dict, path: Path, line: int) -> bool:
    return need(meta, "benchmark_phase", str, path, line, "metadata.", "").lower() == "warmup"


def _request(rec: Any, path: Path, line: int) -> ImportedRequest:
    if not isinstance(rec, dict) or not isinstance(rec.get("metadata"), dict) or not isinstance(rec.get("metrics"), dict):
        raise RecordingError(path, line, "", "not an AIPerf record (needs metadata and metrics)",
                             "pass AIPerf's profile_export.jsonl")
    meta, metrics = rec["metadata"], rec["metrics"]
    ttft = _seconds(metrics.get("time_to_first_token"), path, line, "time_to_first_token")
    gaps = _seconds(metrics.get("inter_chunk_latency"), path, line, "inter_chunk_latency") or []
    if not isinstance(gaps, list):
        raise RecordingError(path, line, "metrics.inter_chunk_latency", "expected a list of gaps, got one number")
    if isinstance(ttft, list):
        raise RecordingError(path, line, "metrics.time_to_first_token", "expected one number, got a list")
    osl = _count_metric(metrics, "output_sequence_length", path, line)
    isl = _count_metric(metrics, "input_sequence_length", path, line)
    latency = _seconds(metrics.get("request_latency"), path, line, "request_latency")
    error = rec.get("error")
    ok = not error and ttft is not None and osl is not None and osl > 0
    # a single-chunk response has no inter_chunk_latency: its one chunk arrived at the TTFT
    times = tuple(accumulate(gaps, initial=ttft)) if ok and ttft is not None else ()
    if times and times[-1] > MAX_EVENT_S:
        raise RecordingError(path, line, "metrics.inter_chunk_latency", "the chunks add up to more than a day")
    return ImportedRequest(
        prompt=_prompt_id(meta, path, line), ok=ok, chunk_t=times, output_tokens=osl if ok else None,
        prompt_tokens=isl, started=_started(meta, path, line),
        latency=latency if isinstance(latency, float) else None,
        warmup=_warmup(meta, path, line), error=_error_text(error))


def _count_metric(metrics: dict, tag: str, path: Path, line: int) -> int | None:
    metric = metrics.get(tag)
    if metric is None:
        return None
    value = need(metric, "value", (int, float), path, line, f"metrics.{tag}.")
    if isinstance(value, float) and not value.is_integer():
        raise RecordingError(path, line, f"metrics.{tag}.value", f"expected a whole number of tokens, got {value}")
    return count(int(value), path, line, f"metrics.{tag}.value")


def _chunk(message: Any, start_ns: int, path: Path, line: int, k: int) -> tuple[float, str, list | None] | None:
    """(seconds since the request was sent, text, token ids or None) of one SSE message with choices, else None."""
    where = f"responses[{k}]"
    if not isinstance(message, dict) or type(message.get("perf_ns")) is not int:
        raise RecordingError(path, line, where, "expected {perf_ns, packets}")
    body = _data(message, path, line, k)
    choices = body.get("choices")
    if not choices:
        return None  # the final usage-only message, or [DONE]
    if not isinstance(choices, list) or not isinstance(choices[0], dict):
        raise RecordingError(path, line, f"{where}.packets.data.choices", "expected an array of objects")
    choice = choices[0]
    text = choice.get("text")
    if text is None:
        delta = choice.get("delta")
        text = (delta.get("content") if isinstance(delta, dict) else None) or ""
    if not isinstance(text, str):
        raise RecordingError(path, line, f"{where}.packets.data.choices[0].text", f"expected a string, got "
                             f"{kind_of(text)}")
    ids = choice.get("token_ids")
    if ids is not None and (not isinstance(ids, list) or not all(type(i) is int for i in ids)):
        raise RecordingError(path, line, f"{where}.packets.data.choices[0].token_ids", "expected an array of integers")
    t = seconds((message["perf_ns"] - start_ns) / 1e9, path, line, f"{where}.perf_ns (after start_perf_ns)")
    return t, text, ids


def _raw_request(rec: Any, path: Path, line: int) -> ImportedRequest:
    if not isinstance(rec, dict) or not isinstance(rec.get("responses"), list) or \
            type(rec.get("start_perf_ns")) is not int:
        raise RecordingError(path, line, "", "not an AIPerf raw record (needs start_perf_ns and responses)")
    meta = need(rec, "metadata", dict, path, line, "", {})
    chunks = [c for k, m in enumerate(rec["responses"]) if (c := _chunk(m, rec["start_perf_ns"], path, line, k))]
    if any(b[0] < a[0] for a, b in zip(chunks, chunks[1:])):
        raise RecordingError(path, line, "responses[].perf_ns", "times go backwards between messages")
    usage = next((u for k in range(len(rec["responses"]) - 1, -1, -1)
                  if isinstance(u := _data(rec["responses"][k], path, line, k).get("usage"), dict) and u), None)
    error = rec.get("error")
    status = need(rec, "status", int, path, line, "", None)
    ok = not error and status in (None, 200) and bool(chunks)
    payload = need(rec, "payload", dict, path, line, "", None) or {}
    prompt_text = payload.get("prompt") if isinstance(payload.get("prompt"), str) else \
        json.dumps(payload.get("messages"), ensure_ascii=False) if payload.get("messages") else None
    sampling = {k: v for k, v in payload.items() if k not in ("prompt", "messages", "model", "stream", "stream_options")}
    for key, types in SAMPLING.items():  # the ones a recording types: checked here, named in this file
        need(payload, key, types, path, line, "payload.", None)
    ids_known = ok and all(ids is not None for _, _, ids in chunks)
    tokens = need(usage, "completion_tokens", int, path, line, "usage.", None) if usage else None
    prompt_tokens = need(usage, "prompt_tokens", int, path, line, "usage.", None) if usage else None
    last_ns = rec["responses"][-1]["perf_ns"] if rec["responses"] else None
    return ImportedRequest(
        prompt=_prompt_id(meta, path, line), ok=ok, chunk_t=tuple(t for t, _, _ in chunks) if ok else (),
        output_tokens=tokens if tokens is not None else (sum(len(i or ()) for _, _, i in chunks) if ids_known else None),
        chunk_n=tuple(len(ids or ()) for _, _, ids in chunks) if ids_known else None,
        chunk_text=tuple(text for _, text, _ in chunks) if ok else None,
        prompt_tokens=prompt_tokens, prompt_text=prompt_text, sampling=sampling or None,
        started=_started(meta, path, line),
        latency=None if last_ns is None else seconds((last_ns - rec["start_perf_ns"]) / 1e9, path, line,
                                                     "responses[-1].perf_ns"),
        warmup=_warmup(meta, path, line), error=_error_text(error))


def _data(message: dict, path: Path, line: int, k: int) -> dict:
    """The JSON body of an SSE message's data packet ({} for none or [DONE]); RecordingError for one that is not
    a JSON object."""
    packets = message.get("packets") or []
    if not isinstance(packets, list):
        raise RecordingError(path, line, f"responses[{k}].packets", "expected an array")
    for p in packets:
        if isinstance(p, dict) and p.get("name") == "data":
            value = p.get("value")
            if not isinstance(value, str):
                raise RecordingError(path, line, f"responses[{k}].packets.value", f"expected a string, got "
                                     f"{kind_of(value)}")
            if not value.strip() or value.strip() == "[DONE]":
                return {}
            try:
                body = parse(value, path, line, WHAT)
            except json.JSONDecodeError:
                raise RecordingError(path, line, f"responses[{k}].packets", "a data packet that is not JSON") from None
            if not isinstance(body, dict):
                raise RecordingError(path, line, f"responses[{k}].packets", "a data packet that is not a JSON object")
            return body
    return {}


def read(path: Path, version: str | None = None) -> list[ImportedArm]:
    requests = []
    raw_export = False
    for i, raw in enumerate(read_text(path, WHAT).splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            rec = parse(raw, path, i, WHAT)
        except json.JSONDecodeError as exc:
            raise RecordingError(path, i, "", f"not valid JSON ({exc.msg} at column {exc.colno})",
                                 "pass AIPerf's profile_export.jsonl (JSON lines)") from None
        raw_export = isinstance(rec, dict) and "responses" in rec
        requests.append(_raw_request(rec, path, i) if raw_export else _request(rec, path, i))
    if not requests:
        raise RecordingError(path, 0, "", "no records", "pass AIPerf's profile_export.jsonl")
    summary = _summary(path)
    model = _model(summary) or "?"
    endpoint = _endpoint(summary)
    t0 = min(r.started for r in requests)
    try:
        created = datetime.fromtimestamp(t0, UTC).isoformat(timespec="seconds") if t0 else "?"
    except (OverflowError, OSError, ValueError):
        created = "?"
    # AIPerf's clock is wall time in ns; keep it relative to the first request so started_mono stays small
    requests = [ImportedRequest(**{**r.__dict__, "started": r.started - t0}) for r in requests]
    notes = ["Prompt ids are AIPerf's session numbers (req-0, req-1, …): arms from runs on the same dataset and "
             "seed share prompts.",
             "Chunk times are each SSE message with choices, perf_ns minus the request's start_perf_ns." if raw_export
             else "Chunk times are time_to_first_token, then its running sum with inter_chunk_latency.",
             "started_wall is each arm's first request_start_ns (UTC)."]
    lacks = list(RAW_LACKS if raw_export else LACKS)
    if raw_export and not all(r.chunk_n is not None for r in requests if r.ok):
        lacks.insert(0, NO_IDS)
    if not summary:
        notes.append(f"No {SUMMARY} beside the file: the model name and AIPerf version are unknown.")
    version = version or (summary.get("aiperf_version") if isinstance(summary.get("aiperf_version"), str) else None)
    kind = endpoint.get("type") if isinstance(endpoint.get("type"), str) else None
    # AIPerf names every export profile_export*.jsonl: the artifact folder names the run
    return [ImportedArm(
        arm_id=path.parent.name or path.stem, tool=TOOL, version=version,
        file=f"{path.parent.name}/{path.name}" if path.parent.name else path.name,
        label=f"{model} ({path.parent.name or path.stem})", model=model,
        engine={"name": f"{kind or 'OpenAI-compatible'} endpoint", "version": None},
        api="chat" if (kind or "chat") == "chat" else "completions", created=created,
        requests=requests, flags={k: endpoint[k] for k in ("type", "streaming", "extra") if k in endpoint},
        lacks=lacks, notes=notes)]
