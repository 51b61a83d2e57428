"""One module per kind of server (specreplay/engines/): what each reads from its server, and that a new engine
is one more module the recorder picks up everywhere (its /metrics names, its stream counters, its health path)."""

import pytest

from recorder import metrics
from recorder.config import load
from specreplay import engines
from specreplay.engines import engine as common
from specreplay.engines import llamacpp, vllm
from tests.browser_fixtures import ROOT

# What SGLang would add as specreplay/engines/sglang.py (names as its /metrics and /get_server_info write them).
SGLANG = common.Engine(
    name="sglang", label="SGLang", info_path="/get_server_info",
    identify=lambda body: common.Identity(body.get("version"), "sglang"),
    metrics={"sglang:spec_verify_ct_total": common.DRAFTS, "sglang:num_running_reqs": common.RUNNING},
    health_path="/health_generate",
    serve_command=lambda program, model, name, host, port, options: [
        program, "-m", "sglang.launch_server", "--model-path", model, "--host", host, "--port", str(port), *options],
    request_counters=lambda chunk: {"meta": chunk["meta_info"]} if "meta_info" in chunk else None,
)


def test_each_engine_says_its_version_or_build_its_own_way() -> None:
    assert vllm.identify({"version": "0.23.0"}) == common.Identity("0.23.0")
    assert vllm.identify({"version": 23}) == common.Identity(None)
    said = llamacpp.identify({"build_info": "b1-0c1e570", "model_path": "/m/q4.gguf", "total_slots": 8, "x": 1})
    assert said == common.Identity("b1-0c1e570", "llama.cpp", {"model_path": "/m/q4.gguf", "total_slots": 8})
    assert llamacpp.identify({"build_info": None}) == common.Identity(None)  # the config's name is kept then


def test_llama_server_chunks_carry_the_requests_own_counters_finite_numbers_only() -> None:
    chunk = {"timings": {"draft_n": 25, "draft_n_accepted": 8, "predicted_ms": float("nan"), "flag": True}}
    assert llamacpp.request_counters(chunk) == {"timings": {"draft_n": 25, "draft_n_accepted": 8}}
    assert llamacpp.request_counters({"choices": []}) is None
    assert vllm.ENGINE.request_counters(chunk) is None


def test_each_engine_knows_how_to_start_one_with_its_counters_on() -> None:
    """llama-server exports /metrics only when asked; the bundled llama.cpp configs are written with this command
    (recorder/engine/llamacpp_configs.py), the vLLM arms' with vLLM's (recorder/engine/serve.py)."""
    assert llamacpp.serve_command("llama-server", "m.gguf", "m", "127.0.0.1", 8311, ["-t", "2"]) == [
        "llama-server", "-m", "m.gguf", "-a", "m", "-t", "2", "--metrics", "--no-webui", "--host", "127.0.0.1",
        "--port", "8311"]
    assert vllm.serve_command("python", "/w", "m", "127.0.0.1", 8001, ["--dtype", "float32"])[1:] == [
        "-m", "vllm.entrypoints.openai.api_server", "--model", "/w", "--served-model-name", "m", "--host",
        "127.0.0.1", "--port", "8001", "--dtype", "float32"]
    assert engines.named("openai").serve_command is None  # a hosted API is started by its owner
    config = (ROOT / "recorder/configs/qwen-llamacpp.toml").read_text()
    assert '"--metrics", "--no-webui", "--host", "127.0.0.1", "--port", "8311"' in config


def test_engine_names_as_recordings_store_them_and_as_pages_show_them() -> None:
    assert [e.name for e in engines.ENGINES] == ["vllm", "llama.cpp", "openai"]
    assert engines.label("vllm") == "vLLM" and engines.label("llama.cpp") == "llama.cpp"
    assert engines.label("tgi") == "tgi" and engines.named("tgi") is None
    assert engines.health_path("openai") == "/v1/models" and engines.health_path("tgi") == "/health"


def test_a_new_engine_is_one_module(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    """Listing it in ENGINES is all: the recorder reads its counters and queue, its default health URL, its
    stream counters; the pages show its label."""
    text = "sglang:spec_verify_ct_total 5\nsglang:num_running_reqs 2\n"
    assert not metrics.parse(text).has_spec
    monkeypatch.setattr(engines, "ENGINES", (*engines.ENGINES, SGLANG))
    snap = metrics.parse(text)
    assert snap.has_spec and snap.drafts == 5 and snap.busy == 2
    (tmp_path / "sglang.toml").write_text('title = "t"\n[[arms]]\nid = "a"\nendpoint = "http://127.0.0.1:30000"\n'
                'model = "m"\n'
                'engine = "sglang"\n[arms.launch]\ncommand = ["python", "-m", "sglang.launch_server"]\n'
                '[[prompts]]\nid = "p"\nkind = "chat"\ntext = "hi"\n')
    cfg = load(tmp_path / "sglang.toml")
    assert cfg.arms[0].launch is not None
    assert cfg.arms[0].launch.health_url == "http://127.0.0.1:30000/health_generate"
    assert engines.label("sglang") == "SGLang"
    assert [e.request_counters({"meta_info": {"spec_verify_ct": 3}}) for e in engines.ENGINES][-1] == {
        "meta": {"spec_verify_ct": 3}}
