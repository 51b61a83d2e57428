"""Importers: other benchmark tools' per-request results → recording format v1 (`specreplay import`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from specreplay.importers import aiperf, guidellm, vllm_bench
from specreplay.importers.common import ImportedArm

Reader = Callable[[Path, str | None], list[ImportedArm]]
KINDS: dict[str, tuple[Reader, str]] = {
    "vllm-bench": (vllm_bench.read, "`vllm bench serve --save-result --save-detailed` result JSON"),
    "aiperf": (aiperf.read, "AIPerf's per-request profile_export.jsonl"),
    "guidellm": (guidellm.read, "GuideLLM's benchmarks.json (explains why it cannot be replayed)"),
}
