"""Which recordings the explainer's panels show, each said in header facts (specreplay.recording.wanted), and the
arms a panel picks by id.

    got = wanted.read(CPU_LADDER)        # the newest recording with those facts: Recording, its problem, or None
    names = wanted.matching(SIZES)       # every one, oldest first

A recording added to the folders with the same facts shows on its panel with no code change (the newest, where a
panel shows one). Each query is just precise enough that the bundled files match one panel each
(tests/unit/test_panels.py holds them to the files they pick today).
"""

from __future__ import annotations

from specreplay.recording.arm import Arm
from specreplay.recording.wanted import Wanted

QWEN_CODER = "qwen2.5-coder-1.5b"  # the real model of the GPU and trained-head recordings
SMOLLM2 = "smollm2-135m"


def quantized(arm: Arm) -> bool:
    return arm.quantized


def speculative(arm: Arm) -> bool:
    return arm.speculative


def draft_model(arm: Arm) -> bool:
    return arm.speculative_kind == "draft model"


def quantized_draft(arm: Arm) -> bool:
    return arm.quantized and draft_model(arm)


def quantized_ngram(arm: Arm) -> bool:
    return arm.quantized and arm.speculative_kind == "ngram"


def quantized_dflash(arm: Arm) -> bool:
    return arm.quantized and arm.speculative_kind == "dflash"


def dflash(arm: Arm) -> bool:
    return arm.speculative_kind == "dflash"


def size_study(arm: Arm) -> bool:
    """An arm of the target-size study (gpu/sizes.py): its header names the target's size class."""
    return arm.target_size is not None


def trained_eagle3(arm: Arm) -> bool:
    """An EAGLE-3 head with its own acceptance: trained, not a shape for a timing study."""
    return arm.speculative_kind == "eagle3" and arm.drafter_shape is None and arm.set_acceptance is None


# llama.cpp on this 2-core CPU (issue #21, Qwen2.5-Coder-1.5B): the F16 → Q4_K_M → + drafter ladder (the
# temperature file has no 4-bit arm), the concurrency sweep, and the break-even map (a sweep at set acceptance).
CPU_LADDER = Wanted(mode="cells", engine="llama.cpp", gpu=False, timing_only=False, some=(quantized, draft_model))
CPU_SWEEP = Wanted(mode="sweep", engine="llama.cpp", gpu=False, timing_only=False)
CPU_BREAKEVEN = Wanted(mode="sweep", engine="llama.cpp", gpu=False, timing_only=True)

# The same real model with vLLM on a GPU (issue #25): its 4-bit + n-gram and 4-bit + draft-model ladders are two
# files (the q4-draft server came up late), and the 1-64 stream sweep of both weight formats, drafter on and off.
GPU_NGRAM_LADDER = Wanted(mode="cells", engine="vllm", gpu=True, timing_only=False, model=QWEN_CODER,
                          some=(quantized_ngram,))
GPU_DRAFT_LADDER = Wanted(mode="cells", engine="vllm", gpu=True, timing_only=False, model=QWEN_CODER,
                          some=(quantized_draft,))
GPU_SWEEP = Wanted(mode="sweep", engine="vllm", gpu=True, timing_only=False, model=QWEN_CODER,
                   some=(quantized, draft_model))

# The EAGLE-3 head trained here for it (issue #38): cells (K 3, 4, 5 and n-gram) and the 1-64 stream sweep.
HEAD_CELLS = Wanted(mode="cells", engine="vllm", gpu=True, timing_only=False, model=QWEN_CODER,
                    some=(trained_eagle3,))
HEAD_SWEEP = Wanted(mode="sweep", engine="vllm", gpu=True, timing_only=False, model=QWEN_CODER,
                    some=(trained_eagle3,))
HEAD_PAIR = ("bf16", "eagle3-k4")  # the target alone, then with the head at K 4: the pair both files hold
HEADS = ("eagle3-k3", "eagle3-k4", "eagle3-k5")  # the head's arms in HEAD_CELLS, one per draft length K
HEAD_NGRAM = "ngram"  # n-gram lookup in HEAD_CELLS, on vLLM's V1 runner (0.26.0's V2 runner lacks it)

# SmolLM2-135M's ladder on the H200 (the ladder page's earlier GPU run).
SMOLLM2_GPU = Wanted(mode="cells", engine="vllm", gpu=True, timing_only=False, model=SMOLLM2)

# The 27B-class H200 timing runs at the articles' acceptance (gpu/ladder27.py), not the size study: the ladder
# bf16 → 4-bit → 4-bit + DFlash, and the drafter on the bf16 target alone; cells and 1-64 stream sweeps.
FULL_LADDER = Wanted(mode="cells", engine="vllm", gpu=True, timing_only=True, some=(quantized_dflash,),
                     no=(size_study,))
FULL_LADDER_SWEEP = Wanted(mode="sweep", engine="vllm", gpu=True, timing_only=True, some=(quantized_dflash,),
                           no=(size_study,))
FULL_DRAFTER = Wanted(mode="cells", engine="vllm", gpu=True, timing_only=True, some=(dflash,),
                      no=(quantized, size_study))
FULL_DRAFTER_SWEEP = Wanted(mode="sweep", engine="vllm", gpu=True, timing_only=True, some=(dflash,),
                            no=(quantized, size_study))

# The weight formats' throughput per level on the GPU, timing only, no drafter (the roofline page's serving curve).
QUANT_TIMING_SWEEP = Wanted(mode="sweep", engine="vllm", gpu=True, timing_only=True, some=(quantized,),
                            no=(speculative,))

# The target-size study (gpu/sizes.py, issue #29): every target class alone and with its drafters, cells.
SIZES = Wanted(mode="cells", engine="vllm", gpu=True, timing_only=True, some=(size_study,))

# Every concurrency sweep has a Pareto front (the break-even sweeps have their own map).
SWEEPS = Wanted(mode="sweep")
