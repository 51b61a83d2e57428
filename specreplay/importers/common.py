"""What every importer produces, and how it becomes a recording (format v1) with provenance.

An importer reads one tool's file into ImportedArms: per request, the chunk arrival times
the tool measured and whatever else its file kept. `write_recording` turns them into a
validated recording whose header says where it came from (`imported`) and what the file
lacks. Nothing missing is filled in: a request without per-chunk text gets one placeholder
per chunk, and an arm without per-chunk token counts is counted in chunks (`counts: "chunks"`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

from specreplay.format import append, create, event_dict, load
from specreplay.imported import PLACEHOLDER

@dataclass(frozen=True)
class ImportedRequest:
    prompt: str  # prompt id: the request's index (or the tool's dataset entry id), shared by arms run on one dataset
    ok: bool
    chunk_t: tuple[float, ...]  # seconds from sending the request to each streamed chunk with content
    output_tokens: int | None  # the tool's token count for the whole response
    chunk_n: tuple[int, ...] | None = None  # tokens per chunk, where the file has them
    chunk_text: tuple[str, ...] | None = None  # text per chunk, where the file has it
    text: str | None = None  # the whole generated text, where the file keeps only that
    prompt_tokens: int | None = None
    prompt_text: str | None = None  # what was sent, where the file keeps the request body
    sampling: dict[str, Any] | None = None  # the request's parameters, likewise
    started: float = 0.0  # the tool's clock when the request was sent (seconds); orders requests of one file
    latency: float | None = None  # seconds from sending to the end of the response
    warmup: bool = False
    error: str | None = None


@dataclass
class ImportedArm:
    arm_id: str  # the arm's id in the recording (made unique there)
    tool: str
    version: str | None
    file: str
    label: str
    model: str
    engine: dict[str, Any]
    api: str  # "chat" or "completions"
    created: str  # ISO 8601, the best time the file gives
    requests: list[ImportedRequest]
    flags: dict[str, Any] = field(default_factory=dict)
    lacks: list[str] = field(default_factory=list)  # plain sentences: what the file does not have
    notes: list[str] = field(default_factory=list)  # plain sentences: how fields were read
    # speculative-decoding counters over the whole run, where the file has them (format's `spec` object): written
    # as the arm's one level line, so acceptance length and per-position rates read as a sweep level's do
    spec: dict[str, Any] | None = None


COUNTED_AS_TOKENS = ("Every finished request had exactly as many content chunks as tokens, so each chunk is "
                     "counted as one token.")
COUNTED_AS_CHUNKS = ("Tokens per chunk are not in the file and some requests had a different number of chunks than "
                     "tokens, so this arm counts chunks, not tokens: its counters and rates are per chunk; the tool's "
                     "token total per request is kept as request_metrics.output_tokens.")


def max_overlap(requests: list[ImportedRequest]) -> int:
    """The most requests in flight at once, from the tool's send times and latencies (1 if unknown)."""
    spans = [(r.started, r.started + r.latency) for r in requests if r.latency is not None]
    edges = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans], key=lambda x: (x[0], x[1]))
    most = running = 0
    for _, step in edges:
        running += step
        most = max(most, running)
    return max(most, 1)


def chunk_sizes_known(arm: ImportedArm) -> bool:
    """True when every finished request's chunk sizes are known: given by the file, or one token per chunk
    because the request had exactly as many content chunks as tokens (a chunk with content carries at least one)."""
    return all(r.chunk_n is not None or len(r.chunk_t) == r.output_tokens for r in arm.requests if r.ok)


def _run(arm_id: str, req: ImportedRequest, concurrency: int, counts_tokens: bool, started_wall: str) -> dict:
    k = len(req.chunk_t)
    if not counts_tokens:
        ns = [1] * k
    elif req.chunk_n is not None:
        ns = list(req.chunk_n)
    else:
        ns = [1] * k  # as many chunks as tokens (chunk_sizes_known)
    texts = list(req.chunk_text) if req.chunk_text is not None else [PLACEHOLDER * (n if counts_tokens else 1)
                                                                      for n in ns]
    events = [event_dict(t, n, s, None) for t, n, s in zip(req.chunk_t, ns, texts)]
    metrics = {key: value for key, value in (("output_tokens", req.output_tokens),
                                             ("prompt_tokens", req.prompt_tokens),
                                             ("latency_s", req.latency), ("generated_text", req.text)) if value is not None}
    ok = req.ok and k > 0
    return {
        "type": "run", "arm": arm_id, "prompt": req.prompt, "repeat": 0, "warmup": req.warmup,
        "concurrency": concurrency, "stream": 0, "started_wall": started_wall, "started_mono": req.started,
        "events": events, "ttft": req.chunk_t[0] if k else None,
        "usage": {"completion_tokens": sum(ns)} if counts_tokens and ok else None,
        "finish_reason": None, "spec": None, "request_metrics": metrics or None,
        "status": "ok" if ok else "error",
        "error": None if ok else (req.error or "the tool recorded no streamed chunk"),
    }


def _spec_level(arm_id: str, arm: ImportedArm, level: int) -> dict:
    """The arm's level line: its window on the tool's clock and the file's speculative counters."""
    starts = [r.started for r in arm.requests]
    ends = [r.started + (r.latency or 0.0) for r in arm.requests]
    return {"type": "level", "arm": arm_id, "concurrency": level, "started_mono": min(starts, default=0.0),
            "ended_mono": max(ends, default=0.0), "spec": arm.spec, "streams": level}


def _arm_ids(arms: list[ImportedArm]) -> list[str]:
    ids: list[str] = []
    for arm in arms:
        base = arm.arm_id or "arm"
        name, i = base, 2
        while name in ids:
            name, i = f"{base}-{i}", i + 1
        ids.append(name)
    return ids


def write_recording(path: str | os.PathLike, arms: list[ImportedArm], title: str | None = None) -> Path:
    """Write the arms as one recording (refuses to overwrite), then load it back, which validates every line."""
    out = Path(path)
    if out.exists():
        raise FileExistsError(f"{out} exists; choose another -o or remove it")
    ids = _arm_ids(arms)
    for arm in arms:
        if arm.requests and all(r.chunk_n is not None for r in arm.requests if r.ok):
            continue
        arm.notes.append(COUNTED_AS_TOKENS if chunk_sizes_known(arm) else COUNTED_AS_CHUNKS)
    prompts: dict[str, dict[str, Any]] = {}
    for arm in arms:
        for req in arm.requests:
            prompts.setdefault(req.prompt, {"id": req.prompt, "kind": "chat", "text": req.prompt_text or "",
                                            "sampling": req.sampling or {}, "api": arm.api,
                                            "input_tokens": req.prompt_tokens})
    first = arms[0]
    header_arms = []
    for arm_id, arm in zip(ids, arms):
        counts_tokens = chunk_sizes_known(arm)
        header_arms.append({"id": arm_id, "label": arm.label, "model": arm.model, "engine": arm.engine,
                            "flags": arm.flags, **({} if counts_tokens else {"counts": "chunks"}),
                            "imported": {"tool": arm.tool, "version": arm.version, "file": arm.file,
                                         "lacks": arm.lacks, "notes": arm.notes}})
    header = {
        "title": title or f"{first.label} — imported from {first.tool}",
        "created": first.created,
        "machine": {"description": f"not in the {first.tool} file"},
        "arms": header_arms,
        "prompts": list(prompts.values()),
        "imported": {"tool": first.tool, "version": first.version,
                     "file": ", ".join(dict.fromkeys(a.file for a in arms)),
                     "imported_at": datetime.now(UTC).isoformat(timespec="seconds"),
                     "lacks": list(dict.fromkeys(s for a in arms for s in a.lacks)),
                     "notes": list(dict.fromkeys(s for a in arms for s in a.notes))},
    }
    create(out, header)
    for arm_id, arm in zip(ids, arms):
        counts_tokens = chunk_sizes_known(arm)
        level = max_overlap(arm.requests)
        for req in arm.requests:
            append(out, _run(arm_id, req, level, counts_tokens, arm.created))
        if arm.spec is not None:
            append(out, _spec_level(arm_id, arm, level))
    load(out)
    return out
