"""`vllm bench serve --save-result --save-detailed` result files → imported arms.

The schema is vLLM's own (vllm/benchmarks/serve.py, `benchmark()` result dict and `main`'s
result_json; vllm/benchmarks/lib/endpoint_request_func.py for how each list is measured).
Per request i the detailed file has:

- `ttfts[i]`: seconds from sending to the first SSE message that had `choices` (for the chat
  API that is the role message, which carries no token);
- `itls[i]`: the gaps between consecutive messages with `choices`, in seconds — one per chunk,
  not per token (a speculative chunk carries several tokens);
- `output_lens[i]`: the server's `usage.completion_tokens` (0 for a failed request);
- `generated_texts[i]` (the whole text, not per chunk), `input_lens[i]`, `start_times[i]`
  (perf_counter seconds), `latencies[i]`, `errors[i]` ('' when it succeeded).

`--append-result` writes several results into one file, one JSON object per line: each becomes an arm.
"""

from __future__ import annotations

import json
from datetime import datetime
from itertools import accumulate
from pathlib import Path
from typing import Any

from specreplay.fields import type_name
from specreplay.importers.common import ImportedArm, ImportedRequest, count, kind_of, parse, read_text, seconds
from specreplay.recording.counts import SpecCounts
from specreplay.recording.format import MAX_EVENT_S, RecordingError

TOOL = "vllm bench serve"
DETAILED = ("ttfts", "itls", "output_lens")
LACKS = [
    "Token text per chunk: the file keeps each request's whole generated text only (request_metrics.generated_text); "
    "the panes show one ▪ per chunk.",
    "Tokens per chunk: itls has one gap per streamed chunk, not per token.",
    "Prompt text and sampling parameters: the file has input lengths only.",
    "The server's engine, version, flags and machine: vllm bench serve does not record them.",
    "Per-request wall-clock start times: start_times are the client's perf_counter; started_wall is the file's "
    "save time.",
]


WHAT = "the JSON file `vllm bench serve --save-result --save-detailed` wrote"


def _docs(path: Path) -> list[tuple[int, Any]]:
    """The result objects with their line numbers (one object, or one per line with --append-result)."""
    text = read_text(path, WHAT)
    try:
        return [(1, parse(text, path, 1, WHAT))]
    except json.JSONDecodeError:
        pass
    docs = []
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            docs.append((i, parse(line, path, i, WHAT)))
        except json.JSONDecodeError as exc:
            raise RecordingError(path, i, "", f"not valid JSON ({exc.msg} at column {exc.colno})",
                                 "is this a `vllm bench serve --save-result` file?") from None
    return docs


def _list(doc: dict, key: str, n: int, path: Path, line: int) -> list:
    value = doc.get(key)
    if not isinstance(value, list):
        raise RecordingError(path, line, key, "missing" if value is None else "expected an array",
                             "run `vllm bench serve` with --save-result --save-detailed")
    if len(value) != n:
        raise RecordingError(path, line, key, f"{len(value)} entries for {n} requests")
    return value


def _optional(doc: dict, key: str, n: int, types: type | tuple[type, ...], path: Path, line: int) -> list:
    """A per-request list the file may lack (or hold with another length): its entries typed, else n Nones."""
    value = doc.get(key)
    if not isinstance(value, list) or len(value) != n:
        return [None] * n
    for i, v in enumerate(value):
        if v is not None and (isinstance(v, bool) or not isinstance(v, types)):
            raise RecordingError(path, line, f"{key}[{i}]", f"expected {type_name(types)} or null, got {kind_of(v)}")
    return value


def _text(doc: dict, key: str) -> str | None:
    value = doc.get(key)
    return value if isinstance(value, str) and value else None


def _created(doc: dict) -> str:
    """The file's `date` (YYYYMMDD-HHMMSS, the bench machine's local time) as ISO 8601."""
    try:
        return datetime.strptime(str(doc.get("date")), "%Y%m%d-%H%M%S").isoformat()
    except ValueError:
        return _text(doc, "date") or "unknown"


SPEC_KEYS = ("spec_decode_num_drafts", "spec_decode_draft_tokens", "spec_decode_accepted_tokens")


def _count(value: Any) -> int | None:
    """A non-negative whole count (JSON may write 14 as 14.0), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0 or value != int(value):
        return None
    return int(value)


def _spec(doc: dict) -> tuple[dict[str, Any] | None, list[str]]:
    """The result's speculative-decoding totals (vLLM ≥ 0.11 writes spec_decode_* when the server speculated) as a
    format `spec` object, and a note saying how they were read. Per-position accepted counts are the file's
    per-position rates × drafts, kept only where that gives whole numbers (vLLM computes the rates that way)."""
    counts = [_count(doc.get(k)) for k in SPEC_KEYS]
    if any(c is None for c in counts):
        return None, []
    drafts, draft_tokens, accepted = (c for c in counts if c is not None)
    spec: dict[str, Any] = {"drafts": drafts, "draft_tokens": draft_tokens, "accepted": accepted}
    rates = doc.get("spec_decode_per_position_acceptance_rates")
    length = SpecCounts(drafts, draft_tokens, accepted).acceptance_length
    note = (f"Speculative decoding: the file's totals over the whole run ({', '.join(SPEC_KEYS)}) are kept as this "
            f"arm's level counters: acceptance length {length:.2f}" if length else
            "Speculative decoding: the file's counters are kept as this arm's level counters (no drafts)")
    if isinstance(rates, list) and rates and all(isinstance(r, (int, float)) and 0 <= r <= 1 for r in rates):
        per = [r * drafts for r in rates]
        if all(abs(x - round(x)) < 1e-6 for x in per):
            spec["per_position"] = [round(x) for x in per]
            note += "; per-position accepted counts = the file's per-position rates × drafts"
        else:
            note += "; the per-position rates are not whole counts of the drafts, so they are left out"
    return spec, [note + "."]


def _arm(doc: Any, path: Path, line: int, version: str | None) -> ImportedArm:
    if not isinstance(doc, dict) or "ttfts" not in doc and "completed" not in doc:
        raise RecordingError(path, line, "", "not a vllm bench serve result", "pass the --save-result JSON file")
    ttfts = doc.get("ttfts")
    if not isinstance(ttfts, list):
        raise RecordingError(path, line, "ttfts", "missing: the result was saved without per-request details",
                             "rerun `vllm bench serve` with --save-result --save-detailed")
    n = len(ttfts)
    itls, out_lens = _list(doc, "itls", n, path, line), _list(doc, "output_lens", n, path, line)
    optional = {"input_lens": _optional(doc, "input_lens", n, int, path, line),
                "start_times": _optional(doc, "start_times", n, (int, float), path, line),
                "latencies": _optional(doc, "latencies", n, (int, float), path, line),
                "generated_texts": _optional(doc, "generated_texts", n, str, path, line),
                "errors": _optional(doc, "errors", n, str, path, line)}
    requests = []
    for i in range(n):
        error = optional["errors"][i] or None
        tokens = count(out_lens[i], path, line, f"output_lens[{i}]")
        ok = not error and tokens > 0
        times: tuple[float, ...] = ()
        if ok:
            gaps = itls[i]
            if not isinstance(gaps, list):
                raise RecordingError(path, line, f"itls[{i}]", f"expected an array of seconds, got {kind_of(gaps)}")
            first = seconds(ttfts[i], path, line, f"ttfts[{i}]")
            times = tuple(accumulate((seconds(g, path, line, f"itls[{i}][{k}]") for k, g in enumerate(gaps)),
                                     initial=first))
            if times[-1] > MAX_EVENT_S:
                raise RecordingError(path, line, f"itls[{i}]", f"the last chunk comes {times[-1]:g} s after the "
                                     "request, more than a day")
        latency = optional["latencies"][i]
        requests.append(ImportedRequest(
            prompt=f"req-{i}", ok=ok, chunk_t=times, output_tokens=tokens if ok else None,
            text=optional["generated_texts"][i], prompt_tokens=optional["input_lens"][i],
            started=float(optional["start_times"][i] or 0.0),
            latency=None if latency is None else seconds(latency, path, line, f"latencies[{i}]"),
            error=error.strip().splitlines()[-1][:300] if error and error.strip() else
            ("failed" if error else None)))
    version = version or _text(doc, "vllm_version") or _text(doc, "version")
    backend = _text(doc, "backend") or _text(doc, "endpoint_type") or "?"
    model = _text(doc, "model_id") or "?"
    flags = {k: doc[k] for k in ("backend", "max_concurrency", "request_rate", "burstiness", "num_prompts",
                                 "tokenizer_id") if k in doc}
    notes = ["Prompt ids are request indices (req-0, req-1, …): arms from runs on the same dataset and seed "
             "share prompts.",
             "Chunk times are ttft, then ttft plus the running sum of itls."]
    if backend == "openai-chat":
        notes.append("For the chat API vllm bench serve starts TTFT at the first message with choices (the role "
                     "message), so the first chunk here may carry no token.")
    spec, spec_notes = _spec(doc)
    return ImportedArm(
        arm_id=path.stem, tool=TOOL, version=version, file=path.name,
        label=_text(doc, "label") or f"{model} ({path.stem})", model=model,
        engine={"name": f"{backend} endpoint", "version": None}, api="chat" if "chat" in backend else "completions",
        created=_created(doc), requests=requests, flags=flags, lacks=list(LACKS), notes=notes + spec_notes,
        spec=spec)


def read(path: Path, version: str | None = None) -> list[ImportedArm]:
    docs = _docs(path)
    if not docs:
        raise RecordingError(path, 0, "", "no result in the file", f"pass {WHAT}")
    return [_arm(doc, path, line, version) for line, doc in docs]
