"""vLLM's OpenAI-compatible server (`vllm serve`): /version, Prometheus /metrics under `vllm:` (on by default),
speculative counters summed over its engine cores. The name the config gives (default "vllm") is kept."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from specreplay.engines.engine import RUNNING, SPEC_COUNTERS, WAITING, Engine, Identity


def identify(body: dict[str, Any]) -> Identity:
    """/version: {"version": "0.23.0"}."""
    version = body.get("version")
    return Identity(version if isinstance(version, str) else None)


def serve_command(program: str, model: str, served_name: str, host: str, port: int,
                  options: Sequence[str] = ()) -> list[str]:
    """`program` is the engine venv's python: its `vllm` console script fails in the CPU build (docs/recorder.md)."""
    return [program, "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--served-model-name", served_name,
            "--host", host, "--port", str(port), *options]


ENGINE = Engine(
    name="vllm", label="vLLM", info_path="/version", identify=identify,
    metrics={**{f"vllm:{n}": n for n in SPEC_COUNTERS},
             "vllm:num_requests_running": RUNNING, "vllm:num_requests_waiting": WAITING},
    health_path="/health", serve_command=serve_command,
)
