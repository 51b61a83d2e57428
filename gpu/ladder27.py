"""The 27B-class timing arms on the lent H200 (issue #25): model shapes, servers and the recorder configs.

    python3 -m gpu.ladder27          # rewrites recorder/configs/h200-27b-*.toml from the definitions below

Article 000's target is "Qwen3.8-27B" (not described beyond its size; the Qwen3.5/3.6-27B it presumably follows is
a hybrid of 48 Gated DeltaNet + 16 attention layers), served on a B200 with NVFP4 weights and a DFlash2 drafter at K = 7. Its weights are not needed to time the engine:
`--load-format dummy` gives random weights of the right shapes, so the kernels' timings are real and the text is
noise (timing_only). The stand-in is **Gemma-3-27B's text decoder** (public, dense, 27B: 62 layers, hidden 5376,
MLP 21504, 32 query / 16 KV heads of 128) served through vLLM's Qwen3 code path, because that is the path vLLM
0.23's DFlash drafter (and EAGLE-3) attach to. Decode at one stream reads every weight once per step, so what
the stand-in must match is the weight bytes: 25.6 B in the layers, as the article's 27B. Differences, said where
the numbers are shown: the vocabulary is SmolLM2's 49,152 (its tokenizer serves the dummy model; the article's
model has ~248k, so its lm_head is ~2 GB larger in bf16, ~15 % of the 4-bit model's bytes), and every layer is
full attention with 16 KV heads (508 KB of KV per token; the hybrid keeps 16 attention layers with 4 KV heads and
a fixed-size state per sequence in the others).

The drafter is a DFlash model of z-lab's layout (5 Qwen3 layers at the target's width, reading the hidden states
of 5 target layers, all K = 7 draft tokens in one pass), with dummy weights; vLLM 0.23's synthetic rejection
sampling sets the acceptance length to a quoted figure (`rejection_sample_method = "synthetic"`). One server per
target + drafter serves every acceptance arm: its served model names end in `@L`, and gpu/synthetic_switch.py
sets the acceptance length L per request (the recorded `spec` counters show what ran).
"""

from __future__ import annotations

import sys
from pathlib import Path

from gpu import config_toml

MODELS = Path("/tmp/models")
GIB = 2**30
# Article 000 (code 5.3-5.6, prose 2.2-2.5 at K = 7) and 001 (copy 3.1, free prose 2.2): assets/README.md.
ARTICLE_ACCEPTANCE = (2.2, 2.5, 3.1, 5.3, 5.6)
# The break-even map's grid: 1.5 ... 6 with the articles' figures in it.
GRID_ACCEPTANCE = tuple(sorted({1.5, 2.0, 3.0, 4.0, 5.0, 6.0, *ARTICLE_ACCEPTANCE}))
K = 7  # the articles' draft length (DFlash2 K = 7)
LEVELS = [1, 2, 4, 8, 16, 32, 64]

GEMMA3_27B = {"hidden_size": 5376, "intermediate_size": 21504, "num_hidden_layers": 62, "num_attention_heads": 32,
              "num_key_value_heads": 16, "head_dim": 128}
COMMON = {"vocab_size": 49152, "max_position_embeddings": 32768, "rope_theta": 1000000.0, "rms_norm_eps": 1e-06,
          "hidden_act": "silu", "tie_word_embeddings": False, "attention_bias": False, "use_sliding_window": False,
          "torch_dtype": "bfloat16", "bos_token_id": 1, "eos_token_id": 2}
TARGET = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", **GEMMA3_27B, **COMMON}
# 5 target layers tapped, spread like z-lab's Qwen3.6-27B drafter's [1, 16, 31, 46, 61] over 64 layers.
DFLASH = {"architectures": ["DFlashDraftModel"], "model_type": "qwen3", **GEMMA3_27B, **COMMON,
          "num_hidden_layers": 5, "block_size": 16, "num_target_layers": 62,
          "dflash_config": {"mask_token_id": 49151, "target_layer_ids": [1, 15, 30, 44, 59]}}
# A fallback drafter if DFlash does not start: one EAGLE-3 layer at the target's width (full vocabulary, so no
# draft-to-target id table with random entries).
EAGLE3 = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", **GEMMA3_27B, **COMMON,
          "num_hidden_layers": 1, "num_key_value_heads": 8, "draft_vocab_size": 49152}
LINEARS = ["self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
           "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"]
# gpu/device.py: GPTQ4 explains why the layers are named (dummy weights leave no checkpoint to read them from).
GPTQ4 = {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": False, "sym": True,
         "checkpoint_format": "gptq", "modules_in_block_to_quantize": [LINEARS]}

FOLDERS = {  # model folder -> config.json
    "g27-bf16": TARGET,
    "g27-gptq4": {**TARGET, "quantization_config": GPTQ4},
    "g27-dflash": DFLASH,
    "g27-eagle3": EAGLE3,
}

SHAPE = ("Gemma-3-27B text-decoder shapes (62 layers, hidden 5376, MLP 21504, 32/16 heads x 128) on vLLM's Qwen3 "
         "path, vocab 49152 (SmolLM2's tokenizer)")
SWITCH = ("one server for every acceptance arm of this target + drafter: served names NAME@L, gpu/synthetic_switch.py "
          "(a vLLM plugin) rewrites the synthetic sampler's rates for L per request with vLLM's own schedule; the "
          "spec counters per run show what ran")


def base_flags(kv_gib: int = 5) -> dict:
    return {"model_config": SHAPE, "load_format": "dummy", "dtype": "bfloat16", "max_model_len": 4096,
            "max_num_seqs": 64, "gpu_memory_utilization": 0.2, "kv_cache_memory_bytes": kv_gib * GIB,
            "VLLM_USE_FLASHINFER_SAMPLER": "0"}


def spec_config(drafter: str, acceptance: float) -> dict:
    return {"method": drafter, "model": str(MODELS / f"g27-{drafter}"), "num_speculative_tokens": K,
            "rejection_sample_method": "synthetic", "synthetic_acceptance_length": acceptance}


# server id -> (port, model folder, quantization flag, drafter): gpu/device.py starts these.
SERVERS = {
    "g27-bf16": (8021, "g27-bf16", None, None),
    "g27-w4": (8022, "g27-gptq4", None, None),
    "g27-fp8": (8023, "g27-bf16", "fp8", None),
    "g27-w4-dflash": (8024, "g27-gptq4", None, "dflash"),
    "g27-bf16-dflash": (8025, "g27-bf16", None, "dflash"),
    "g27-w4-eagle3": (8026, "g27-gptq4", None, "eagle3"),
    "g27-bf16-eagle3": (8027, "g27-bf16", None, "eagle3"),
}
WEIGHTS = {"g27-bf16": "bf16", "g27-gptq4": "4-bit GPTQ → Marlin (W4A16)"}
DRAFTER_LABEL = {"dflash": "DFlash drafter (5 layers)", "eagle3": "EAGLE-3 head (1 layer)"}


def arm_id(server: str, acceptance: float | None) -> str:
    name = server.removeprefix("g27-")
    return name if acceptance is None else f"{name}@{acceptance:g}"


def arm(server: str, acceptance: float | None = None, baseline: str | None = None) -> dict:
    """One [[arms]] table. Drafter arms carry their acceptance in speculative_config (what the engine ran with)."""
    port, folder, quant, drafter = SERVERS[server]
    flags = base_flags()
    if quant:
        flags["quantization"] = quant
    weights = "fp8 (W8A8, online)" if quant == "fp8" else WEIGHTS[folder]
    label = f"27B-class {weights}"
    if drafter:
        assert acceptance is not None
        flags["speculative_config"] = spec_config(drafter, acceptance)
        flags["synthetic_switch"] = SWITCH
        flags["SPECREPLAY_SYNTHETIC_SWITCH"] = "1"
        label += f" + {DRAFTER_LABEL[drafter]} K={K}, acceptance {acceptance:g} (synthetic)"
    table = {"id": arm_id(server, acceptance), "label": f"{label} · timing only · H200",
             "endpoint": f"http://127.0.0.1:{port}", "model": arm_id(server, acceptance) if drafter else server}
    if baseline:
        table["baseline"] = baseline
    return {**table, "flags": flags}


def server_arm(server: str, start: float | None = None) -> dict:
    """The arm whose flags start the server (a drafter server at `start`, else the grid's first acceptance)."""
    return arm(server, (start or GRID_ACCEPTANCE[0]) if SERVERS[server][3] else None)


PROMPT = {"id": "story", "kind": "long-prose", "sampling": {"temperature": 0.0},
          "text": "Write a short story about a city that wakes up one morning to find all its clocks have stopped."}

CELLS = {"repeats": 3, "warmup": 1, "max_tokens": 256}
SWEEP = {"max_tokens": 64, "levels": LEVELS, "rounds": 1}


def config(title: str, output: str, mode: dict, arms: list[dict]) -> dict:
    return {"title": title, "record": {"output": f"recordings/{output}", **mode}, "arms": arms}


TARGETS = [arm("g27-bf16"), arm("g27-w4", baseline="bf16")]


def drafter_arms(acceptances: tuple[float, ...]) -> list[dict]:
    return ([arm("g27-bf16-dflash", a, baseline="bf16") for a in acceptances]
            + [arm("g27-bf16-eagle3", a, baseline="bf16") for a in acceptances]
            + [arm("g27-w4-eagle3", a, baseline="w4") for a in acceptances])


CONFIGS = {
    # S1 on the device: bf16, 4-bit, fp8 and 4-bit + DFlash up together (the article 000 ladder)
    "h200-27b-ladder.toml": config(
        "27B-class ladder on vLLM 0.23 (NVIDIA H200): bf16 → 4-bit → 4-bit + DFlash at the articles' acceptance, "
        "and fp8; timing only (dummy weights)", "timing-only-27b-h200-ladder.jsonl", CELLS,
        [*TARGETS, arm("g27-fp8", baseline="bf16")] + [arm("g27-w4-dflash", a, baseline="w4")
                                                        for a in ARTICLE_ACCEPTANCE]),
    "h200-27b-ladder-sweep.toml": config(
        "27B-class on vLLM 0.23 (NVIDIA H200): 1-64 streams, bf16, 4-bit, fp8 and 4-bit + DFlash over synthetic "
        "acceptance 1.5-6 (the break-even map); timing only (dummy weights)", "timing-only-27b-h200-ladder-sweep.jsonl",
        SWEEP, [*TARGETS, arm("g27-fp8", baseline="bf16")] + [arm("g27-w4-dflash", a, baseline="w4")
                                                               for a in GRID_ACCEPTANCE]),
    # S2: bf16 and bf16 + DFlash (article 001's quant-vs-drafter pair); EAGLE-3 arms only if DFlash failed
    "h200-27b-drafter.toml": config(
        "27B-class on vLLM 0.23 (NVIDIA H200): bf16 + drafter at the articles' acceptance; timing only (dummy "
        "weights)", "timing-only-27b-h200-drafter.jsonl", CELLS, TARGETS + drafter_arms(ARTICLE_ACCEPTANCE)),
    "h200-27b-drafter-sweep.toml": config(
        "27B-class on vLLM 0.23 (NVIDIA H200): 1-64 streams, bf16 and bf16 + drafter over synthetic acceptance "
        "1.5-6; timing only (dummy weights)", "timing-only-27b-h200-drafter-sweep.jsonl", SWEEP,
        TARGETS + drafter_arms(GRID_ACCEPTANCE)),
}

HEAD = ["# Written by `python3 -m gpu.ladder27` (edit gpu/ladder27.py, not this file); run on the lent H200 by",
        "# gpu/device.py (docs/gpu.md). Timing only: dummy weights of a 27B-class shape; gpu/device.py writes",
        "# `timing_only: true` into the header and leaves out the arms whose server is not up."]


def config_texts() -> dict[str, str]:
    return config_toml.timing_only_texts(HEAD, CONFIGS, PROMPT)


if __name__ == "__main__":
    sys.exit(config_toml.main(config_texts()))
