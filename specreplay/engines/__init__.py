"""The kinds of server the recorder records, one module each (vllm, llamacpp, openai_compatible): how each says
its version or build, which /metrics names hold its speculative counters, what its stream chunks carry, how to
tell it is up. Adding an engine (SGLang, say) is one new module and its entry in ENGINES."""

from __future__ import annotations

from specreplay.engines import llamacpp, openai_compatible, vllm
from specreplay.engines.engine import Engine

# In the order the recorder asks a server who it is: the first whose info path answers decides.
ENGINES: tuple[Engine, ...] = (vllm.ENGINE, llamacpp.ENGINE, openai_compatible.ENGINE)


def named(name: str) -> Engine | None:
    """The engine a recording or config calls `name`, or None for a name no module knows."""
    return next((e for e in ENGINES if e.name == name), None)


def label(name: str) -> str:
    """How the pages show an engine's name: 'vllm' → 'vLLM'; a name no module knows is shown as written."""
    engine = named(name)
    return engine.label if engine else name


def health_path(name: str) -> str:
    """Where a launched server of this engine answers 200 once up; /health for a name no module knows (vLLM,
    llama-server and SGLang all answer there)."""
    engine = named(name)
    return engine.health_path if engine else "/health"
