"""A vLLM general plugin: CUDA graphs for a draft model's passes in vLLM 0.23.0 (the upstream fix as a patch).

vLLM 0.23.0's `GPUModelRunner._check_and_update_cudagraph_mode` (vllm/v1/worker/gpu_model_runner.py) gives the
drafter its CUDA-graph dispatch keys only for EAGLE-style and extract-hidden-states proposers. A draft model
(`speculative_config.method = "draft_model"`) keeps an empty dispatcher, so every drafter pass runs eagerly: 43-79 ms
a speculative step where a plain step takes 2 ms (docs/gpu.md). Upstream fixed exactly this in vllm-project/vllm PR
#47460 (merged after 0.23.0). This plugin does the same: after the original method, a draft-model drafter gets its
own keys through the proposer's `initialize_cudagraph_keys` (which picks PIECEWISE), from the mode the target's
dispatcher was just given.

It also counts how the drafter's passes were dispatched and prints a line at the 1st, 10th, 100th and every 250th
pass ("draft graphs: N drafter passes, M replayed a CUDA graph"), which the device's probe step reads before
recording.

Loaded through the entry point group `vllm.general_plugins` (gpu/device.py writes the dist-info); active only when
SPECREPLAY_DRAFT_GRAPHS=1 is in the server's environment. Written against vLLM 0.23.0.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import os
import sys
from typing import Any

ENV = "SPECREPLAY_DRAFT_GRAPHS"
RUNNER_MODULE = "vllm.v1.worker.gpu_model_runner"
METHOD = "_check_and_update_cudagraph_mode"
UPSTREAM = "vllm-project/vllm PR #47460"
LOG = "draft graphs:"
EVERY = 250  # a count line every this many passes (the first ~100 are start-up's capture and profiling runs)
_state: dict[str, Any] = {}


def _say(text: str) -> None:
    print(f"{LOG} {text}", file=sys.stderr, flush=True)


def count_dispatches(dispatcher: Any) -> dict[str, int]:
    """Wrap one dispatcher's `dispatch` to count its runtime modes; returns the live counts."""
    counts: dict[str, int] = {}
    original = dispatcher.dispatch

    def dispatch(*args: Any, **kwargs: Any) -> Any:
        mode, descriptor = original(*args, **kwargs)
        name = getattr(mode, "name", str(mode))
        counts[name] = counts.get(name, 0) + 1
        passes = sum(counts.values())
        if passes in (1, 10, 100) or passes % EVERY == 0:
            _say(f"{passes} drafter passes, {passes - counts.get('NONE', 0)} replayed a CUDA graph {counts}")
        return mode, descriptor

    dispatcher.dispatch = dispatch
    return counts


def _draft_dispatcher(runner: Any) -> Any | None:
    """The drafter's dispatcher when the runner drafts with a draft model, else None."""
    spec = getattr(runner, "speculative_config", None)
    if spec is None or not spec.uses_draft_model():
        return None
    return runner.drafter.cudagraph_dispatcher


def after_cudagraph_mode(runner: Any) -> bool:
    """What the upstream fix adds: keys for a draft model's dispatcher, unless the method just gave it some (a vLLM
    with the fix). True when it acted."""
    dispatcher = _draft_dispatcher(runner)
    if dispatcher is None or dispatcher.keys_initialized:
        return False
    mode = runner.cudagraph_dispatcher.cudagraph_mode  # what the original method resolved for the target
    runner.drafter.initialize_cudagraph_keys(mode)
    if "counting" not in _state:
        _state["counting"] = count_dispatches(dispatcher)
    _say(f"draft model's dispatch keys initialised from {getattr(mode, 'name', mode)} "
         f"(vLLM 0.23.0 defect, fixed upstream in {UPSTREAM})")
    return True


def patch(runner_cls: Any) -> None:
    """Run after_cudagraph_mode after every call of the runner's METHOD."""
    original = getattr(runner_cls, METHOD)

    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        dispatcher = _draft_dispatcher(self)
        if dispatcher is not None:  # the method may run more than once (profiling, then for real): judge each run
            dispatcher.keys_initialized = False
        result = original(self, *args, **kwargs)
        after_cudagraph_mode(self)
        return result

    setattr(runner_cls, METHOD, checked)


class _PatchOnImport(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Patches the model runner's module when the process imports it, so the API server (which never does) stays
    untouched: importing it there could start CUDA before the engine core process is made."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != RUNNER_MODULE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            self._loader = spec.loader
            spec.loader = self
        return spec

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        try:
            patch(module.GPUModelRunner)
            _say(f"patched in process {os.getpid()}")
        except Exception as exc:  # a plugin that raises stops the server; say so and serve unpatched
            _say(f"not patched ({exc!r})")


def register() -> None:
    """vLLM calls this in every process; the model runner lives in the engine core's worker."""
    if os.environ.get(ENV) != "1" or _state.get("registered"):
        return
    _state["registered"] = True
    if RUNNER_MODULE in sys.modules:
        patch(sys.modules[RUNNER_MODULE].GPUModelRunner)
        _say(f"patched in process {os.getpid()}")
    else:
        sys.meta_path.insert(0, _PatchOnImport())
