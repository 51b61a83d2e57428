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
from datetime import datetime, UTC
from itertools import accumulate
from pathlib import Path
from typing import Any

from specreplay.format import RecordingError
from specreplay.importers.common import ImportedArm, ImportedRequest

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


def _seconds(metric: Any, path: Path, line: int, tag: str) -> float | list[float] | None:
    if metric is None:
        return None
    if not isinstance(metric, dict) or "value" not in metric:
        raise RecordingError(path, line, f"metrics.{tag}", "expected {value, unit}")
    scale = _MS.get(str(metric.get("unit", "ms")))
    if scale is None:
        raise RecordingError(path, line, f"metrics.{tag}.unit", f"unknown time unit {metric.get('unit')!r}")
    value = metric["value"]
    if isinstance(value, list):
        return [float(v) * scale for v in value]
    return float(value) * scale


def _summary(path: Path) -> dict[str, Any]:
    summary = path.with_name(SUMMARY)
    try:
        return json.loads(summary.read_text(encoding="utf-8")) if summary.exists() else {}
    except (OSError, json.JSONDecodeError):
        return {}


def _model(summary: dict[str, Any]) -> str | None:
    """input_config.models.items[0].name (AIPerf 0.13's BenchmarkConfig)."""
    items = ((summary.get("input_config") or {}).get("models") or {}).get("items") or []
    return str(items[0].get("name")) if items and isinstance(items[0], dict) else None


def _endpoint(summary: dict[str, Any]) -> dict[str, Any]:
    return (summary.get("input_config") or {}).get("endpoint") or {}


def _error_text(error: Any) -> str | None:
    """AIPerf's error field (an object with a message, or a string), cut to 300 characters; None: no error."""
    if not error:
        return None
    return str(error.get("message", error) if isinstance(error, dict) else error)[:300]


def _request(rec: Any, path: Path, line: int) -> ImportedRequest:
    if not isinstance(rec, dict) or not isinstance(rec.get("metadata"), dict) or not isinstance(rec.get("metrics"), dict):
        raise RecordingError(path, line, "", "not an AIPerf record (needs metadata and metrics)",
                             "pass AIPerf's profile_export.jsonl")
    meta, metrics = rec["metadata"], rec["metrics"]
    ttft = _seconds(metrics.get("time_to_first_token"), path, line, "time_to_first_token")
    gaps = _seconds(metrics.get("inter_chunk_latency"), path, line, "inter_chunk_latency") or []
    if not isinstance(gaps, list):
        raise RecordingError(path, line, "metrics.inter_chunk_latency", "expected a list of gaps, got one number")
    osl = (metrics.get("output_sequence_length") or {}).get("value")
    isl = (metrics.get("input_sequence_length") or {}).get("value")
    latency = _seconds(metrics.get("request_latency"), path, line, "request_latency")
    error = rec.get("error")
    ok = not error and isinstance(ttft, float) and isinstance(osl, int) and osl > 0
    times = tuple(accumulate(gaps, initial=ttft)) if ok and isinstance(ttft, float) else ()
    # a single-chunk response has no inter_chunk_latency: its one chunk arrived at the TTFT
    prompt = f"req-{meta.get('session_num', line)}"  # conversation ids are random per run; session numbers line up
    if meta.get("turn_index"):
        prompt = f"{prompt}/{meta['turn_index']}"
    return ImportedRequest(
        prompt=str(prompt), ok=ok, chunk_t=times, output_tokens=osl if ok else None,
        prompt_tokens=isl if isinstance(isl, int) else None,
        started=int(meta.get("request_start_ns") or 0) / 1e9, latency=latency if isinstance(latency, float) else None,
        warmup=str(meta.get("benchmark_phase", "")).lower() == "warmup",
        error=_error_text(error))


def _chunk(message: Any, start_ns: int, path: Path, line: int, k: int) -> tuple[float, str, list | None] | None:
    """(seconds since the request was sent, text, token ids or None) of one SSE message with choices, else None."""
    if not isinstance(message, dict) or not isinstance(message.get("perf_ns"), int):
        raise RecordingError(path, line, f"responses[{k}]", "expected {perf_ns, packets}")
    data = next((p.get("value") for p in message.get("packets") or [] if isinstance(p, dict) and p.get("name") == "data"),
                None)
    if not data or data.strip() == "[DONE]":
        return None
    try:
        body = json.loads(data)
    except json.JSONDecodeError:
        raise RecordingError(path, line, f"responses[{k}].packets", "a data packet that is not JSON") from None
    choices = body.get("choices") if isinstance(body, dict) else None
    if not choices:
        return None  # the final usage-only message
    choice = choices[0]
    text = choice.get("text")
    if text is None:
        text = (choice.get("delta") or {}).get("content") or ""
    ids = choice.get("token_ids")
    return (message["perf_ns"] - start_ns) / 1e9, text, ids if isinstance(ids, list) else None


def _raw_request(rec: Any, path: Path, line: int) -> ImportedRequest:
    if not isinstance(rec, dict) or not isinstance(rec.get("responses"), list) or \
            not isinstance(rec.get("start_perf_ns"), int):
        raise RecordingError(path, line, "", "not an AIPerf raw record (needs start_perf_ns and responses)")
    meta = rec.get("metadata") or {}
    chunks = [c for k, m in enumerate(rec["responses"]) if (c := _chunk(m, rec["start_perf_ns"], path, line, k))]
    usage = next((b.get("usage") for m in reversed(rec["responses"]) for b in [_data(m)] if b.get("usage")), None)
    error = rec.get("error")
    ok = not error and rec.get("status") in (None, 200) and bool(chunks)
    payload = rec.get("payload") or {}
    prompt_text = payload.get("prompt") if isinstance(payload.get("prompt"), str) else \
        json.dumps(payload.get("messages"), ensure_ascii=False) if payload.get("messages") else None
    sampling = {k: v for k, v in payload.items() if k not in ("prompt", "messages", "model", "stream", "stream_options")}
    ids_known = ok and all(ids is not None for _, _, ids in chunks)
    tokens = (usage or {}).get("completion_tokens")
    prompt = f"req-{meta.get('session_num', line)}" + (f"/{meta['turn_index']}" if meta.get("turn_index") else "")
    return ImportedRequest(
        prompt=prompt, ok=ok, chunk_t=tuple(t for t, _, _ in chunks) if ok else (),
        output_tokens=tokens if isinstance(tokens, int) else (sum(len(i or ()) for _, _, i in chunks) if ids_known else None),
        chunk_n=tuple(len(ids or ()) for _, _, ids in chunks) if ids_known else None,
        chunk_text=tuple(text for _, text, _ in chunks) if ok else None,
        prompt_tokens=(usage or {}).get("prompt_tokens"), prompt_text=prompt_text, sampling=sampling or None,
        started=int(meta.get("request_start_ns") or 0) / 1e9,
        latency=(rec["responses"][-1]["perf_ns"] - rec["start_perf_ns"]) / 1e9 if rec["responses"] else None,
        warmup=str(meta.get("benchmark_phase", "")).lower() == "warmup",
        error=_error_text(error))


def _data(message: Any) -> dict:
    """The JSON body of an SSE message's data packet, or {}."""
    for p in (message or {}).get("packets") or []:
        if isinstance(p, dict) and p.get("name") == "data" and p.get("value") not in (None, "[DONE]"):
            try:
                body = json.loads(p["value"])
            except json.JSONDecodeError:
                return {}
            return body if isinstance(body, dict) else {}
    return {}


def read(path: Path, version: str | None = None) -> list[ImportedArm]:
    requests = []
    raw_export = False
    for i, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
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
    first_ns = min(int(r.started * 1e9) for r in requests)
    created = datetime.fromtimestamp(first_ns / 1e9, UTC).isoformat(timespec="seconds") if first_ns else "?"
    t0 = min(r.started for r in requests)
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
    # AIPerf names every export profile_export*.jsonl: the artifact folder names the run
    return [ImportedArm(
        arm_id=path.parent.name or path.stem, tool=TOOL, version=version or summary.get("aiperf_version"),
        file=f"{path.parent.name}/{path.name}" if path.parent.name else path.name,
        label=f"{model} ({path.parent.name or path.stem})", model=model,
        engine={"name": f"{endpoint.get('type', 'OpenAI-compatible')} endpoint", "version": None},
        api="chat" if endpoint.get("type", "chat") == "chat" else "completions", created=created,
        requests=requests, flags={k: endpoint[k] for k in ("type", "streaming", "extra") if k in endpoint},
        lacks=lacks, notes=notes)]
