"""How big must the target be for a drafter to pay? Timing-only targets of four sizes on the lent H200 (issue #29).

    python3 -m gpu.sizes          # rewrites recorder/configs/h200-sizes-*.toml from the definitions below

Each target (Qwen2.5-1.5B, -7B and -14B decoder shapes, and ladder27's 27B class; bf16, dummy weights) is served
alone and with three drafter kinds: a 0.5B-class draft model (Qwen2.5-0.5B shapes, K = 4, vLLM 0.23.0's
draft-model defect patched by gpu/draft_graphs.py), a DFlash-shaped drafter (5 layers at the target's width,
all K = 7 draft tokens in one pass) and an EAGLE-3-shaped head (1 layer at the target's width, K = 4). The
acceptance length is set with vLLM's synthetic rejection sampling, one server serving every length
(gpu/synthetic_switch.py). Out of it: each target's step, each drafter's cost c against that step, and the
acceptance length from which each drafter pays, per target size. The 1.5B and 7B targets also get the draft
model unpatched, for the defect's before/after on one host.

Every model runs through vLLM's Qwen3 code path (DFlash and EAGLE-3 attach to it; ladder27 does the same) with
SmolLM2's 49,152-token vocabulary, so SmolLM2's tokenizer serves them all and the draft model's vocabulary
matches the target's, as vLLM requires. The weights are random: the text is noise and only the timing is read.
"""

from __future__ import annotations

import sys
from pathlib import Path

from gpu import config_toml, ladder27

MODELS = ladder27.MODELS
GIB = ladder27.GIB
ACCEPTANCE = (1.5, 2.0, 3.0, 4.0, 5.0)  # tokens per verify step, bonus token included
UNPATCHED_ACCEPTANCE = (3.0,)  # the defect's before/after at one length: an unpatched step costs ~60 ms
SWEEP_ACCEPTANCE = (3.0,)
K = {"draft": 4, "eagle3": 4, "dflash": 7}
LEVELS = ladder27.LEVELS
QWEN = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", **ladder27.COMMON}
# decoder shapes: hidden, MLP, layers, query heads, KV heads (head_dim 128); Qwen2.5's published configs
SHAPES = {
    "1.5b": (1536, 8960, 28, 12, 2),
    "7b": (3584, 18944, 28, 28, 4),
    "14b": (5120, 13824, 48, 40, 8),
}
DRAFT_05B = {**QWEN, "hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24,
             "num_attention_heads": 14, "num_key_value_heads": 2, "head_dim": 64, "tie_word_embeddings": True}
SHAPE_NOTE = {
    "1.5b": "Qwen2.5-1.5B decoder shapes (28 layers, hidden 1536, MLP 8960, 12/2 heads x 128)",
    "7b": "Qwen2.5-7B decoder shapes (28 layers, hidden 3584, MLP 18944, 28/4 heads x 128)",
    "14b": "Qwen2.5-14B decoder shapes (48 layers, hidden 5120, MLP 13824, 40/8 heads x 128)",
    "27b": ladder27.SHAPE.split(" on vLLM")[0],
}
DRAFTER_NOTE = {
    "draft": "0.5B-class draft model (Qwen2.5-0.5B shapes: 24 layers, hidden 896), K=4",
    "dflash": "DFlash-shaped drafter (5 layers at the target's width, all 7 tokens in one pass), K=7",
    "eagle3": "EAGLE-3-shaped head (1 layer at the target's width), K=4",
}
PATCH = ("vLLM 0.23.0 defect patched: draft-model passes ran without CUDA graphs (the model runner gave the "
         "drafter no dispatch keys); gpu/draft_graphs.py applies the change of vllm-project/vllm PR #47460")
UNPATCHED = "vLLM 0.23.0 as shipped: draft-model passes without CUDA graphs (defect fixed upstream in PR #47460)"


def target_config(size: str) -> dict:
    if size == "27b":
        return ladder27.TARGET
    hidden, mlp, layers, heads, kv = SHAPES[size]
    return {**QWEN, "hidden_size": hidden, "intermediate_size": mlp, "num_hidden_layers": layers,
            "num_attention_heads": heads, "num_key_value_heads": kv, "head_dim": 128}


def dflash_config(size: str) -> dict:
    if size == "27b":
        return ladder27.DFLASH
    target = target_config(size)
    layers = target["num_hidden_layers"]
    taps = [round(1 + i * (layers - 4) / 4) for i in range(5)]  # 5 layers spread like ladder27's [1 .. L-3]
    return {**target, "architectures": ["DFlashDraftModel"], "num_hidden_layers": 5, "block_size": 16,
            "num_target_layers": layers, "dflash_config": {"mask_token_id": 49151, "target_layer_ids": taps}}


def eagle3_config(size: str) -> dict:
    return {**target_config(size), "architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama",
            "num_hidden_layers": 1, "draft_vocab_size": ladder27.COMMON["vocab_size"]}


SIZES = (*SHAPES, "27b")
FOLDERS = {"s-draft-0.5b": DRAFT_05B,
           **{f"s{size}-{part}": make(size) for size in SIZES if size != "27b"
              for part, make in (("bf16", target_config), ("dflash", dflash_config))},
           **{f"s{size}-eagle3": eagle3_config(size) for size in SIZES}}


def target_folder(size: str) -> Path:
    return MODELS / ("g27-bf16" if size == "27b" else f"s{size}-bf16")


def drafter_folder(size: str, kind: str) -> Path:
    if kind == "draft":
        return MODELS / "s-draft-0.5b"
    return MODELS / ("g27-dflash" if (size, kind) == ("27b", "dflash") else f"s{size}-{kind}")


# server id -> (port, target size, drafter kind or None, patched)
SERVERS: dict[str, tuple[int, str, str | None, bool]] = {}
for _n, _size in enumerate(SIZES):
    for _m, _kind in enumerate((None, "draft", "dflash", "eagle3")):
        SERVERS[f"s{_size}-{_kind or 'base'}"] = (8100 + 10 * _n + _m, _size, _kind, True)
for _n, _size in enumerate(("1.5b", "7b")):
    SERVERS[f"s{_size}-draft-unpatched"] = (8150 + _n, _size, "draft", False)


def kv_gib(size: str) -> int:
    return 3 if size in ("7b", "27b") else 2


def spec_config(size: str, kind: str, acceptance: float) -> dict:
    return {"method": "draft_model" if kind == "draft" else kind, "model": str(drafter_folder(size, kind)),
            "num_speculative_tokens": K[kind], "rejection_sample_method": "synthetic",
            "synthetic_acceptance_length": acceptance}


def arm_id(server: str, acceptance: float | None) -> str:
    name = server.split("-", 1)[1]
    return name if acceptance is None else f"{name}@{acceptance:g}"


def arm(server: str, acceptance: float | None = None, baseline: str | None = None) -> dict:
    """One [[arms]] table; a drafter arm carries its set acceptance in speculative_config (what the engine ran)."""
    port, size, kind, patched = SERVERS[server]
    # up to ten servers start together: the free-memory check at start-up asks for little (the KV cache is fixed)
    flags = {**ladder27.base_flags(kv_gib(size)), "model_config": SHAPE_NOTE[size], "target_size": size,
             "gpu_memory_utilization": 0.1}
    label = f"{size.upper()}-class bf16"
    if kind:
        assert acceptance is not None
        flags["speculative_config"] = spec_config(size, kind, acceptance)
        flags["drafter_kind"] = kind
        flags["synthetic_switch"] = ladder27.SWITCH
        flags["SPECREPLAY_SYNTHETIC_SWITCH"] = "1"
        if kind == "draft":
            flags["draft_graphs"] = PATCH if patched else UNPATCHED
            if patched:
                flags["SPECREPLAY_DRAFT_GRAPHS"] = "1"
        label += f" + {DRAFTER_NOTE[kind]}, acceptance {acceptance:g} (synthetic)"
        if kind == "draft" and not patched:
            label += ", unpatched vLLM 0.23.0"
    table = {"id": arm_id(server, acceptance), "label": f"{label} · timing only · H200",
             "endpoint": f"http://127.0.0.1:{port}", "model": f"{server}@{acceptance:g}" if kind else server}
    if baseline:
        table["baseline"] = baseline
    return {**table, "flags": flags}


def server_arm(server: str) -> dict:
    return arm(server, ACCEPTANCE[0] if SERVERS[server][2] else None)


def drafter_servers(size: str) -> list[str]:
    return [s for s, (_, z, kind, _) in SERVERS.items() if z == size and kind]


PROMPT = ladder27.PROMPT


def cells(size: str, servers: list[str], with_base: bool) -> list[dict]:
    base = [arm(f"s{size}-base")] if with_base else []
    return base + [arm(s, a, baseline="base" if with_base else None) for s in servers
                   for a in (ACCEPTANCE if SERVERS[s][3] else UNPATCHED_ACCEPTANCE)]


def _title(what: str) -> str:
    return f"{what} on vLLM 0.23 (NVIDIA H200): alone and with three drafter kinds at set acceptance; timing only"


CELLS = {"repeats": 2, "warmup": 1, "max_tokens": 128}
CONFIGS = {
    **{f"h200-sizes-{size}.toml": {
        "title": _title(f"{size.upper()}-class target"),
        "record": {"output": f"recordings/timing-only-sizes-{size}-h200.jsonl", **CELLS},
        "arms": cells(size, drafter_servers(size), with_base=True)} for size in SHAPES},
    # 27B: two bf16 targets at a time fit the GPU, so the target alone and with the draft model first, then the
    # DFlash and EAGLE-3 drafters in a second file (its reference: the first file's target, same host and lease)
    "h200-sizes-27b.toml": {
        "title": _title("27B-class target"),
        "record": {"output": "recordings/timing-only-sizes-27b-h200.jsonl", **CELLS},
        "arms": cells("27b", ["s27b-draft"], with_base=True)},
    "h200-sizes-27b-drafters.toml": {
        "title": _title("27B-class target, DFlash and EAGLE-3 drafters (the target alone: h200-sizes-27b.toml)"),
        "record": {"output": "recordings/timing-only-sizes-27b-drafters-h200.jsonl", **CELLS},
        "arms": cells("27b", ["s27b-dflash", "s27b-eagle3"], with_base=False)},
    "h200-sizes-7b-sweep.toml": {
        "title": "7B-class target on vLLM 0.23 (NVIDIA H200): 1-64 streams, alone and with three drafter kinds at "
                 "set acceptance 3; timing only",
        "record": {"output": "recordings/timing-only-sizes-7b-h200-sweep.jsonl", "max_tokens": 64,
                   "levels": LEVELS, "rounds": 1},
        "arms": [arm("s7b-base")] + [arm(s, a, baseline="base") for s in ("s7b-draft", "s7b-dflash", "s7b-eagle3")
                                     for a in SWEEP_ACCEPTANCE]},
    # made in the lease's last minutes with the DFlash server still up: the lengths the 27B drafter map lacked
    "h200-sizes-27b-sweep.toml": {
        "title": "27B-class target on vLLM 0.23 (NVIDIA H200): 1-64 streams, alone and with the DFlash-shaped drafter "
                 "at set acceptance 2, 3 and 5; timing only",
        "record": {"output": "recordings/timing-only-sizes-27b-h200-sweep.jsonl", "max_tokens": 64,
                   "levels": LEVELS, "rounds": 1},
        "arms": [arm("s27b-base")] + [arm("s27b-dflash", a, baseline="base") for a in (2.0, 3.0, 5.0)]},
}

HEAD = ["# Written by `python3 -m gpu.sizes` (edit gpu/sizes.py, not this file); run on the lent H200 by",
        "# gpu/device.py (docs/gpu.md). Timing only: dummy weights; gpu/device.py writes `timing_only: true` into",
        "# the header and leaves out the arms whose server is not up."]


def config_texts() -> dict[str, str]:
    return config_toml.timing_only_texts(HEAD, CONFIGS, PROMPT)


if __name__ == "__main__":
    sys.exit(config_toml.main(config_texts()))
