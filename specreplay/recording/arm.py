"""One recorded arm as every reader sees it: its header entry typed, and every fact about it computed once at load.

vLLM arms carry `flags.speculative_config`; llama-server arms carry the server's flags (`spec_draft_n_max`,
`spec_synth_len`, …) and the exact `launch.command`; both are read. What an arm is in the story (reference, 4-bit,
speculative) is read from those flags and from its id and label ("q4-draft", "Q4_1 GGUF"); flag values such as a
`weights` sentence are not parsed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from specreplay.recording.counts import SpecCounts
from specreplay.recording.header import Imported

Counts = Literal["tokens", "chunks"]  # "chunks": an imported arm whose file has no tokens per chunk
WeightFormat = Literal["bf16", "int4", "fp8"]  # bf16: any 16-bit weights (bf16, f16); int4: any 4-bit (or GGUF) one

SPEC = re.compile(r"spec|draft|ngram|lookup|eagle|mtp|medusa", re.IGNORECASE)
QUANT = re.compile(r"(?<![\w.])(q[2-8](?:_\w+)?|[248]-?bit|int[48]|w4a16|w8a8|gguf|awq|gptq|nvfp4|fp8|mxfp4)(?![\w.])",
                   re.IGNORECASE)
FULL = re.compile(r"(?<![\w.])(b?f16|fp16|fp32|float16|bfloat16)(?![\w.])", re.IGNORECASE)
SPEC_SUFFIX = re.compile(r"[-_+](draft|ngram|spec|eagle\w*|mtp|lookup|medusa)\w*$", re.IGNORECASE)
WEIGHT_FLAGS = ("quantization", "dtype", "weights", "model_config", "load_format", "model")
DRAFT_FLAGS = ("spec_draft_n_max", "draft_max", "draft_n_max", "spec-draft-n-max", "draft-max")
_DRAFT_OPTIONS = ("--spec-draft-n-max", "--draft-max", "--draft")
SYNTH_FLAGS = ("spec_synth_len", "spec-synth-len")
PATCHED = "defect patched"  # in flags.draft_graphs of arms served with gpu/draft_graphs.py


@dataclass(frozen=True)
class Engine:
    """The server an arm ran on, as it reported itself."""

    name: str  # "vllm", "llama.cpp"; "?" where the file does not say
    version: str | None  # None where a server has none

    @property
    def line(self) -> str:
        """'vllm 0.32.0'."""
        return f"{self.name} {self.version or ''}".strip()


@dataclass(frozen=True)
class Arm:
    id: str
    label: str
    model: str
    engine: Engine
    flags: Mapping[str, Any]  # the server's settings, open-ended: shown as they are, read only here
    baseline: str | None  # the arm this one is compared against
    counts: Counts
    imported: Imported | None  # this arm's own source file, for an import of several files
    weight_format: WeightFormat
    speculative_kind: str | None  # "draft model", "ngram", or the engine's method name ("dflash"); None: no drafting
    set_acceptance: float | None  # an acceptance length set by a benchmark mode, not the drafter's own
    draft_length: int | None  # γ from the flags or launch command (see draft_length() for the counters' fallback)
    f16_of_4bit: bool  # llama.cpp's F16 file written from the Q4_K_M one: 16-bit speed, the 4-bit model's text
    timing_only: bool  # real timings, text that is not the model's (the header says dummy weights, or a set acceptance)
    draft_model: str | None  # the draft model's name ('qwen2.5-coder-0.5b'), from its path or file; None without one
    drafter_shape: str | None  # a drafter built to a shape for a timing study ('draft', 'dflash', 'eagle3'), not trained
    target_size: str | None  # the size class of such a study's target ('1.5b', '27b')
    draft_graphs_unpatched: bool  # a vLLM draft-model arm served without gpu/draft_graphs.py (PR #47460's change)
    entry: Mapping[str, Any] = field(repr=False, compare=False)  # the object as written, for the recorder's resume

    @property
    def speculative(self) -> bool:
        return self.speculative_kind is not None

    @property
    def quantized(self) -> bool:
        return self.weight_format != "bf16"

    @property
    def reference(self) -> bool:
        """The story's first rung: neither quantized nor speculative."""
        return not self.speculative and not self.quantized

    @property
    def flags_line(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.flags.items())

    @property
    def weights(self) -> tuple:
        """What decides the weights an arm serves (not its server tuning such as env or memory settings)."""
        return (self.model, *(repr(self.flags.get(k)) for k in WEIGHT_FLAGS))

    @staticmethod
    def of(entry: Mapping[str, Any], timing_only: bool = False) -> Arm:
        """From a header entry the loader has validated (specreplay.recording.format)."""
        flags = entry.get("flags") or {}
        eng = entry.get("engine") or {}
        command = _command(entry)
        set_acceptance = _set_acceptance(flags, command)
        return Arm(id=entry["id"], label=entry.get("label", ""), model=entry.get("model", ""),
                   engine=Engine(str(eng.get("name", "?")), eng.get("version")), flags=flags,
                   baseline=entry.get("baseline"), counts="chunks" if entry.get("counts") == "chunks" else "tokens",
                   imported=Imported.of(entry.get("imported")),
                   weight_format=_weight_format(entry["id"], entry.get("label", ""), flags),
                   speculative_kind=speculative_kind(entry["id"], flags, command),
                   set_acceptance=set_acceptance, draft_length=_flag_draft_length(flags, command),
                   f16_of_4bit=_f16_of_4bit(entry["id"], flags, eng, command),
                   timing_only=timing_only or set_acceptance is not None, draft_model=_draft_model(flags),
                   drafter_shape=_text(flags.get("drafter_kind")), target_size=_text(flags.get("target_size")),
                   draft_graphs_unpatched=(eng.get("name") == "vllm" and _spec_config(flags).get("method") == "draft_model"
                                           and PATCHED not in str(flags.get("draft_graphs") or "")),
                   entry=entry)


def draft_length(arm: Arm, counts: SpecCounts | None = None) -> int | None:
    """γ: tokens drafted per step at most. From the flags or launch command; else the counters (positions
    counted, or draft tokens per draft); None for an arm that does not draft."""
    if arm.draft_length is not None:
        return arm.draft_length
    if counts is not None and counts.per_position:
        return len(counts.per_position)
    if counts is not None and counts.drafts:
        return max(1, round(counts.draft_tokens / counts.drafts))
    return None


def same_weights(arms: tuple[Arm, ...], arm: Arm) -> str | None:
    """For a speculative arm, the arm among `arms` that serves the same weights without speculation (its greedy text
    must be identical); None for other arms or when there is none."""
    if not arm.speculative:
        return None
    plain = [a for a in arms if a.id != arm.id and not a.speculative]
    by_flags = [a.id for a in plain if a.weights == arm.weights]
    if by_flags:
        return by_flags[0]
    stem = SPEC_SUFFIX.sub("", arm.id)
    return stem if stem != arm.id and any(a.id == stem for a in plain) else None


def _command(entry: Mapping[str, Any]) -> list[str]:
    launch = entry.get("launch") or {}
    cmd = launch.get("command") if isinstance(launch, dict) else None
    return [str(x) for x in cmd] if isinstance(cmd, list) else []


def _option(command: list[str], names: tuple[str, ...]) -> str | None:
    for i, word in enumerate(command[:-1]):
        if word in names:
            return command[i + 1]
    return None


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _spec_config(flags: Mapping[str, Any]) -> Mapping[str, Any]:
    spec = flags.get("speculative_config")
    return spec if isinstance(spec, dict) else {}


def _text(value: Any) -> str | None:
    return str(value) if value else None


def _draft_model(flags: Mapping[str, Any]) -> str | None:
    """'/tmp/carry/qwen/qwen2.5-coder-0.5b-instruct.gguf' → 'qwen2.5-coder-0.5b', the name the addresses file keys."""
    name = str(_spec_config(flags).get("model") or "").rsplit("/", 1)[-1].lower()
    return name.removesuffix(".gguf").removesuffix("-instruct") or None


def _weight_format(arm_id: str, label: str, flags: Mapping[str, Any]) -> WeightFormat:
    """A quantization flag (other than 'none…'), else the id ('q4-draft' yes, 'f16-draft' no), else the label; the
    id wins over the label, and in the label the format named first, since its prose may mention both
    ('bf16 (16-bit weights, 4-bit values) + EAGLE-3 head')."""
    quant = str(flags.get("quantization") or "").strip().lower()
    if quant:
        return "bf16" if quant.startswith("none") else "fp8" if quant.startswith("fp8") else "int4"
    for in_label, text in enumerate((arm_id, label)):
        found, full = QUANT.search(text), FULL.search(text)
        if found and not (in_label and full and full.start() < found.start()):
            return "fp8" if found.group(1).lower() == "fp8" else "int4"
        if full:
            return "bf16"
    return "bf16"


def speculative_kind(arm_id: str, flags: Mapping[str, Any], command: list[str]) -> str | None:
    """How the arm drafts: the engine's method ('draft model' and 'ngram' named alike across engines); None when
    neither a flag, a launch option nor the id says it drafts. The recorder asks the same of an arm it configures."""
    drafts = (any(SPEC.search(k) and v for k, v in flags.items()) or bool(SPEC.search(arm_id))
              or any(k in flags for k in ("spec_type", "draft_model", *DRAFT_FLAGS))
              or any(w in command for w in ("--spec-type", "-md", "--model-draft", *_DRAFT_OPTIONS)))
    if not drafts:
        return None
    method = str(_spec_config(flags).get("method") or flags.get("spec_type") or _option(command, ("--spec-type",))
                 or "").lower()
    if "ngram" in method or "lookup" in method:
        return "ngram"
    if "draft" in method or flags.get("draft_model") or _option(command, ("-md", "--model-draft")):
        return "draft model"
    if method:
        return method
    if re.search(r"ngram|lookup", arm_id, re.IGNORECASE):  # no method written down: the id says
        return "ngram"
    return "draft model" if "draft" in arm_id.lower() else "speculative"


def _flag_draft_length(flags: Mapping[str, Any], command: list[str]) -> int | None:
    for value in [_spec_config(flags).get("num_speculative_tokens"), *(flags.get(k) for k in DRAFT_FLAGS),
                  _option(command, _DRAFT_OPTIONS)]:
        n = _number(value)
        if n is not None and n >= 1 and n == int(n):
            return int(n)
    return None


def _set_acceptance(flags: Mapping[str, Any], command: list[str]) -> float | None:
    """vLLM's synthetic rejection sampling or llama-server's benchmark-only `--spec-synth-len L`: the acceptance
    length was set, not measured."""
    for value in [_spec_config(flags).get("synthetic_acceptance_length"), *(flags.get(k) for k in SYNTH_FLAGS),
                  _option(command, ("--spec-synth-len",))]:
        n = _number(value)
        if n is not None and n >= 1:
            return n
    return None


def _f16_of_4bit(arm_id: str, flags: Mapping[str, Any], engine: Mapping[str, Any], command: list[str]) -> bool:
    """An F16 arm of the llama.cpp recordings: a 16-bit file written from the Q4_K_M one (`llama-quantize
    --allow-requantize … F16`), so it runs at 16-bit speed with the 4-bit model's values."""
    text = " ".join([arm_id, str(flags.get("weights", "")), *command])
    return "llama" in str(engine.get("name", "")).lower() and bool(re.search(r"\bf16\b", text.lower()))
