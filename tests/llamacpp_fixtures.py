"""Small recordings in the shape the llama.cpp files take (team rules, issue #21): arms f16, q4, f16-draft,
q4-draft, q4-ngram; a sweep over levels; a break-even file of synthetic acceptance lengths.

Built here because the real files land during the session: the same header fields, arms, ids and spec counters
the recorder writes for llama-server (`timings.draft_n` → draft_tokens, `draft_n_accepted` → accepted), with
made-up but self-consistent timings (rates near the first probe in shared/llamacpp-cpu.md). Only the pages'
readers use them; no figure from here is shown anywhere.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MACHINE = {"cpu": "AMD EPYC", "cores": 2, "ram_gib": 23.5, "accelerator": None, "os": "Debian 12", "python": "3.11.7"}
ENGINE = {"name": "llama.cpp", "version": "b7000"}
GAMMA = 4
# arm → (baseline, decode tok/s at one stream, accepted share of drafted tokens per prompt kind)
CELL_ARMS: dict[str, tuple[str | None, float, dict[str, float]]] = {
    "f16": (None, 10.0, {}),
    "q4": ("f16", 29.0, {}),
    "f16-draft": ("f16", 13.0, {"code": 0.7, "chat": 0.45, "copy-quote": 0.8}),
    "q4-draft": ("q4", 14.5, {"code": 0.7, "chat": 0.45, "copy-quote": 0.8}),
    "q4-ngram": ("q4", 22.7, {"code": 0.3, "chat": 0.1, "copy-quote": 0.85}),
}
PROMPTS = [("code", "code"), ("chat", "chat"), ("copy-quote", "copy-quote")]
TOKENS = 48


def _arm(arm_id: str, baseline: str | None, synth: float | None = None) -> dict[str, Any]:
    flags: dict[str, Any] = {"weights": "qwen2.5-coder-1.5b-instruct-" + ("f16.gguf" if arm_id.startswith("f16")
                                                                            else "q4_k_m.gguf"), "threads": 2}
    if "draft" in arm_id or synth is not None:
        flags["speculative_config"] = {"method": "draft_model", "model": "qwen2.5-coder-0.5b-instruct.gguf",
                                       "num_speculative_tokens": GAMMA, "p_min": 0.5}
        if synth is not None:
            flags["speculative_config"]["synthetic_acceptance_length"] = synth
    if "ngram" in arm_id:
        flags["speculative_config"] = {"method": "ngram-mod"}
    arm = {"id": arm_id, "label": f"Qwen2.5-Coder-1.5B · {arm_id}", "model": "qwen-coder-1.5b", "engine": ENGINE,
           "flags": flags}
    if baseline:
        arm["baseline"] = baseline
    return arm


def _header(title: str, arms: list[dict[str, Any]], mode: str, timing_only: bool = False) -> dict[str, Any]:
    return {"timing_only": timing_only, "type": "header", "format": "specreplay-recording", "version": 1, "title": title,
            "created": "2026-12-01T22:00:00+00:00", "machine": MACHINE, "arms": arms,
            "prompts": [{"id": pid, "kind": kind, "text": f"A {kind} prompt.", "api": "chat",
                         "sampling": {"temperature": 0.0, "max_tokens": TOKENS}} for pid, kind in PROMPTS],
            "recorder": {"mode": mode, "max_tokens": TOKENS}}


def _run(arm: str, prompt: str, repeat: int, rate: float, accept: float | None, *, concurrency: int = 1,
         stream: int = 0, start: float = 0.0, warmup: bool = False) -> dict[str, Any]:
    """One request of TOKENS tokens at `rate` tok/s after a 0.3 s first token; with a drafter, bursts of accepted
    tokens arrive together (one event per token, as llama-server streams them)."""
    events, t, left = [{"t": 0.3, "n": 1, "text": "a"}], 0.3, TOKENS - 1
    drafts = accepted = 0
    while left:
        burst = 1
        if accept is not None:
            drafts += 1
            burst = min(left, 1 + round(accept * GAMMA))
            accepted += burst - 1
        t += burst / rate
        events += [{"t": round(t, 6), "n": 1, "text": "a"} for _ in range(burst)]
        left -= burst
    spec = None if accept is None else {"drafts": drafts, "draft_tokens": drafts * GAMMA, "accepted": accepted,
                                        "per_position": []}
    return {"type": "run", "arm": arm, "prompt": prompt, "repeat": repeat, "warmup": warmup,
            "concurrency": concurrency, "stream": stream, "started_wall": "2026-12-01T22:00:00+00:00",
            "started_mono": start, "events": events, "ttft": 0.3, "usage": {"completion_tokens": TOKENS},
            "finish_reason": "length", "spec": spec, "status": "ok"}


def _write(path: Path, header: dict[str, Any], lines: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in [header, *lines]) + "\n", encoding="utf-8")
    return path


def cells_file(folder: Path, name: str = "qwen-coder-1.5b-llamacpp-cpu.jsonl") -> Path:
    arms = [_arm(a, base) for a, (base, _, _) in CELL_ARMS.items()]
    lines = []
    for arm, (_, rate, accept) in CELL_ARMS.items():
        for pid, kind in PROMPTS:
            share = accept.get(kind) if accept else None
            for repeat in range(4):
                lines.append(_run(arm, pid, max(repeat - 1, 0), rate * (1 + 0.01 * repeat), share,
                                  warmup=repeat == 0))
    return _write(folder / name, _header("Qwen2.5-Coder-1.5B on llama.cpp CPU: the ladder", arms, "cells"), lines)


def _level_lines(arm: str, rate_at: dict[int, float], accept: float | None, start: float) -> tuple[list, float]:
    out: list[dict[str, Any]] = []
    for level, rate in rate_at.items():
        runs = [_run(arm, PROMPTS[s % len(PROMPTS)][0], 0, rate, accept, concurrency=level, stream=s, start=start)
                for s in range(level)]
        end = start + max(r["events"][-1]["t"] for r in runs)
        spec = None if accept is None else {k: sum(r["spec"][k] for r in runs) for k in ("drafts", "draft_tokens",
                                                                                           "accepted")}
        out += runs + [{"type": "level", "arm": arm, "concurrency": level, "started_mono": start, "ended_mono": end,
                        "spec": spec, "streams": level, "rounds": 1}]
        start = end + 1
    return out, start


# arm → (baseline, per-request tok/s by level, accepted share)
SWEEP_ARMS: dict[str, tuple[str | None, dict[int, float], float | None]] = {
    "f16": (None, {1: 10.0, 2: 8.0, 4: 5.0}, None),
    "f16-draft": ("f16", {1: 13.0, 2: 9.0, 4: 4.0}, 0.6),
    "q4": ("f16", {1: 29.0, 2: 22.0, 4: 13.0}, None),
    "q4-draft": ("q4", {1: 14.5, 2: 10.0, 4: 5.0}, 0.6),
}


def sweep_file(folder: Path, name: str = "qwen-coder-1.5b-llamacpp-cpu-sweep.jsonl") -> Path:
    arms = [_arm(a, base) for a, (base, _, _) in SWEEP_ARMS.items()]
    lines: list[dict[str, Any]] = []
    start = 0.0
    for arm, (_, rates, accept) in SWEEP_ARMS.items():
        got, start = _level_lines(arm, rates, accept, start)
        lines += got
    return _write(folder / name, _header("Qwen2.5-Coder-1.5B on llama.cpp CPU: concurrency sweep", arms, "sweep"),
                  lines)


def breakeven_file(folder: Path, name: str = "qwen-coder-1.5b-llamacpp-cpu-breakeven.jsonl") -> Path:
    """q4 alone and q4 + draft at synthetic acceptance lengths 1.5, 2.5, 4 (timing at a set acceptance)."""
    arms = [_arm("q4", None)] + [_arm(f"q4-synth-{L:g}", "q4", synth=L) for L in (1.5, 2.5, 4.0)]
    lines: list[dict[str, Any]] = []
    got, start = _level_lines("q4", {1: 29.0, 2: 22.0}, None, 0.0)
    lines += got
    for L, rates in ((1.5, {1: 6.0, 2: 5.0}), (2.5, {1: 11.0, 2: 9.0}), (4.0, {1: 33.0, 2: 18.0})):
        got, start = _level_lines(f"q4-synth-{L:g}", rates, (L - 1) / GAMMA, start)
        lines += got
    return _write(folder / name, _header("Qwen2.5-Coder-1.5B: break-even at set acceptance", arms, "sweep",
                                         timing_only=True), lines)
