"""The real Qwen2.5-Coder-1.5B on the lent GPU: servers and configs.

    python3 -m gpu.qwen_gpu          # rewrites recorder/configs/h200-qwen-coder*.toml and gpu-qwen-coder-eagle3*.toml

Two studies. Issue #25 (vLLM 0.23.0, H200): bf16 → 4-bit → the 0.5B draft model, servers q-*. Issue #38 (RELEASE,
gpu/carry.py): bf16 alone, with the EAGLE-3 head we trained for it (gpu/drafter_train.py) at K = 3, 4 and 5, with
n-gram lookup and with the 0.5B draft model (no patch: the release has the upstream fix), servers t-*.

The CPU ladder's model pair (docs/llamacpp.md) served by vLLM 0.23 on the GPU: real weights, real text, real
acceptance. The two GGUF files travel as they are (`gpu/carry.py --qwen`); the device converts each to a bf16
Hugging Face folder (the GGUF's values written back as 16-bit numbers: the 1.5B's bf16 arm has a 16-bit model's
speed and the 4-bit model's text, as the CPU's F16 arm) and serves the Q4_K_M file itself through vLLM's GGUF
kernels as the 4-bit arm. vLLM loads a draft model with the target's loader, so the GGUF target gets the 0.5B GGUF
as its draft model and the bf16 target the 0.5B's bf16 folder. The prompts are the CPU ladder's, so the two
machines answer the same questions.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gpu import carry, config_toml, draft_graphs, drafter_train, sizes

MODELS = Path("/tmp/models")
QWEN = Path("/tmp/carry/qwen")  # where gpu/device.py's setup-qwen unpacks the carried GGUFs
TARGET_GGUF = QWEN / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
DRAFT_GGUF = QWEN / "qwen2.5-coder-0.5b-instruct.gguf"
TARGET_BF16 = MODELS / "qwen2.5-coder-1.5b-bf16"
DRAFT_BF16 = MODELS / "qwen2.5-coder-0.5b-bf16"
CONVERSIONS = ((TARGET_GGUF, TARGET_BF16), (DRAFT_GGUF, DRAFT_BF16))
SHA256 = {  # the files' pins (recorder/engine/llamacpp_configs.py: SHA256)
    TARGET_GGUF.name: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    DRAFT_GGUF.name: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
}
K = 4  # the CPU ladder's draft length (docs/llamacpp.md), so the two machines run the same drafter
LEVELS = [1, 2, 4, 8, 16, 32, 64]
BF16_WEIGHTS = ("Qwen2.5-Coder-1.5B-Instruct Q4_K_M GGUF dequantized to bf16 on the device: 16-bit weights holding "
                "the 4-bit model's values (16-bit speed, 4-bit text)")
Q4_WEIGHTS = "Qwen2.5-Coder-1.5B-Instruct Q4_K_M GGUF (4-bit), served as the GGUF file by vLLM's GGUF kernels"
DRAFT_WEIGHTS = {"bf16": "Qwen2.5-Coder-0.5B-Instruct GGUF (Q5_0/Q8_0) dequantized to bf16",
                 "gguf": "Qwen2.5-Coder-0.5B-Instruct GGUF (Q5_0/Q8_0), served as the GGUF file"}
# server id -> (port, what --model points at, drafter: None, "bf16" / "gguf" draft model, or "ngram")
SERVERS = {
    "q-bf16": (8031, TARGET_BF16, None),
    "q-q4": (8032, TARGET_GGUF, None),
    "q-bf16-draft": (8033, TARGET_BF16, "bf16"),
    "q-q4-draft": (8034, TARGET_GGUF, "gguf"),
    "q-q4-ngram": (8035, TARGET_GGUF, "ngram"),
}
BASELINE = {"q-q4": "bf16", "q-bf16-draft": "bf16", "q-q4-draft": "q4", "q-q4-ngram": "q4"}
LABEL = {"q-bf16": "Qwen2.5-Coder-1.5B · bf16 (16-bit weights, 4-bit values)",
         "q-q4": "Qwen2.5-Coder-1.5B · Q4_K_M 4-bit"}


def speculative(drafter: str) -> dict:
    if drafter == "ngram":
        return {"method": "ngram", "num_speculative_tokens": K, "prompt_lookup_max": 4, "prompt_lookup_min": 2}
    if drafter == "gguf":
        return {"method": "draft_model", "model": str(DRAFT_GGUF), "quantization": "gguf",
                "num_speculative_tokens": K}
    return {"method": "draft_model", "model": str(DRAFT_BF16), "num_speculative_tokens": K}


def arm(server: str) -> dict:
    """One [[arms]] table; its flags are what gpu/device.py starts the server with."""
    port, model, drafter = SERVERS[server]
    gguf = model.suffix == ".gguf"
    flags: dict = {"weights": Q4_WEIGHTS if gguf else BF16_WEIGHTS, "weights_sha256": SHA256[TARGET_GGUF.name]}
    if gguf:
        flags |= {"quantization": "gguf", "tokenizer": str(TARGET_BF16)}
    flags |= {"dtype": "bfloat16", "max_model_len": 4096, "max_num_seqs": 64, "gpu_memory_utilization": 0.2,
              "kv_cache_memory_bytes": 4 * 2**30, "VLLM_USE_FLASHINFER_SAMPLER": "0"}
    label = LABEL["q-q4" if gguf else "q-bf16"]
    if drafter:
        flags["speculative_config"] = speculative(drafter)
        if drafter == "ngram":
            label += f" + n-gram lookup k={K}"
        else:
            flags |= {"draft_weights": DRAFT_WEIGHTS[drafter], "draft_sha256": SHA256[DRAFT_GGUF.name],
                      "draft_graphs": sizes.PATCH, draft_graphs.ENV: "1"}
            label += f" + 0.5B draft model K={K}"
    table = {"id": server.removeprefix("q-"), "label": f"{label} · vLLM 0.23 · H200",
             "endpoint": f"http://127.0.0.1:{port}", "model": "qwen2.5-coder-1.5b"}
    if server in BASELINE:
        table["baseline"] = BASELINE[server]
    return {**table, "flags": flags}


# Issue #38: the trained head. HEAD_SHA256 stands in the configs for the head's digest, which exists only once the
# device has trained it: gpu/device.py's record step writes the digest from HEAD/sha256.txt in its place.
HEAD_SHA256 = "@head-sha256"
TRAINED_KS = (3, 4, 5)
TRAINED = {  # server id -> (port, drafter: None, ("eagle3", K), "ngram", "draft" or "v1")
    "t-bf16": (8041, None),
    **{f"t-eagle3-k{k}": (8041 + i + 1, ("eagle3", k)) for i, k in enumerate(TRAINED_KS)},
    "t-ngram": (8045, "ngram"),
    "t-draft": (8046, "draft"),
    "t-bf16-v1": (8047, "v1"),
}
# vLLM 0.26.0 runs n-gram and draft-model speculation on the V1 model runner only (vllm/config/vllm.py,
# _get_v2_model_runner_unsupported_features); bf16 alone on V1 separates the runner's cost from the drafter's.
V1_RUNNER = {"VLLM_USE_V2_MODEL_RUNNER": "0"}
RUNNER_ONLY = ("t-bf16-v1",)  # in the runner study's files only (the eagle3 files were recorded without it)
RUNNER_STUDY = ("t-bf16", "t-bf16-v1", "t-ngram", "t-draft")
HEAD_WEIGHTS = ("EAGLE-3 head trained here for this target with vLLM's speculators 0.9.0 (gpu/drafter_train.py): "
                "one Llama layer on the target's layers 2, 14, 25, draft vocabulary 16,384, on the target's own "
                "answers to prompts disjoint from the recorded ones")


def trained_arm(server: str) -> dict:
    """One [[arms]] table of issue #38's study (vLLM RELEASE, bf16 target)."""
    port, drafter = TRAINED[server]
    flags: dict = {"weights": BF16_WEIGHTS, "weights_sha256": SHA256[TARGET_GGUF.name], "dtype": "bfloat16",
                   "max_model_len": 4096, "max_num_seqs": 64, "gpu_memory_utilization": 0.1,
                   "kv_cache_memory_bytes": 4 * 2**30, "VLLM_USE_FLASHINFER_SAMPLER": "0"}
    label = LABEL["q-bf16"]
    if isinstance(drafter, tuple):
        k = drafter[1]
        flags |= {"speculative_config": {"method": "eagle3", "model": str(drafter_train.HEAD),
                                         "num_speculative_tokens": k},
                  "draft_weights": HEAD_WEIGHTS, "draft_sha256": HEAD_SHA256, "training_recipe": drafter_train.RECIPE}
        label += f" + EAGLE-3 head trained here K={k}"
    elif drafter == "ngram":
        flags["speculative_config"] = speculative("ngram")
        label += f" + n-gram lookup k={K}"
    elif drafter == "draft":
        flags |= {"speculative_config": speculative("bf16"), "draft_weights": DRAFT_WEIGHTS["bf16"],
                  "draft_sha256": SHA256[DRAFT_GGUF.name]}
        label += f" + 0.5B draft model K={K}"
    elif drafter == "v1":
        flags |= V1_RUNNER
        label += " on the V1 model runner"
    table = {"id": server.removeprefix("t-"), "label": f"{label} · vLLM {carry.RELEASE}",
             "endpoint": f"http://127.0.0.1:{port}", "model": "qwen2.5-coder-1.5b"}
    if drafter:
        table["baseline"] = "bf16"
    return {**table, "flags": flags}


CELLS = {"max_tokens": 192, "repeats": 3, "warmup": 1}
SWEEP = {"max_tokens": 128, "levels": LEVELS, "rounds": 2}


def configs() -> dict[str, dict]:
    # the CPU ladder's prompts (imported here, not at module level: the device runs this module without recorder/)
    from recorder.engine.llamacpp_configs import SAMPLED, TEXTS

    def prompt(id: str, text_id: str, sampling: dict) -> dict:
        kind, text = TEXTS[text_id]
        return {"id": id, "kind": kind, "sampling": sampling, "text": text}

    greedy = [prompt(t, t, {"temperature": 0.0}) for t in TEXTS]
    ladder = greedy + [prompt("chat-sampled", "chat", SAMPLED), prompt("prose-sampled", "prose", SAMPLED)]
    two = [prompt("code", "code", {"temperature": 0.0}), prompt("reasoning", "reasoning", {"temperature": 0.0})]

    def config(title: str, output: str, mode: dict, arms: list[dict], prompts: list[dict]) -> dict:
        return {"title": title, "record": {"output": f"recordings/{output}", **mode}, "arms": arms, "prompts": prompts}

    release = f"Qwen2.5-Coder-1.5B on vLLM {carry.RELEASE}"
    return {
        "h200-qwen-coder.toml": config(
            "Qwen2.5-Coder-1.5B on vLLM 0.23 (NVIDIA H200): bf16 → 4-bit → 0.5B draft model, and n-gram lookup; "
            "real weights, the CPU ladder's prompts", "qwen-coder-1.5b-vllm-h200.jsonl", CELLS,
            [arm(s) for s in SERVERS], ladder),
        "h200-qwen-coder-sweep.toml": config(
            "Qwen2.5-Coder-1.5B on vLLM 0.23 (NVIDIA H200): 1-64 streams, draft model on and off, bf16 and 4-bit; "
            "real weights", "qwen-coder-1.5b-vllm-h200-sweep.jsonl", SWEEP,
            [arm(s) for s in ("q-bf16", "q-bf16-draft", "q-q4", "q-q4-draft")], two),
        "gpu-qwen-coder-eagle3.toml": config(
            f"{release}: bf16 alone, with an EAGLE-3 head trained here (K 3-5), n-gram lookup and the 0.5B draft "
            "model; real weights, the CPU ladder's prompts", "qwen-coder-1.5b-vllm026-eagle3.jsonl", CELLS,
            [trained_arm(s) for s in TRAINED if s not in RUNNER_ONLY], ladder),
        "gpu-qwen-coder-eagle3-sweep.toml": config(
            f"{release}: 1-64 streams, bf16 alone and with the EAGLE-3 head trained here (K 4) and the 0.5B draft "
            "model; real weights", "qwen-coder-1.5b-vllm026-eagle3-sweep.jsonl", SWEEP,
            [trained_arm(s) for s in ("t-bf16", "t-eagle3-k4", "t-draft")], two),
        "gpu-qwen-coder-runner.toml": config(
            f"{release}: bf16 on the V2 and the V1 model runner, n-gram lookup and the 0.5B draft model (both "
            "V1-only in this release); real weights", "qwen-coder-1.5b-vllm026-runner.jsonl", CELLS,
            [trained_arm(s) for s in RUNNER_STUDY], greedy),
        "gpu-qwen-coder-runner-sweep.toml": config(
            f"{release}: 1-64 streams, bf16 on both model runners and the 0.5B draft model; real weights",
            "qwen-coder-1.5b-vllm026-runner-sweep.jsonl", SWEEP,
            [trained_arm(s) for s in ("t-bf16", "t-bf16-v1", "t-draft")], two),
    }


HEADER = ["# Written by `python3 -m gpu.qwen_gpu` (edit gpu/qwen_gpu.py, not this file); run on the lent H200 by",
        "# gpu/device.py (docs/gpu.md), which starts each arm's server from its flags and leaves out the arms",
        "# whose server is not up."]


def config_texts() -> dict[str, str]:
    return {name: config_toml.config_text(HEADER, cfg) for name, cfg in configs().items()}


if __name__ == "__main__":
    sys.exit(config_toml.main(config_texts()))
