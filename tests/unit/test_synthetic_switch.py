"""gpu/synthetic_switch.py without vLLM: which served names ask for which acceptance, and that the API side puts
it into the request's extra_args. No real-engine test: vLLM CPU 0.32.0's kernels do not run synthetic mode
(docs/gpu.md); the bundled H200 counters are checked in tests/unit/test_full_scale.py."""

from __future__ import annotations

from types import SimpleNamespace

from gpu import synthetic_switch as sw


def test_the_served_name_carries_the_acceptance_length():
    assert sw.acceptance_of("w4-dflash@5.3") == 5.3
    assert sw.acceptance_of("bf16-dflash@6") == 6.0
    assert sw.acceptance_of("g27-bf16") is None and sw.acceptance_of(None) is None
    assert sw.acceptance_of("user@example") is None  # not a number: left alone


def test_the_api_side_adds_the_length_to_extra_args_and_keeps_the_rest():
    class Request:
        def __init__(self, model):
            self.model = model

        def to_sampling_params(self, max_tokens):
            return SimpleNamespace(max_tokens=max_tokens, extra_args={"kv_transfer_params": 1})

    protocol = SimpleNamespace(Request=Request)
    sw._wrap_protocol(protocol, "Request")
    params = Request("w4-dflash@2.2").to_sampling_params(64)
    assert params.extra_args == {"kv_transfer_params": 1, sw.KEY: 2.2} and params.max_tokens == 64
    assert Request("g27-w4").to_sampling_params(64).extra_args == {"kv_transfer_params": 1}


def test_the_engine_side_switches_only_when_a_request_asks_for_another_length(monkeypatch):
    calls = []
    monkeypatch.setattr(sw, "set_length", lambda length: calls.append(length) or 1)
    monkeypatch.setattr(sw, "_state", {"length": None, "samplers": None})

    def request(extra):
        return SimpleNamespace(sampling_params=SimpleNamespace(extra_args=extra))

    for extra in ({sw.KEY: 5.3}, {sw.KEY: 5.3}, None, {sw.KEY: 2.2}):
        sw._on_request(request(extra))
    sw._on_request(SimpleNamespace(sampling_params=None))  # a pooling request has none
    assert calls == [5.3, 2.2] and sw._state["length"] == 2.2


def test_register_does_nothing_unless_the_server_asks_for_it(monkeypatch):
    monkeypatch.delenv(sw.ENV, raising=False)
    monkeypatch.setattr(sw, "_state", {"length": None, "samplers": None})
    sw.register()
    assert "registered" not in sw._state
