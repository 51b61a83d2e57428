"""GuideLLM's benchmark report (`benchmarks.json`): read, and refused with the reason.

The schema is GuideLLM's own (vllm-project/guidellm): `GenerativeBenchmarksReport`
(src/guidellm/benchmark/schemas/report.py: `metadata.guidellm_version`, `benchmarks[]`), each
benchmark's `requests.successful|incomplete|errored[]` are `GenerativeRequestStats`
(src/guidellm/schemas/base/request_stats.py) whose `info.timings` (`RequestTimings`,
src/guidellm/schemas/base/info.py) hold `request_start`, `first_token_iteration`,
`last_token_iteration` and the count `token_iterations` — but no time for any chunk in between.
A token-by-token replay would have to invent those times, so the import stops and says so.
"""

from __future__ import annotations

import json
from pathlib import Path

from specreplay.format import RecordingError
from specreplay.importers.common import ImportedArm

TOOL = "GuideLLM"


def _requests(report: dict) -> list[dict]:
    out = []
    for bench in report.get("benchmarks") or []:
        groups = (bench or {}).get("requests") or {}
        for status in ("successful", "incomplete", "errored"):
            out += [r for r in groups.get(status) or [] if isinstance(r, dict)]
    return out


def read(path: Path, version: str | None = None) -> list[ImportedArm]:
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RecordingError(path, exc.lineno, "", f"not valid JSON ({exc.msg})",
                             "pass GuideLLM's JSON report (benchmarks.json; YAML is not read)") from None
    if not isinstance(report, dict) or not isinstance(report.get("benchmarks"), list):
        raise RecordingError(path, 1, "benchmarks", "missing: not a GuideLLM benchmark report",
                             "pass the file `guidellm benchmark --outputs json` wrote")
    reqs = _requests(report)
    timings = [((r.get("info") or {}).get("timings") or {}) for r in reqs]
    version = version or (report.get("metadata") or {}).get("guidellm_version") or "?"
    iterations = sum(int(t.get("token_iterations") or 0) for t in timings)
    raise RecordingError(
        path, 1, "benchmarks[].requests[].info.timings",
        f"GuideLLM {version} keeps, for each of its {len(reqs)} requests, only the first and last token times and "
        f"the number of streamed iterations ({iterations} in all), not when each chunk arrived, so it cannot be "
        "replayed token by token without inventing times",
        "record the same server with `specreplay record`, or benchmark it with `vllm bench serve --save-detailed` "
        "or AIPerf and import that")
