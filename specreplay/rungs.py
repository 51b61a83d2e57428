"""What an arm is in the story, read from its header entry: speculative or not, 4-bit (quantized) or not.

The replay's default rule (specreplay.replay.default) and the text checks (specreplay.text_checks) need to know
which arm is the plain 16-bit reference, which are quantized and which speculate, and which arm has the same
weights as a speculative one. Read from the flags the recorder wrote (`speculative_config`, `quantization`, any
flag naming a draft model) and from the arm's id and label ("q4-draft", "Q4_1 GGUF"); flag values such as a
`weights` sentence are not parsed.
"""

from __future__ import annotations

import re
from typing import Any

from specreplay.recording.format import Recording

SPEC = re.compile(r"spec|draft|ngram|lookup|eagle|mtp|medusa", re.IGNORECASE)
QUANT = re.compile(r"(?<![\w.])(q[2-8](?:_\w+)?|[248]-?bit|int[48]|w4a16|w8a8|gguf|awq|gptq|nvfp4|fp8|mxfp4)(?![\w.])",
                   re.IGNORECASE)
SPEC_SUFFIX = re.compile(r"[-_+](draft|ngram|spec|eagle\w*|mtp|lookup|medusa)\w*$", re.IGNORECASE)


def speculative(arm: dict[str, Any]) -> bool:
    flags = arm.get("flags") or {}
    return any(SPEC.search(k) and v for k, v in flags.items()) or bool(SPEC.search(arm["id"]))


FULL = re.compile(r"(?<![\w.])(b?f16|fp16|fp32|float16|bfloat16)(?![\w.])", re.IGNORECASE)


def quantized(arm: dict[str, Any]) -> bool:
    """A quantization flag (other than 'none…'), else the id ('q4-draft' yes, 'f16-draft' no), else the label; the
    id wins over the label, whose prose may mention both ('F16 (16-bit weights, 4-bit values)')."""
    flags = arm.get("flags") or {}
    quant = str(flags.get("quantization") or "").strip().lower()
    if quant:
        return not quant.startswith("none")
    if QUANT.search(arm["id"]):
        return True
    if FULL.search(arm["id"]):
        return False
    return bool(QUANT.search(arm.get("label", "")))


WEIGHT_FLAGS = ("quantization", "dtype", "weights", "model_config", "load_format", "model")


def _weights(arm: dict[str, Any]) -> tuple:
    """What decides the weights an arm serves (not its server tuning such as env or memory settings)."""
    flags = arm.get("flags") or {}
    return (arm.get("model"), *(repr(flags.get(k)) for k in WEIGHT_FLAGS))


def same_weights(rec: Recording, arm_id: str) -> str | None:
    """For a speculative arm, the arm of the same recording that serves the same weights without speculation (its
    greedy text must be identical); None for other arms or when there is none."""
    arm = rec.arm(arm_id)
    if not speculative(arm):
        return None
    plain = [a for a in rec.arms if a["id"] != arm_id and not speculative(a)]
    by_flags = [a["id"] for a in plain if _weights(a) == _weights(arm)]
    if by_flags:
        return by_flags[0]
    stem = SPEC_SUFFIX.sub("", arm_id)
    return stem if stem != arm_id and any(a["id"] == stem for a in plain) else None


def is_reference(arm: dict[str, Any]) -> bool:
    """The story's first rung: neither quantized nor speculative."""
    return not speculative(arm) and not quantized(arm)
