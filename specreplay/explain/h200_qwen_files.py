"""The real Qwen2.5-Coder-1.5B recordings on the NVIDIA H200 (vLLM 0.23, issue #25 item 4), by their fixed names.
The pages read them as they read the llama.cpp files (`catalogue.read`: a recording, its one-line problem, or
None while it is not in recordings/)."""

from __future__ import annotations

CELLS = "qwen-coder-1.5b-vllm-h200.jsonl"  # cells: bf16, q4, bf16-draft, q4-ngram
CELLS_Q4_DRAFT = "qwen-coder-1.5b-vllm-h200-q4-draft.jsonl"  # cells: bf16, q4, q4-draft (that server came up late)
SWEEP = "qwen-coder-1.5b-vllm-h200-sweep.jsonl"  # levels 1-64: bf16, bf16-draft, q4, q4-draft
