"""The H200 tooling on CPU: building the carry pieces, their sizes against the device tool's limit, and the
device script's steps that need no GPU (unpacking, server command lines, model folders, recording fix-ups).

The real run is docs/gpu.md; CI never has a GPU.
"""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from gpu import carry, config_toml, device, draft_graphs, ladder27, qwen_gpu, sizes
from specreplay.recording import format as fmt
from tests.browser_fixtures import ROOT

device_unpack = device.unpack


def test_the_piece_size_leaves_room_for_the_repository_and_the_sources_in_one_call(tmp_path):
    src = tmp_path / "src"
    for folder, dest in carry.SOURCES:
        shutil.copytree(ROOT / folder, src / dest, ignore=shutil.ignore_patterns("__pycache__"))
    mib = carry.piece_mib(ROOT, src)
    # 9 MiB with the trained-drafter recordings (issue #38): ~25 staging calls for the vLLM carry; the lean working
    # tree (carry --lean, docs/gpu.md), how the last three leases carried, needs none of this room
    assert mib >= 8, "the repository has grown so much that the carry needs many more calls"
    assert carry.lean_piece_mib() == 63
    assert mib * 2**20 + carry.tracked_bytes(ROOT) + carry.tree_bytes(src) + carry.MARGIN <= carry.CALL_LIMIT


def test_built_pieces_if_any_fit_one_call_beside_the_repository():
    man_path = ROOT / ".gpu/src/gpu/manifest.json"
    if not man_path.exists():
        pytest.skip("no .gpu build here (make gpu-carry)")
    man = json.loads(man_path.read_text())
    pieces = man["pieces"]
    assert [p["dir"] for p in pieces] == [f"p{i}" for i in range(len(pieces))]
    qwen = []
    for prefix, name in carry.QWEN_FILES.items():
        listed = man.get("qwen", {}).get(name, [])
        assert [p["dir"] for p in listed] == [f"{prefix}{i}" for i in range(len(listed))]
        qwen += listed
    src = carry.tree_bytes(ROOT / ".gpu/src")
    if man.get("lean"):  # one piece per staging call, the sources with the last (partial) pieces
        assert max(p["bytes"] for p in pieces + qwen) <= carry.CALL_LIMIT - carry.LEAN_MARGIN
        assert pieces[-1]["bytes"] + src <= carry.CALL_LIMIT
    else:
        largest = max(p["bytes"] for p in pieces + qwen)
        assert largest + carry.tracked_bytes(ROOT) + src <= carry.CALL_LIMIT


def test_requirements_are_pinned_where_vllm_pins_and_skip_comments():
    reqs = carry.requirements()
    assert "compressed-tensors==0.17.0" in reqs and "outlines_core==0.2.14" in reqs and "lark==1.2.2" in reqs
    assert not any(r.startswith("#") or not r for r in reqs)
    names = [r.split("=")[0].lower() for r in reqs]
    assert len(names) == len(set(names)), "one version of each package, or the install stops"
    assert "flashinfer-python" not in names  # 427 MiB; the device sets VLLM_USE_FLASHINFER_SAMPLER=0


def _wheel(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def test_install_wheel_puts_purelib_on_top_and_leaves_scripts_out(tmp_path):
    whl = _wheel(tmp_path / "x-1.0-py3-none-any.whl", {
        "x/__init__.py": b"A = 1\n", "x-1.0.data/purelib/y.py": b"B = 2\n", "x-1.0.data/scripts/x": b"#!/bin/sh\n",
        "x-1.0.dist-info/METADATA": b"Name: x\n"})
    site = tmp_path / "site"
    carry.install_wheel(whl, site)
    assert (site / "x/__init__.py").read_text() == "A = 1\n"
    assert (site / "y.py").read_text() == "B = 2\n"
    assert not (site / "x").joinpath("x").exists() and not any(site.rglob("scripts"))


def test_trim_drops_fa2_moe_and_the_rust_front_end_but_keeps_third_party(tmp_path):
    site = tmp_path / "site"
    keep = ["vllm/_C.abi3.so", "vllm/vllm_flash_attn/_vllm_fa3_C.abi3.so", "vllm/third_party/pynvml.py",
            "vllm/third_party/flashmla/__init__.py", "vllm/third_party/deep_gemm/_C.cpython-312-x86_64-linux-gnu.so"]
    drop = ["vllm/vllm_flash_attn/_vllm_fa2_C.abi3.so", "vllm/_moe_C.abi3.so", "vllm/vllm-rs",
            "vllm/third_party/deep_gemm/_C.cpython-311-x86_64-linux-gnu.so",
            "vllm/third_party/deep_gemm/_C.cpython-314-x86_64-linux-gnu.so"]
    for rel in keep + drop:
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_bytes(b"x")
    assert sorted(carry.trim(site)) == sorted(drop)
    assert all((site / rel).exists() for rel in keep)


def _tree(tmp_path: Path, size: int) -> Path:
    tree = tmp_path / "tree"
    (tree / "site/pkg").mkdir(parents=True)
    (tree / "model").mkdir()
    (tree / "site/pkg/__init__.py").write_text("VALUE = 42\n")
    (tree / "model" / carry.GGUF_NAME).write_bytes(os.urandom(size))  # incompressible, like quantized weights
    return tree


def _pack(tree: Path, out: Path, piece_bytes: int) -> list[Path]:
    with open(carry.compress(tree), "rb") as fh:
        return carry.split(fh, out, piece_bytes)


def test_pack_splits_into_pieces_that_the_device_joins_and_unpacks(tmp_path):
    """The device's setup step (check against the manifest, cat | xz -d | tar) on pieces made by the builder."""
    out = tmp_path / "out"
    tree = _tree(tmp_path, 300_000)
    pieces = _pack(tree, out, 100_000)
    assert len(pieces) == 4 and all(p.stat().st_size <= 100_000 for p in pieces)
    assert [p.parent.name for p in pieces] == ["p0", "p1", "p2", "p3"]
    assert _pack(tree, out, 160_000) == pieces[:2] and not (out / "p2").exists(), \
        "another piece size splits the kept archive again, and no piece of the old size is left to carry"
    pieces = _pack(tree, out, 100_000)
    man = carry.manifest(pieces, out, {})
    assert man["vllm"] == f"vllm=={carry.RELEASE}" and man["train_deps"] == []
    stage = tmp_path / "stage"
    stage.mkdir()
    for p in pieces:
        shutil.copy(p, stage / p.name)
    dest = tmp_path / "carry"
    device.unpack(device.check_pieces(man["pieces"], stage), dest)
    assert (dest / "site/pkg/__init__.py").read_text() == "VALUE = 42\n"
    assert (dest / "model" / carry.GGUF_NAME).read_bytes() == (tree / "model" / carry.GGUF_NAME).read_bytes()


def test_a_missing_or_damaged_piece_is_named_before_unpacking(tmp_path):
    pieces = _pack(_tree(tmp_path, 50_000), tmp_path / "out", 30_000)
    man = carry.manifest(pieces, tmp_path / "out", {})
    stage = tmp_path / "stage"
    stage.mkdir()
    shutil.copy(pieces[0], stage / pieces[0].name)
    with pytest.raises(SystemExit, match=r"carry.tar.xz.01 was never carried \(call with carry=\['.gpu/p1'\]\)"):
        device.check_pieces(man["pieces"], stage)
    for p in pieces[1:]:
        shutil.copy(p, stage / p.name)
    (stage / pieces[1].name).write_bytes(b"\0" * pieces[1].stat().st_size)
    with pytest.raises(SystemExit, match="carry.tar.xz.01 differs from the manifest"):
        device.check_pieces(man["pieces"], stage)


def test_stage_moves_carried_pieces_out_of_the_repository(tmp_path, monkeypatch):
    (tmp_path / "repo/.gpu/p1").mkdir(parents=True)
    (tmp_path / "repo/.gpu/p1/carry.tar.xz.01").write_bytes(b"piece")
    (tmp_path / "repo/.gpu/q7").mkdir(parents=True)
    (tmp_path / "repo/.gpu/q7/q.tar.07").write_bytes(b"model")
    (tmp_path / "repo/.gpu/d2").mkdir(parents=True)
    (tmp_path / "repo/.gpu/d2/d.tar.02").write_bytes(b"draft")
    monkeypatch.setattr(device, "REPO", tmp_path / "repo")
    monkeypatch.setattr(device, "STAGE", tmp_path / "stage")
    device.stage()
    assert (tmp_path / "stage/carry.tar.xz.01").read_bytes() == b"piece"
    assert (tmp_path / "stage/q.tar.07").read_bytes() == b"model"
    assert (tmp_path / "stage/d.tar.02").read_bytes() == b"draft"
    assert not (tmp_path / "repo/.gpu/p1/carry.tar.xz.01").exists()


def test_each_real_qwen_file_travels_as_its_own_plain_tar_in_pieces_the_device_joins(tmp_path, monkeypatch):
    """The target's pieces (q*) and the draft model's (d*) unpack on their own, so a lease can carry the target
    alone; setup-qwen converts only what was carried."""
    models = tmp_path / "models"
    models.mkdir()
    for i, name in enumerate(carry.QWEN_FILES.values()):
        (models / name).write_bytes(os.urandom(40_000 + i))
    out = tmp_path / "out"
    qwen = carry.qwen_pieces(models, out, 30_000)
    assert [p.parent.name for p in qwen["q"]] == ["q0", "q1"] and qwen["q"][0].name == "q.tar.00"
    assert [p.parent.name for p in qwen["d"]] == ["d0", "d1"] and all(
        p.stat().st_size <= 30_000 for found in qwen.values() for p in found)
    man = carry.manifest([], out, qwen)
    target, draft = carry.QWEN_FILES["q"], carry.QWEN_FILES["d"]
    assert [p["name"] for p in man["qwen"][target]] == ["q.tar.00", "q.tar.01"]
    stage = tmp_path / "stage"
    stage.mkdir()
    for p in qwen["q"]:
        shutil.copy(p, stage / p.name)
    (out / "src/gpu").mkdir(parents=True)
    (out / "src/gpu/manifest.json").write_text(json.dumps(man))
    converted = []
    monkeypatch.setattr(device, "SRC", out / "src")
    monkeypatch.setattr(device, "STAGE", stage)
    monkeypatch.setattr(device, "CARRY", tmp_path / "carry")
    monkeypatch.setattr(device, "PLUGIN", tmp_path / "plugin")
    monkeypatch.setattr(device, "MODELS", tmp_path / "models-out")
    monkeypatch.setattr(qwen_gpu, "QWEN", tmp_path / "qwen")
    monkeypatch.setattr(device, "convert_gguf", lambda pairs: converted.extend(g.name for g, _ in pairs))
    monkeypatch.setattr(device, "unpack", lambda pieces, dest, xz=True, marker=".unpacked": (
        None if xz else device_unpack(pieces, dest, xz, marker)))
    device.setup_qwen()
    assert (tmp_path / "qwen" / target).read_bytes() == (models / target).read_bytes()
    assert not (tmp_path / "qwen" / draft).exists() and converted == [target]
    # what the device serves is what travels
    assert {qwen_gpu.TARGET_GGUF.name, qwen_gpu.DRAFT_GGUF.name} == set(carry.QWEN_FILES.values())
    (models / draft).unlink()
    with pytest.raises(SystemExit, match="qwen2.5-coder-0.5b-instruct.gguf not in"):
        carry.qwen_pieces(models, out, 30_000)


@pytest.fixture
def configs(monkeypatch):
    monkeypatch.setattr(device, "CONFIGS", ROOT / "recorder/configs")


def test_every_device_server_is_started_from_its_arms_flags(configs):
    for server_id in [*device.ARMS, *ladder27.SERVERS, *qwen_gpu.SERVERS, *sizes.SERVERS]:
        arm, model = device.server(server_id)
        cmd, env = device.server_command(arm, model, device.served_names(arm))
        assert cmd[cmd.index("--model") + 1] == str(model)
        assert cmd[cmd.index("--port") + 1] == arm["endpoint"].rsplit(":", 1)[1]
        assert cmd[cmd.index("--max-num-seqs") + 1] == "64"  # the sweep's top level
        assert env["VLLM_USE_FLASHINFER_SAMPLER"] == "0"  # flashinfer is not carried
        assert not {"--weights", "--model-config", "--synthetic-switch", "--weights-sha256", "--draft-weights",
                    "--draft-sha256", "--target-size", "--drafter-kind", "--draft-graphs"} & set(cmd), \
            "descriptive flags are not server flags"


def test_the_real_qwen_servers_pair_each_target_with_a_draft_model_its_loader_can_read(configs):
    """vLLM 0.23 loads a draft model with the target's loader: a GGUF target needs the GGUF draft model."""
    cmd, _ = device.server_command(*device.server("q-q4-draft"))
    assert cmd[cmd.index("--model") + 1].endswith("q4_k_m.gguf")
    assert cmd[cmd.index("--quantization") + 1] == "gguf"
    assert cmd[cmd.index("--tokenizer") + 1] == str(qwen_gpu.TARGET_BF16)  # Qwen's tokenizer, not SmolLM2's
    spec = json.loads(cmd[cmd.index("--speculative-config") + 1])
    assert spec == {"method": "draft_model", "model": str(qwen_gpu.DRAFT_GGUF), "quantization": "gguf",
                    "num_speculative_tokens": 4}
    cmd, _ = device.server_command(*device.server("q-bf16-draft"))
    assert "--quantization" not in cmd and "--tokenizer" not in cmd
    assert json.loads(cmd[cmd.index("--speculative-config") + 1])["model"] == str(qwen_gpu.DRAFT_BF16)


def test_the_real_qwen_configs_on_file_are_what_the_definitions_write_with_the_cpu_ladders_prompts(tmp_path,
                                                                                                     monkeypatch):
    from recorder import config

    monkeypatch.setenv("SPECREPLAY_LLAMA_SERVER", "llama-server")  # the CPU config names its launch command
    monkeypatch.setenv("SPECREPLAY_MODELS", str(tmp_path))

    config_toml.write_configs(tmp_path, qwen_gpu.config_texts())
    for name in qwen_gpu.configs():
        assert (tmp_path / name).read_text() == (ROOT / "recorder/configs" / name).read_text(), \
            f"run python3 -m gpu.qwen_gpu to rewrite {name}"
    cells = config.load(ROOT / "recorder/configs/h200-qwen-coder.toml")
    cpu = config.load(ROOT / "recorder/configs/qwen-llamacpp.toml")
    assert [(p.id, p.text) for p in cells.prompts] == [(p.id, p.text) for p in cpu.prompts]
    assert cells.max_tokens == cpu.max_tokens and not cells.timing_only
    assert [a.id for a in cells.arms] == ["bf16", "q4", "bf16-draft", "q4-draft", "q4-ngram"]
    sweep = config.load(ROOT / "recorder/configs/h200-qwen-coder-sweep.toml")
    assert sweep.levels == (1, 2, 4, 8, 16, 32, 64)
    assert {a.baseline for a in sweep.arms} == {None, "bf16", "q4"}


def test_a_drafter_server_serves_every_acceptance_arm_of_every_config_under_its_own_name(configs):
    arm, model = device.server("g27-w4-dflash")
    names = device.served_names(arm)
    assert names == [f"w4-dflash@{a:g}" for a in ladder27.GRID_ACCEPTANCE]
    cmd, env = device.server_command(arm, model, names)
    assert cmd[cmd.index("--served-model-name") + 1:cmd.index("--host")] == names
    assert env["SPECREPLAY_SYNTHETIC_SWITCH"] == "1"  # the plugin acts only where asked
    spec = json.loads(cmd[cmd.index("--speculative-config") + 1])
    assert spec == {"method": "dflash", "model": "/tmp/models/g27-dflash", "num_speculative_tokens": 7,
                    "rejection_sample_method": "synthetic", "synthetic_acceptance_length": 1.5}
    assert model == device.MODELS / "g27-gptq4" and "--quantization" not in cmd
    plain, _ = device.server("g27-bf16")
    assert device.served_names(plain) == ["g27-bf16"]
    assert "SPECREPLAY_SYNTHETIC_SWITCH" not in device.server_command(plain, model)[1]


def test_the_27b_configs_on_file_are_what_the_definitions_write(tmp_path):
    from recorder import config

    config_toml.write_configs(tmp_path, ladder27.config_texts())
    for name in ladder27.CONFIGS:
        assert (tmp_path / name).read_text() == (ROOT / "recorder/configs" / name).read_text(), \
            f"run python3 -m gpu.ladder27 to rewrite {name}"
        cfg = config.load(ROOT / "recorder/configs" / name)
        for arm in cfg.arms:
            spec = arm.flags.get("speculative_config")
            # the header names the acceptance each drafter arm ran at, and its name carries it to the server
            assert spec is None or arm.model.endswith(f"@{spec['synthetic_acceptance_length']:g}")
            assert arm.baseline in (None, "bf16", "w4")
    sweep = config.load(ROOT / "recorder/configs/h200-27b-ladder-sweep.toml")
    assert sweep.levels == (1, 2, 4, 8, 16, 32, 64) and sweep.max_tokens == 64 and len(sweep.prompts) == 1
    grid = sorted(a.flags["speculative_config"]["synthetic_acceptance_length"] for a in sweep.arms if a.speculative)
    assert grid[0] == 1.5 and grid[-1] == 6.0 and {2.2, 2.5, 3.1, 5.3, 5.6} <= set(grid)


def test_ngram_gguf_and_quantized_arms_get_their_own_switches(configs):
    cmd, _ = device.server_command(device.load_arm("ngram"), device.SMOL)
    spec = json.loads(cmd[cmd.index("--speculative-config") + 1])
    assert spec == {"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4, "prompt_lookup_min": 2}
    cmd, _ = device.server_command(device.load_arm("gguf-q4_1"), device.GGUF)
    assert cmd[cmd.index("--tokenizer") + 1] == str(device.SMOL)
    cmd, _ = device.server_command(device.load_arm("fp8"), device.ARMS["fp8"][1])
    assert cmd[cmd.index("--quantization") + 1] == "fp8" and cmd[cmd.index("--load-format") + 1] == "dummy"
    cmd, _ = device.server_command(device.load_arm("w4a16-gptq"), device.ARMS["w4a16-gptq"][1])
    assert "--quantization" not in cmd  # the 4-bit config comes from config.json


def test_27b_class_folders_hold_27b_of_layer_weights_and_a_dflash_drafter_reading_5_target_layers(tmp_path):
    tok = tmp_path / "tok"
    tok.mkdir()
    (tok / "tokenizer.json").write_text("{}")
    device.write_dummy_models(tok, tmp_path)
    target = json.loads((tmp_path / "g27-bf16/config.json").read_text())
    h, m, n = target["hidden_size"], target["intermediate_size"], target["num_hidden_layers"]
    q, kv = target["num_attention_heads"] * target["head_dim"], target["num_key_value_heads"] * target["head_dim"]
    layers = n * (h * (2 * q + 2 * kv) + 3 * h * m)
    assert 25e9 < layers < 27e9  # the article's 27B, less its embeddings
    drafter = json.loads((tmp_path / "g27-dflash/config.json").read_text())
    assert drafter["architectures"] == ["DFlashDraftModel"] and drafter["hidden_size"] == h
    assert len(drafter["dflash_config"]["target_layer_ids"]) == 5
    assert max(drafter["dflash_config"]["target_layer_ids"]) + 1 < n  # vLLM taps layer id + 1
    assert drafter["dflash_config"]["mask_token_id"] < target["vocab_size"]
    gptq = json.loads((tmp_path / "g27-gptq4/config.json").read_text())["quantization_config"]
    assert sorted(gptq["modules_in_block_to_quantize"][0]) == sorted(device.LINEARS)
    assert (tmp_path / "g27-gptq4/tokenizer.json").exists()


def test_the_plugin_dist_info_points_vllm_at_both_plugins(tmp_path):
    from importlib.metadata import distributions

    device.write_plugin(tmp_path)
    eps = {(ep.group, ep.value) for d in distributions(path=[str(tmp_path)]) for ep in d.entry_points}
    assert eps == {("vllm.general_plugins", "specreplay_synthetic_switch:register"),
                   ("vllm.general_plugins", "specreplay_draft_graphs:register")}
    # top-level copies: the working directory's own gpu/ comes first on a `python -m` server's path
    for module in ("synthetic_switch", "draft_graphs"):
        assert (tmp_path / f"specreplay_{module}.py").read_text() == (ROOT / f"gpu/{module}.py").read_text()


def test_probe_reads_the_spec_counters_from_metrics_text():
    text = ('# HELP x\nvllm:spec_decode_num_drafts_total{engine="0",model_name="m"} 12.0\n'
            'vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"} 51.0\n'
            'vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="m",position="0"} 12.0\n')
    assert device.spec_counters(text) == (12.0, 51.0)


def test_dummy_model_folders_have_qwen7b_shapes_smollm2_vocab_and_a_4bit_config_that_applies(tmp_path):
    tok = tmp_path / "tok"
    tok.mkdir()
    (tok / "tokenizer.json").write_text("{}")
    device.write_dummy_models(tok, tmp_path)
    bf16 = json.loads((tmp_path / "qwen2.5-7b-shape-bf16/config.json").read_text())
    assert (bf16["hidden_size"], bf16["num_hidden_layers"], bf16["vocab_size"]) == (3584, 28, 49152)
    assert "quantization_config" not in bf16
    gptq = json.loads((tmp_path / "qwen2.5-7b-shape-gptq4/config.json").read_text())["quantization_config"]
    # vLLM 0.23 quantizes only the layers listed here when there is no checkpoint to read them from
    assert sorted(gptq["modules_in_block_to_quantize"][0]) == sorted(device.LINEARS)
    assert (gptq["bits"], gptq["group_size"], gptq["desc_act"]) == (4, 128, False)
    assert (tmp_path / "qwen2.5-7b-shape-awq4/tokenizer.json").exists()


def test_drop_arms_leaves_the_rest_of_the_config_whole():
    import tomllib

    text = (ROOT / "recorder/configs/h200-timing.toml").read_text()
    cfg = tomllib.loads(device.drop_arms(text, {"w4a16-awq", "fp8"}))
    assert [a["id"] for a in cfg["arms"]] == ["bf16", "w4a16-gptq"]
    assert cfg["timing_only"] is True and cfg["record"]["levels"] == [1, 2, 4, 8, 16, 32, 64]
    assert [p["id"] for p in cfg["prompts"]] == ["prose-story"]


def test_mark_timing_only_keeps_every_line_and_loads(tmp_path):
    path = tmp_path / "rec.jsonl"
    shutil.copy(ROOT / "recordings/smollm2-vllm-cpu-sweep.jsonl", path)
    before = fmt.load(path)
    device.mark_timing_only(path)
    after = fmt.load(path)
    assert after.timing_only and not before.timing_only
    assert len(after.runs) == len(before.runs) and len(after.levels) == len(before.levels)


def test_h200_sweep_configs_hold_one_mix_each_to_64_streams():
    from recorder import config

    for mix, temps in (("greedy", {0.0}), ("sampled", {0.8})):
        cfg = config.load(ROOT / f"recorder/configs/h200-smollm2-sweep-{mix}.toml")
        assert {p.sampling["temperature"] for p in cfg.prompts} == temps
        assert cfg.levels == (1, 2, 4, 8, 16, 32, 64) and cfg.max_tokens == 128
    rec = config.load(ROOT / "recorder/configs/h200-smollm2.toml")
    assert (rec.repeats, rec.warmup, rec.max_tokens) == (3, 1, 256)
    assert [p.id for p in rec.prompts] == [p.id for p in config.load(ROOT / "recorder/configs/smollm2.toml").prompts]


def test_the_accelerator_is_read_from_nvidia_smi(tmp_path, monkeypatch):
    from recorder import machine

    fake = tmp_path / "nvidia-smi"
    fake.write_text('#!/bin/sh\nif [ -n "$1" ]; then echo "NVIDIA H200, 143771 MiB, 580.159.04"; '
                    'else echo "| NVIDIA-SMI 580.159.04   Driver Version: 580.159.04   CUDA Version: 13.0 |"; fi\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert machine.accelerator() == "NVIDIA H200 (143771 MiB), driver 580.159.04, CUDA 13.0"
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert machine.accelerator() is None


def test_record_step_records_the_arms_that_are_up_and_marks_timing_only(tmp_path, monkeypatch):
    """device.py's sweep step end to end against the scripted stub server (a fast stand-in for vLLM)."""
    import re

    from tests.stub_openai import stub_server

    src = tmp_path / "src"
    for folder, dest in carry.SOURCES:
        shutil.copytree(ROOT / folder, src / dest, ignore=shutil.ignore_patterns("__pycache__"))
    # the snapshot, not the checkout in the working directory, must be the recorder that runs
    with open(src / "recorder/machine.py", "a") as fh:
        fh.write("\n\ndef accelerator() -> str:\n    return 'the snapshot ran'\n")
    monkeypatch.chdir(ROOT)
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs/up.txt").write_text("bf16\nw4a16-gptq\n")
    for name, value in (("CONFIGS", tmp_path / "configs"), ("SRC", src), ("LOGS", tmp_path / "logs"),
                        ("RECORDINGS", tmp_path / "rec"), ("OUT", tmp_path / "out"), ("EFFECTIVE", tmp_path / "eff")):
        monkeypatch.setattr(device, name, value)
    monkeypatch.setenv("PYTHONPATH", str(src))
    with stub_server() as url:
        text = (ROOT / "recorder/configs/h200-timing.toml").read_text()
        # the up servers (bf16, w4a16-gptq: ports 8011, 8013) answer at the stub; fp8 and AWQ keep their dead ports
        text = re.sub(r"http://127\.0\.0\.1:801[13]", url, text).replace("[1, 2, 4, 8, 16, 32, 64]", "[1, 2]")
        (tmp_path / "configs").mkdir()
        text = text.replace("max_tokens = 128", "max_tokens = 3").replace("qwen7b-shape\"", "stub-model\"")
        # the host's idle wait off: the test must pass on a busy machine (only the idle check's own tests fake load)
        text = text.replace("[record]\n", "[record]\nhost_busy_max = 1\n")
        (tmp_path / "configs/h200-timing.toml").write_text(text)
        device.record("sweep", "h200-timing.toml", None)
    rec = fmt.load(tmp_path / "out/timing-only-qwen7b-shape-h200-sweep.jsonl")
    assert rec.timing_only and rec.header.machine.accelerator == "the snapshot ran"
    assert [a.id for a in rec.arms] == ["bf16", "w4a16-gptq"]
    assert {(lv.arm, lv.concurrency) for lv in rec.levels} == {(a, c) for a in ("bf16", "w4a16-gptq") for c in (1, 2)}
    assert json.loads(Path(rec.path).read_text().split("\n", 1)[0])["recorder"]["config"] == "h200-timing.toml"
    assert "leaving out" not in (tmp_path / "out/recorder.log").read_text()  # the log holds the recorder's output


def test_a_drafter_server_can_start_at_a_chosen_acceptance(configs):
    arm, _ = device.server("g27-bf16-dflash=5.3")
    assert arm["flags"]["speculative_config"]["synthetic_acceptance_length"] == 5.3
    assert arm["endpoint"] == device.server("g27-bf16-dflash")[0]["endpoint"]


def test_the_source_snapshot_starts_the_recorder_outside_a_checkout(tmp_path):
    """The device runs `python -m recorder` from .gpu/src; it must import without the checkout's data."""
    import subprocess
    import sys

    carry.snapshot_sources(ROOT, tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "src")}
    done = subprocess.run([sys.executable, "-c", "import recorder.cli, gpu.device"], cwd=tmp_path,
                          env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_size_configs_on_file_are_what_the_definitions_write(tmp_path):
    from recorder import config

    config_toml.write_configs(tmp_path, sizes.config_texts())
    for name in sizes.CONFIGS:
        assert (tmp_path / name).read_text() == (ROOT / "recorder/configs" / name).read_text(), \
            f"run python3 -m gpu.sizes to rewrite {name}"
        for arm in config.load(ROOT / "recorder/configs" / name).arms:
            spec = arm.flags.get("speculative_config")
            assert spec is None or arm.model.endswith(f"@{spec['synthetic_acceptance_length']:g}")


def test_every_draft_model_arm_says_whether_the_graph_patch_ran_and_only_patched_servers_load_it(configs):
    """Issue #29: the header names the patch and the upstream PR; the unpatched before/after arms say so too."""
    for server_id, (_, size, kind, patched) in sizes.SERVERS.items():
        arm, model = device.server(server_id)
        _, env = device.server_command(arm, model)
        assert (env.get(draft_graphs.ENV) == "1") == (kind == "draft" and patched)
        if kind == "draft":
            assert "PR #47460" in arm["flags"]["draft_graphs"]
            assert ("defect patched" in arm["flags"]["draft_graphs"]) == patched
            assert model == sizes.target_folder(size)
    for server_id in ("q-bf16-draft", "q-q4-draft"):
        assert device.server_command(*device.server(server_id))[1][draft_graphs.ENV] == "1"


def test_the_probe_reads_the_patchs_count_of_graph_replays():
    line = "(EngineCore pid=7) draft graphs: 1000 drafter passes, 791 replayed a CUDA graph {'PIECEWISE': 791}"
    assert device.draft_graph_counts("start\n" + line + "\n") == (1000, 791)
    assert device.draft_graph_counts("draft graphs: patched in process 7\n") is None


def test_the_probe_stops_a_draft_model_server_whose_passes_do_not_replay_graphs(tmp_path, monkeypatch):
    """On 2026-12-02 the first probe read start-up's line (100 passes, 33 graphed: capture and profiling runs) and
    stopped the call; a count past start-up decides."""
    monkeypatch.setattr(device, "LOGS", tmp_path)
    for text, ok in (("draft graphs: 100 drafter passes, 33 replayed a CUDA graph", False),
                     ("draft graphs: 1000 drafter passes, 791 replayed a CUDA graph", True),
                     ("draft graphs: 500 drafter passes, 40 replayed a CUDA graph", False),
                     ("draft graphs: patched in process 7", False)):
        (tmp_path / "s7b-draft.log").write_text(text + "\n")
        if ok:
            device.check_draft_graphs("s7b-draft")
        else:
            with pytest.raises(SystemExit, match="did not replay CUDA graphs"):
                device.check_draft_graphs("s7b-draft")
