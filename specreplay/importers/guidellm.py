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

from specreplay.importers.common import ImportedArm, dig, parse, read_text
from specreplay.recording.format import RecordingError

TOOL = "GuideLLM"


WHAT = "GuideLLM's JSON report (benchmarks.json; YAML is not read)"


def _requests(report: dict) -> list[dict]:
    out = []
    for bench in report.get("benchmarks") or []:
        groups = dig(bench, "requests")
        for status in ("successful", "incomplete", "errored"):
            group = dig(groups, status)
            out += [r for r in group if isinstance(r, dict)] if isinstance(group, list) else []
    return out


def _iterations(request: dict) -> int:
    n = dig(request, "info", "timings", "token_iterations")
    return n if type(n) is int and n > 0 else 0


def read(path: Path, version: str | None = None) -> list[ImportedArm]:
    try:
        report = parse(read_text(path, WHAT), path, 1, WHAT)
    except json.JSONDecodeError as exc:
        raise RecordingError(path, exc.lineno, "", f"not valid JSON ({exc.msg})", f"pass {WHAT}") from None
    if not isinstance(report, dict) or not isinstance(report.get("benchmarks"), list):
        raise RecordingError(path, 1, "benchmarks", "missing: not a GuideLLM benchmark report",
                             "pass the file `guidellm benchmark --outputs json` wrote")
    reqs = _requests(report)
    found = dig(report, "metadata", "guidellm_version")
    version = version or (found if isinstance(found, str) else None) or "?"
    iterations = sum(_iterations(r) for r in reqs)
    raise RecordingError(
        path, 1, "benchmarks[].requests[].info.timings",
        f"GuideLLM {version[:40]} keeps, for each of its {len(reqs)} requests, only the first and last token times "
        f"and the number of streamed iterations ({iterations} in all), not when each chunk arrived, so it cannot be "
        "replayed token by token without inventing times",
        "record the same server with `specreplay record`, or benchmark it with `vllm bench serve --save-detailed` "
        "or AIPerf and import that")
