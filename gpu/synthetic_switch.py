"""A vLLM general plugin: the synthetic acceptance length chosen per request by the served model name.

vLLM 0.23's synthetic rejection sampling (speculative_config `rejection_sample_method = "synthetic"`) fixes the
acceptance length at start-up, and a 27B-class server takes minutes to start. With this plugin one server serves
every acceptance arm: it is started with `--served-model-name NAME@L1 NAME@L2 ...`; the API server copies L from
the requested name into the request's `extra_args`, and the engine core, when a request asks for another L than
the one in force, rewrites the rejection sampler's per-position rates in place, computed by vLLM's own functions
(the schedule start-up would use for that L). Requests of different L at the same time would share one L: the
recorder sends one arm at a time. The recorded `spec` counters show the acceptance that ran.

Loaded through the entry point group `vllm.general_plugins` (gpu/device.py writes the dist-info) and active only
when SPECREPLAY_SYNTHETIC_SWITCH=1 is in the server's environment. Written against vLLM 0.23.0; vLLM CPU 0.32.0
(tests/engine/test_synthetic_acceptance.py) has the same functions.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

ENV = "SPECREPLAY_SYNTHETIC_SWITCH"
KEY = "synthetic_acceptance_length"
_state: dict[str, Any] = {"length": None, "samplers": None}


def acceptance_of(model: str | None) -> float | None:
    """'w4-dflash@5.3' -> 5.3; a name without '@<number>' -> None."""
    if not model or "@" not in model:
        return None
    try:
        return float(model.rsplit("@", 1)[1])
    except ValueError:
        return None


def conditional_rates(length: float, k: int) -> list[float]:
    """The per-position conditional rates vLLM's sampler would hold had it started with this acceptance length."""
    from vllm.config.speculative import SpeculativeConfig
    from vllm.v1.spec_decode.utils import unconditional_to_conditional_rates

    return unconditional_to_conditional_rates(SpeculativeConfig._resolve_synthetic_acceptance_rates(k, None, length))


def _samplers() -> list[Any]:
    """The engine's synthetic rejection samplers (model runner V1 or V2), found once."""
    if _state["samplers"] is None:
        # vLLM freezes the heap after start-up (gc.freeze), and get_objects skips frozen objects: thaw, look, refreeze
        frozen = gc.get_freeze_count()
        gc.unfreeze()
        _state["samplers"] = [o for o in gc.get_objects() if type(o).__name__ == "RejectionSampler"
                              and getattr(o, "synthetic_conditional_rates", None) is not None]
        if frozen:
            gc.freeze()
    return _state["samplers"]


def set_length(length: float) -> int:
    """Rewrite every synthetic sampler's rates for this acceptance length; returns how many were changed."""
    import torch

    changed = 0
    for sampler in _samplers():
        rates = sampler.synthetic_conditional_rates
        new = torch.tensor(conditional_rates(length, rates.numel()), dtype=rates.dtype)
        rates.copy_(new)
        changed += 1
    return changed


def _on_request(request: Any) -> None:
    length = ((getattr(request, "sampling_params", None) and request.sampling_params.extra_args) or {}).get(KEY)
    if length is None or length == _state["length"]:
        return
    changed = set_length(float(length))
    print(f"synthetic switch: acceptance length {_state['length']} -> {length} in {changed} sampler(s)",
          file=sys.stderr, flush=True)
    if changed:
        _state["length"] = length


def _wrap_engine(core: Any) -> None:
    original = core.EngineCore.add_request

    def add_request(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        _on_request(request)
        return original(self, request, *args, **kwargs)

    core.EngineCore.add_request = add_request


def _wrap_protocol(protocol: Any, cls_name: str) -> None:
    cls = getattr(protocol, cls_name)
    original = cls.to_sampling_params

    def to_sampling_params(self: Any, *args: Any, **kwargs: Any) -> Any:
        params = original(self, *args, **kwargs)
        length = acceptance_of(getattr(self, "model", None))
        if length is not None:
            params.extra_args = {**(params.extra_args or {}), KEY: length}
        return params

    cls.to_sampling_params = to_sampling_params


def register() -> None:
    """vLLM calls this in every process (API server, engine core); each patches what it runs."""
    if os.environ.get(ENV) != "1" or _state.get("registered"):
        return
    _state["registered"] = True
    import importlib

    for module, cls_name in (("vllm.entrypoints.openai.chat_completion.protocol", "ChatCompletionRequest"),
                             ("vllm.entrypoints.openai.completion.protocol", "CompletionRequest")):
        try:
            _wrap_protocol(importlib.import_module(module), cls_name)
        except Exception as exc:  # a plugin that raises stops the server; say so and serve unpatched
            print(f"synthetic switch: {module}.{cls_name} not patched ({exc!r})", file=sys.stderr, flush=True)
    # Patched here in the API server too: its engine core process is forked from it after the plugins ran there.
    try:
        _wrap_engine(importlib.import_module("vllm.v1.engine.core"))
        print(f"synthetic switch: patched in process {os.getpid()}", file=sys.stderr, flush=True)
    except Exception as exc:
        print(f"synthetic switch: engine core not patched ({exc!r})", file=sys.stderr, flush=True)
