"""Any other OpenAI-compatible server (a hosted API, a proxy): no version, no counters the recorder knows. It is
recorded all the same; the capability notes say what could not be measured (recorder/server.py)."""

from __future__ import annotations

from typing import Any

from specreplay.engines.engine import Engine, Identity


def identify(body: dict[str, Any]) -> Identity:
    return Identity(None)


ENGINE = Engine(name="openai", label="OpenAI-compatible", info_path=None, identify=identify, metrics={},
                health_path="/v1/models", serve_command=None)
