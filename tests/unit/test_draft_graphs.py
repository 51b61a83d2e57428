"""gpu/draft_graphs.py: the vLLM 0.23.0 draft-model CUDA-graph patch.

The behaviour is checked on stand-ins for vLLM's model runner and proposer (no GPU here or in CI); the names it
patches are checked against vLLM's own source: the carried vLLM 0.23.0 (`make gpu-carry` unpacks it into
.gpu/tree/site) when it is here, else the vLLM that `make engine` installs (CPU 0.32.0)."""

from __future__ import annotations

import ast
import glob
import importlib
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from gpu import draft_graphs as dg

ROOT = Path(__file__).resolve().parents[2]


class Dispatcher:
    def __init__(self) -> None:
        self.keys_initialized = False
        self.cudagraph_mode = None

    def initialize_cudagraph_keys(self, mode: str) -> None:
        self.cudagraph_mode = mode
        self.keys_initialized = True

    def dispatch(self, num_tokens: int) -> tuple[SimpleNamespace, int]:
        name = "NONE" if not self.keys_initialized else self.cudagraph_mode
        return SimpleNamespace(name=name), num_tokens


class Proposer:
    """As vLLM 0.23's SpecDecodeBaseProposer: its own dispatcher, keys from the runner's mode (PIECEWISE)."""

    def __init__(self) -> None:
        self.cudagraph_dispatcher = Dispatcher()

    def initialize_cudagraph_keys(self, mode: str) -> None:
        self.cudagraph_dispatcher.initialize_cudagraph_keys("PIECEWISE" if mode != "NONE" else "NONE")


def runner_class(fixed_upstream: bool) -> type:
    class Runner:
        def __init__(self, method: str) -> None:
            self.speculative_config = SimpleNamespace(uses_draft_model=lambda: method == "draft_model", method=method)
            self.drafter = Proposer()
            self.cudagraph_dispatcher = Dispatcher()

        def _check_and_update_cudagraph_mode(self, backends: list, groups: list, is_profiling: bool = False) -> str:
            self.cudagraph_dispatcher.initialize_cudagraph_keys("FULL_AND_PIECEWISE")
            if self.speculative_config.method == "eagle3" or fixed_upstream:
                self.drafter.initialize_cudagraph_keys("FULL_AND_PIECEWISE")
            return "resolved"

    return Runner


@pytest.fixture(autouse=True)
def fresh_state(monkeypatch):
    monkeypatch.setattr(dg, "_state", {})


def test_as_shipped_a_draft_model_runs_every_pass_without_graphs():
    runner = runner_class(fixed_upstream=False)("draft_model")
    runner._check_and_update_cudagraph_mode([], [])
    assert runner.drafter.cudagraph_dispatcher.dispatch(1)[0].name == "NONE"


def test_patched_the_draft_models_passes_dispatch_to_piecewise_graphs(capsys):
    cls = runner_class(fixed_upstream=False)
    dg.patch(cls)
    runner = cls("draft_model")
    assert runner._check_and_update_cudagraph_mode([], [], is_profiling=True) == "resolved"
    dispatcher = runner.drafter.cudagraph_dispatcher
    assert dispatcher.keys_initialized and dispatcher.cudagraph_mode == "PIECEWISE"
    for _ in range(10):
        assert dispatcher.dispatch(4)[0].name == "PIECEWISE"
    log = capsys.readouterr().err
    assert "PR #47460" in log and "10 drafter passes, 10 replayed a CUDA graph" in log


def test_a_second_resolution_is_patched_again_and_passes_are_counted_once():
    cls = runner_class(fixed_upstream=False)
    dg.patch(cls)
    runner = cls("draft_model")
    runner._check_and_update_cudagraph_mode([], [], is_profiling=True)
    runner._check_and_update_cudagraph_mode([], [])
    runner.drafter.cudagraph_dispatcher.dispatch(1)
    assert runner.drafter.cudagraph_dispatcher.keys_initialized and dg._state["counting"] == {"PIECEWISE": 1}


def test_other_drafters_and_a_fixed_vllm_are_left_alone():
    for fixed, method in ((False, "eagle3"), (False, "ngram"), (True, "draft_model")):
        cls = runner_class(fixed_upstream=fixed)
        dg.patch(cls)
        runner = cls(method)
        runner._check_and_update_cudagraph_mode([], [])
        assert dg.after_cudagraph_mode(runner) is False
    assert "counting" not in dg._state  # nothing was wrapped


def test_register_does_nothing_unless_the_server_asks_for_it(monkeypatch):
    monkeypatch.delenv(dg.ENV, raising=False)
    dg.register()
    assert "registered" not in dg._state


def vllm_source() -> Path | None:
    """vllm/ of the carried 0.23.0 when unpacked here, else of the engine venv's vLLM."""
    carried = ROOT / ".gpu/tree/site/vllm"
    if carried.is_dir():
        return carried
    found = sorted(glob.glob(str(ROOT / ".venv-engine/lib/python3*/site-packages/vllm")))
    return Path(found[0]) if found else None


def method_source(path: Path, cls: str, method: str) -> ast.FunctionDef | None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == method:
                    return item
    return None


def test_the_patched_names_exist_in_vllms_source():
    vllm = vllm_source()
    if vllm is None:
        pytest.skip("no vLLM source here: `make engine` (CPU build) or `make gpu-carry` (the carried 0.23.0)")
    runner = method_source(vllm / "v1/worker/gpu_model_runner.py", "GPUModelRunner", dg.METHOD)
    assert runner is not None, f"{dg.METHOD} is gone from {vllm}: the patch would fail to load"
    assert dg.RUNNER_MODULE == "vllm.v1.worker.gpu_model_runner"
    proposer = method_source(vllm / "v1/spec_decode/llm_base_proposer.py", "SpecDecodeBaseProposer",
                             "initialize_cudagraph_keys")
    assert proposer is not None
    dispatcher = (vllm / "v1/cudagraph_dispatcher.py").read_text(encoding="utf-8")
    assert "self.keys_initialized = False" in dispatcher and "def dispatch(" in dispatcher
    body = ast.unparse(runner)
    assert "self.drafter.initialize_cudagraph_keys(cudagraph_mode)" in body
    version = vllm / "_version.py"
    if version.exists() and "0.23.0" in version.read_text(encoding="utf-8"):
        # the defect as carried: only EAGLE-style and extract-hidden-states drafters get keys
        guard = body.split("self.drafter.initialize_cudagraph_keys")[0].rsplit("if ", 1)[1]
        assert "use_eagle" in guard and "uses_draft_model" not in guard


def test_register_patches_the_runner_module_when_the_process_imports_it(monkeypatch, tmp_path):
    """The API server never imports the model runner; the engine core's worker does, after the plugins loaded."""
    package = tmp_path / "fakevllm"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "runner.py").write_text(
        "class GPUModelRunner:\n"
        "    def _check_and_update_cudagraph_mode(self, *a, **k):\n"
        "        return 'resolved'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(dg.ENV, "1")
    monkeypatch.setattr(dg, "RUNNER_MODULE", "fakevllm.runner")
    dg.register()
    assert "fakevllm.runner" not in sys.modules  # nothing imported at registration
    module = importlib.import_module("fakevllm.runner")
    assert module.GPUModelRunner._check_and_update_cudagraph_mode.__name__ == "checked"
    assert module.GPUModelRunner()._check_and_update_cudagraph_mode() == "resolved"
