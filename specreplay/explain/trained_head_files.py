"""The real Qwen2.5-Coder-1.5B recordings with the EAGLE-3 head trained here (vLLM 0.26.0, issue #38), by their
fixed names. The pages read them as they read the other bundled files (`catalogue.read`: a recording, its
one-line problem, or None while it is not in recordings/)."""

from __future__ import annotations

CELLS = "qwen-coder-1.5b-vllm026-eagle3.jsonl"  # cells: bf16, eagle3-k3/-k4/-k5, ngram (vLLM's V1 runner)
SWEEP = "qwen-coder-1.5b-vllm026-eagle3-sweep.jsonl"  # levels 1-64, code + reasoning: bf16, eagle3-k4
PAIR = ("bf16", "eagle3-k4")  # the target alone, then with the head at K 4: the pair both files hold
HEADS = ("eagle3-k3", "eagle3-k4", "eagle3-k5")  # the head's arms in CELLS, one per draft length K
NGRAM = "ngram"  # n-gram lookup in CELLS, on vLLM's V1 runner (0.26.0's V2 runner lacks it): its slowdown not profiled
