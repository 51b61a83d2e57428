"""Facts about one recorded arm that several pages need, read the same way everywhere: its draft length, a
benchmark-only synthetic acceptance length, and what an F16 arm made from a 4-bit file is.

vLLM arms carry `flags.speculative_config`; llama-server arms carry the server's flags (`spec_draft_n_max`,
`spec_synth_len`, …) and the exact `launch.command`. Both are read; the launch command wins nothing over a flag.
"""

from __future__ import annotations

import re
from typing import Any

from specreplay.recording.format import SpecCounts

_DRAFT_FLAGS = ("spec_draft_n_max", "draft_max", "draft_n_max", "spec-draft-n-max", "draft-max")
_DRAFT_OPTIONS = ("--spec-draft-n-max", "--draft-max", "--draft")
_SYNTH_FLAGS = ("spec_synth_len", "spec-synth-len")

# Every place that shows the F16 arm says what it is (issue #21, item 3).
F16_NOTE = ("16비트 가중치에 4비트 모델의 값을 담은 것: 속도는 16비트, 글은 4비트 모델의 글",
            "16-bit weights holding the 4-bit model's values: 16-bit speed, 4-bit text")


def _command(arm: dict[str, Any]) -> list[str]:
    launch = arm.get("launch") or {}
    cmd = launch.get("command") if isinstance(launch, dict) else None
    return [str(x) for x in cmd] if isinstance(cmd, list) else []


def _option(arm: dict[str, Any], names: tuple[str, ...]) -> str | None:
    cmd = _command(arm)
    for i, word in enumerate(cmd[:-1]):
        if word in names:
            return cmd[i + 1]
    return None


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def draft_length(arm: dict[str, Any], counts: SpecCounts | None = None) -> int | None:
    """γ: tokens drafted per step at most. From the flags or launch command; else the counters (positions
    counted, or draft tokens per draft); None for an arm that does not draft."""
    flags = arm.get("flags") or {}
    spec = flags.get("speculative_config")
    candidates = [spec.get("num_speculative_tokens") if isinstance(spec, dict) else None,
                  *(flags.get(k) for k in _DRAFT_FLAGS), _option(arm, _DRAFT_OPTIONS)]
    for value in candidates:
        n = _number(value)
        if n is not None and n >= 1 and n == int(n):
            return int(n)
    if counts is not None and counts.per_position:
        return len(counts.per_position)
    if counts is not None and counts.drafts:
        return max(1, round(counts.draft_tokens / counts.drafts))
    return None


def is_speculative(arm: dict[str, Any]) -> bool:
    """Whether the arm's server drafts: a speculative config, a llama-server speculation flag or option."""
    flags = arm.get("flags") or {}
    if flags.get("speculative_config") or any(k in flags for k in ("spec_type", "draft_model", *_DRAFT_FLAGS)):
        return True
    cmd = _command(arm)
    return any(w in cmd for w in ("--spec-type", "-md", "--model-draft", *_DRAFT_OPTIONS))


def synth_length(arm: dict[str, Any]) -> float | None:
    """llama-server's benchmark-only `--spec-synth-len L`: the acceptance length was set, not measured."""
    flags = arm.get("flags") or {}
    spec = flags.get("speculative_config")
    for value in [spec.get("synthetic_acceptance_length") if isinstance(spec, dict) else None,
                  *(flags.get(k) for k in _SYNTH_FLAGS), _option(arm, ("--spec-synth-len",))]:
        n = _number(value)
        if n is not None and n >= 1:
            return n
    return None


def is_f16_of_4bit(arm: dict[str, Any]) -> bool:
    """An F16 arm of the llama.cpp recordings: a 16-bit file written from the Q4_K_M one (`llama-quantize
    --allow-requantize … F16`), so it runs at 16-bit speed with the 4-bit model's values."""
    text = " ".join([str(arm.get("id", "")), str((arm.get("flags") or {}).get("weights", "")), *_command(arm)])
    return "llama" in str((arm.get("engine") or {}).get("name", "")).lower() and bool(re.search(r"\bf16\b", text.lower()))
