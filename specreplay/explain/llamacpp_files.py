"""The llama.cpp recordings of issue #21, by their fixed names (team rules).

The pages read them through specreplay.recording.catalogue.read: until a file lands in recordings/ they show what
it will hold; a file that cannot be read is named with its one-line problem, never a traceback.
"""

from __future__ import annotations

LADDER = "qwen-coder-1.5b-llamacpp-cpu.jsonl"  # cells: f16, q4, f16-draft, q4-draft, q4-ngram
SWEEP = "qwen-coder-1.5b-llamacpp-cpu-sweep.jsonl"  # levels 1 2 4 8: f16, f16-draft, q4, q4-draft
BREAKEVEN = "qwen-coder-1.5b-llamacpp-cpu-breakeven.jsonl"  # set acceptance lengths × levels
TEMPERATURE = "qwen-coder-1.5b-llamacpp-cpu-temperature.jsonl"
