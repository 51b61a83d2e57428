"""llama.cpp's llama-server: /props names its build, /metrics (only when started with `--metrics`) carries the
speculative counters under `llamacpp:`, and every stream's last chunk has the request's own `timings` (draft_n,
draft_n_accepted, prompt and decode times). The server names itself "llama.cpp", whatever the config says."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from specreplay.engines.engine import RUNNING, SPEC_COUNTERS, WAITING, Engine, Identity


def identify(body: dict[str, Any]) -> Identity:
    """/props: {"build_info": "b6980-c2e7f15", "model_path": ..., "total_slots": ...}."""
    build = body.get("build_info")
    if not isinstance(build, str):
        return Identity(None)
    served = {k: body[k] for k in ("model_path", "total_slots") if isinstance(body.get(k), (str, int))}
    return Identity(build, "llama.cpp", served)


def request_counters(chunk: dict[str, Any]) -> dict[str, Any] | None:
    """The chunk's `timings`, its finite numbers only."""
    timings = chunk.get("timings")
    if not isinstance(timings, dict):
        return None
    return {"timings": {k: v for k, v in timings.items()
                        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)}}


def serve_command(program: str, model: str, served_name: str, host: str, port: int,
                  options: Sequence[str] = ()) -> list[str]:
    """llama-server with /metrics on (off by default: without it no speculative counters) and no web UI."""
    return [program, "-m", model, "-a", served_name, *options, "--metrics", "--no-webui", "--host", host,
            "--port", str(port)]


ENGINE = Engine(
    name="llama.cpp", label="llama.cpp", info_path="/props", identify=identify,
    metrics={**{f"llamacpp:{n}": n for n in SPEC_COUNTERS},
             "llamacpp:requests_processing": RUNNING, "llamacpp:requests_deferred": WAITING},
    health_path="/health", serve_command=serve_command, request_counters=request_counters,
)
