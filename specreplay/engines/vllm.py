"""vLLM's OpenAI-compatible server (`vllm serve`): /version, Prometheus /metrics under `vllm:` (on by default),
speculative counters summed over its engine cores. The name the config gives (default "vllm") is kept."""

from __future__ import annotations

from typing import Any

from specreplay.engines.engine import RUNNING, SPEC_COUNTERS, WAITING, Engine, Identity


def identify(body: dict[str, Any]) -> Identity:
    """/version: {"version": "0.23.0"}."""
    version = body.get("version")
    return Identity(version if isinstance(version, str) else None)


ENGINE = Engine(
    name="vllm", label="vLLM", info_path="/version", identify=identify,
    metrics={**{f"vllm:{n}": n for n in SPEC_COUNTERS},
             "vllm:num_requests_running": RUNNING, "vllm:num_requests_waiting": WAITING},
    health_path="/health",
)
