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

from specreplay.format import RecordingError
from specreplay.importers.common import ImportedArm, ImportedRequest

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


def _docs(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The result objects with their line numbers (one object, or one per line with --append-result)."""
    text = path.read_text(encoding="utf-8")
    try:
        doc = json.loads(text)
        return [(1, doc)]
    except json.JSONDecodeError:
        pass
    docs = []
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            docs.append((i, json.loads(line)))
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


def _created(doc: dict) -> str:
    """The file's `date` (YYYYMMDD-HHMMSS, the bench machine's local time) as ISO 8601."""
    try:
        return datetime.strptime(str(doc.get("date")), "%Y%m%d-%H%M%S").isoformat()
    except ValueError:
        return str(doc.get("date") or "unknown")


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
    note = (f"Speculative decoding: the file's totals over the whole run ({', '.join(SPEC_KEYS)}) are kept as this "
            f"arm's level counters: acceptance length {1 + accepted / drafts:.2f}" if drafts else
            "Speculative decoding: the file's counters are kept as this arm's level counters (no drafts)")
    if isinstance(rates, list) and rates and all(isinstance(r, (int, float)) and 0 <= r <= 1 for r in rates):
        per = [r * drafts for r in rates]
        if all(abs(x - round(x)) < 1e-6 for x in per):
            spec["per_position"] = [round(x) for x in per]
            note += "; per-position accepted counts = the file's per-position rates × drafts"
        else:
            note += "; the per-position rates are not whole counts of the drafts, so they are left out"
    return spec, [note + "."]


def _arm(doc: dict, path: Path, line: int, version: str | None) -> ImportedArm:
    if not isinstance(doc, dict) or "ttfts" not in doc and "completed" not in doc:
        raise RecordingError(path, line, "", "not a vllm bench serve result", "pass the --save-result JSON file")
    ttfts = doc.get("ttfts")
    if not isinstance(ttfts, list):
        raise RecordingError(path, line, "ttfts", "missing: the result was saved without per-request details",
                             "rerun `vllm bench serve` with --save-result --save-detailed")
    n = len(ttfts)
    itls, out_lens = _list(doc, "itls", n, path, line), _list(doc, "output_lens", n, path, line)
    optional = {k: doc[k] if isinstance(doc.get(k), list) and len(doc[k]) == n else [None] * n
                for k in ("input_lens", "start_times", "latencies", "generated_texts", "errors")}
    requests = []
    for i in range(n):
        gaps = itls[i] if isinstance(itls[i], list) else None
        if gaps is None or not isinstance(ttfts[i], (int, float)) or any(
                not isinstance(g, (int, float)) or g < 0 for g in gaps):
            raise RecordingError(path, line, f"itls[{i}]", "expected a list of non-negative seconds")
        error = optional["errors"][i] or None
        ok = not error and out_lens[i] > 0
        times = tuple(accumulate(gaps, initial=float(ttfts[i]))) if ok else ()
        requests.append(ImportedRequest(
            prompt=f"req-{i}", ok=ok, chunk_t=times, output_tokens=out_lens[i] if ok else None,
            text=optional["generated_texts"][i], prompt_tokens=optional["input_lens"][i],
            started=float(optional["start_times"][i] or 0.0), latency=optional["latencies"][i],
            error=error.strip().splitlines()[-1][:300] if error else None))
    version = version or doc.get("vllm_version") or doc.get("version")
    backend = str(doc.get("backend") or doc.get("endpoint_type") or "?")
    model = str(doc.get("model_id") or "?")
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
        arm_id=path.stem, tool=TOOL, version=str(version) if version else None, file=path.name,
        label=str(doc.get("label") or f"{model} ({path.stem})"), model=model,
        engine={"name": f"{backend} endpoint", "version": None}, api="chat" if "chat" in backend else "completions",
        created=_created(doc), requests=requests, flags=flags, lacks=list(LACKS), notes=notes + spec_notes,
        spec=spec)


def read(path: Path, version: str | None = None) -> list[ImportedArm]:
    return [_arm(doc, path, line, version) for line, doc in _docs(path)]
