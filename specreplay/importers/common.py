"""What every importer produces, and how it becomes a recording (format v1) with provenance.

An importer reads one tool's file into ImportedArms: per request, the chunk arrival times
the tool measured and whatever else its file kept. `write_recording` turns them into a
validated recording whose header says where it came from (`imported`) and what the file
lacks. Nothing missing is filled in: a request without per-chunk text gets one placeholder
per chunk, and an arm without per-chunk token counts is counted in chunks (`counts: "chunks"`).
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from specreplay.fields import MISSING, FieldError, typed
from specreplay.importers.imported import PLACEHOLDER
from specreplay.output import check_output, write_atomic
from specreplay.recording.format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_EVENT_S,
    MAX_ID_CHARS,
    MAX_INT,
    RecordingError,
    event_dict,
    parse_json,
    parsed_lines,
)

MAX_INPUT_BYTES = 512 * 2**20  # a result file this large is not one benchmark run; refuse before reading it


# ------------------------------------------------------------------ reading the tools' files, typed

def read_text(path: Path, what: str) -> str:
    """The file as text; one line naming it when it is empty, binary or not UTF-8 (`what`: the file expected)."""
    size = path.stat().st_size
    if size > MAX_INPUT_BYTES:
        raise RecordingError(path, 0, "", f"{size / 2**20:.0f} MiB is more than {MAX_INPUT_BYTES // 2**20} MiB",
                             f"pass {what}")
    data = path.read_bytes()
    if not data.strip():
        raise RecordingError(path, 0, "", "the file is empty", f"pass {what}")
    nul = data.find(0)
    if nul >= 0:
        raise RecordingError(path, 0, "", f"a binary file (a NUL byte at {nul})", f"pass {what}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordingError(path, 0, "", f"not UTF-8 text (byte {exc.start})", f"pass {what}") from None


def parse(text: str, path: Path, line: int, what: str) -> Any:
    """One JSON document with finite numbers; RecordingError names the file, line and field otherwise.
    json.JSONDecodeError passes through (a caller may try the text as JSON lines next)."""
    try:
        return parse_json(text)
    except RecursionError:
        raise RecordingError(path, line, "", "nested too deeply to be a result file", f"pass {what}") from None
    except json.JSONDecodeError:
        raise
    except ValueError as exc:  # NaN, 1e400, a 5,000-digit number: with the field it is in
        raise RecordingError(path, line, "", str(exc), "write times and counts as finite numbers") from None


def need(obj: Any, key: str, types: type | tuple[type, ...], path: Path, line: int, where: str = "",
         default: Any = MISSING) -> Any:
    """obj[key] of the given type (a boolean is not a number); RecordingError names the field otherwise."""
    if not isinstance(obj, dict):
        raise RecordingError(path, line, where.rstrip(".") or key, f"expected an object, got {kind_of(obj)}")
    try:
        value = typed(obj, key, types, default)
    except FieldError as exc:
        raise RecordingError(path, line, where + key, str(exc)) from None
    if isinstance(value, float) and not math.isfinite(value):
        raise RecordingError(path, line, where + key, "not a finite number")
    return value


def dig(obj: Any, *keys: str) -> Any:
    """obj[k1][k2]… where every step is an object; None where one is missing or not an object (optional parts of
    a tool's summary file, never required)."""
    for key in keys:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def seconds(value: Any, path: Path, line: int, where: str) -> float:
    """A time in seconds: a finite number from 0 to a day."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or abs(value) >= MAX_INT or \
            not math.isfinite(value):
        raise RecordingError(path, line, where, f"expected a time in seconds, got {kind_of(value)}")
    if not 0 <= value <= MAX_EVENT_S:
        raise RecordingError(path, line, where, f"{value:g} s is outside 0 s..1 day")
    return float(value)


def count(value: Any, path: Path, line: int, where: str) -> int:
    """A count: a non-negative integer (not a boolean)."""
    if type(value) is not int or not 0 <= value < MAX_INT:
        raise RecordingError(path, line, where, f"expected a non-negative integer, got {kind_of(value)}")
    return value


def kind_of(value: Any) -> str:
    if value is None or isinstance(value, (bool, dict, list)):
        return {type(None): "null", bool: "a boolean", dict: "an object", list: "an array"}[type(value)]
    return f"{type(value).__name__} {str(value)[:30]!r}" if isinstance(value, str) else repr(value)[:30]


def safe_id(text: str) -> str:
    """An arm id made from a file or folder name: characters a recording's id allows (letters, digits, . _ -)."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")
    cleaned = re.sub(r"\.{2,}", ".", cleaned)[:MAX_ID_CHARS]
    return cleaned if cleaned and cleaned[0].isalnum() else f"arm-{cleaned}".rstrip("-")[:MAX_ID_CHARS]

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
    taken: set[str] = set()
    for arm in arms:
        base = safe_id(arm.arm_id or "arm")
        name, i = base, 2
        while name in taken:
            name, i = f"{base}-{i}", i + 1
        ids.append(name)
        taken.add(name)
    return ids


def write_recording(path: str | os.PathLike, arms: list[ImportedArm], title: str | None = None, *,
                    force: bool = False, inputs: tuple[Path, ...] = ()) -> Path:
    """Write the arms as one recording: each line is built, validated and written beside `path` one at a time (a
    56.7 MB file's lines held together peaked at 4.57 GB), then the file is renamed into place, so a failure leaves
    nothing. An existing `path` is refused unless `force` (and never one of the `inputs`)."""
    out = Path(path)
    check_output(out, force=force, inputs=inputs)
    if not arms:
        raise RecordingError(out, 0, "", "nothing to import: the files hold no results")
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
    write_atomic(out, _checked(_lines(header, ids, arms), str(out)))
    return out


def _lines(header: dict[str, Any], ids: list[str], arms: list[ImportedArm]) -> Iterator[str]:
    yield json.dumps({"type": "header", "format": FORMAT_NAME, "version": FORMAT_VERSION, **header},
                     ensure_ascii=False, separators=(",", ":"))
    for arm_id, arm in zip(ids, arms):
        counts_tokens = chunk_sizes_known(arm)
        level = max_overlap(arm.requests)
        for req in arm.requests:
            yield json.dumps(_run(arm_id, req, level, counts_tokens, arm.created), ensure_ascii=False,
                             separators=(",", ":"))
        if arm.spec is not None:
            yield json.dumps(_spec_level(arm_id, arm, level), ensure_ascii=False, separators=(",", ":"))


def _checked(lines: Iterator[str], path: str) -> Iterator[str]:
    """Each line as the loader reads it, validated before it is written (parsed_lines takes one line at a time)."""
    given: list[str] = []

    def feed() -> Iterator[str]:
        for line in lines:
            given.append(line)
            yield line
    for _ in parsed_lines(feed(), path):
        yield given.pop() + "\n"
