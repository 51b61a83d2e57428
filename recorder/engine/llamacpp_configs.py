"""Writes the llama.cpp ladder's recorder configs (recorder/configs/qwen-llamacpp*.toml) from one table of arms.

The arms' settings (draft length K, --spec-draft-p-min, n-gram type, threads) come from the tuning probes in
docs/llamacpp.md; change them here and run `python -m recorder.engine.llamacpp_configs` to rewrite the files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from specreplay.engines import llamacpp

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
SERVER = "${SPECREPLAY_LLAMA_SERVER}"
MODELS = "${SPECREPLAY_MODELS}/llamacpp"
Q4_FILE, F16_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", "qwen2.5-coder-1.5b-instruct-f16.gguf"
DRAFT_FILE = "qwen2.5-coder-0.5b-instruct.gguf"
SHA256 = {  # pinned in recorder/engine/fetch_gguf.py and the Makefile (QWEN_F16_SHA256)
    Q4_FILE: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    F16_FILE: "898951bef64184eeacd1101bb2c70450d31f534456f87ac964039972d47d8cb1",
    DRAFT_FILE: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
}
WEIGHTS = {
    Q4_FILE: "Q4_K_M GGUF (4-bit)",
    F16_FILE: "F16 GGUF made from the Q4_K_M file by llama-quantize: 16-bit weights holding the 4-bit model's "
              "values (16-bit speed, 4-bit text)",
}
THREADS = 2
K = 4  # draft length (tuned: docs/llamacpp.md)
P_MIN = 0.5  # --spec-draft-p-min (tuned)
NGRAM = "ngram-simple"  # the n-gram type (tuned; ngram-mod shares its pool across requests: docs)


@dataclass(frozen=True)
class ArmSpec:
    id: str
    label: str
    target: str
    baseline: str | None = None
    spec: list[str] = field(default_factory=list)  # llama-server's speculative flags
    speculative: dict | None = None  # the same, in the recording's speculative_config vocabulary


def draft_arm(id: str, target: str, baseline: str, label: str, synth: float | None = None) -> ArmSpec:
    flags = ["-md", f"{MODELS}/{DRAFT_FILE}", "--spec-type", "draft-simple", "--spec-draft-n-max", str(K),
             "--spec-draft-p-min", str(P_MIN)]
    spec: dict = {"method": "draft_model", "model": DRAFT_FILE, "draft_sha256": SHA256[DRAFT_FILE],
                  "num_speculative_tokens": K, "p_min": P_MIN}
    if synth is not None:  # benchmark-only: acceptance set, whatever the drafter proposes
        flags += ["--spec-synth-len", str(synth)]
        spec["synthetic_acceptance_length"] = synth
    return ArmSpec(id, label, target, baseline, flags, spec)


F16 = "Qwen2.5-Coder-1.5B · F16 (16-bit weights, 4-bit values)"
Q4 = "Qwen2.5-Coder-1.5B · Q4_K_M 4-bit"
DRAFT = "+ 0.5B draft model"
LADDER = [
    ArmSpec("f16", F16, F16_FILE),
    ArmSpec("q4", Q4, Q4_FILE, baseline="f16"),
    draft_arm("f16-draft", F16_FILE, "f16", f"{F16} {DRAFT} K={K}"),
    draft_arm("q4-draft", Q4_FILE, "q4", f"{Q4} {DRAFT} K={K}"),
    ArmSpec("q4-ngram", f"{Q4} + n-gram lookup ({NGRAM})", Q4_FILE, "q4", ["--spec-type", NGRAM],
            {"method": NGRAM, "num_speculative_tokens": None}),
]
SWEEP = [a for a in LADDER if a.id in ("f16", "f16-draft", "q4", "q4-draft")]
SYNTH_LENGTHS = (1.5, 2.0, 3.0, 4.0)
BREAKEVEN = [a for a in LADDER if a.id in ("f16", "q4")] + [
    draft_arm(f"{t}-synth-{s:g}", file, t, f"{label} {DRAFT} K={K}, acceptance set to {s:g}", synth=s)
    for s in SYNTH_LENGTHS for t, file, label in (("f16", F16_FILE, F16), ("q4", Q4_FILE, Q4))]
TEMPERATURE = [a for a in LADDER if a.id in ("f16", "f16-draft")]

# Article 000's four kinds plus copy-quote (article 003's lookup case). cache_prompt = false: every repeat
# prefills its prompt, as the first one did (llama-server would otherwise reuse the warm-up's cache).
TEXTS = {
    "code": ("code", "Write a Python module that implements an LRU cache class with get, put and delete methods, "
             "type hints, docstrings, and a set of pytest unit tests for it."),
    "reasoning": ("reasoning", "A train leaves at 9:40 and travels 210 km at 84 km/h, waits 25 minutes, then "
                  "travels 156 km at 104 km/h. A second train leaves the same station at 10:15 and travels the "
                  "whole 366 km at 96 km/h without stopping. Which train arrives first, and by how many minutes? "
                  "Solve it step by step, showing every calculation."),
    "chat": ("chat", "My team of five engineers keeps missing sprint deadlines, and morale is getting low. I just "
             "became their lead. What should I do in my first month?"),
    "prose": ("long-prose", "Write a long short story about a lighthouse keeper on a remote island who finds a "
              "message in a bottle during a winter storm. Describe the island, the weather and the keeper's "
              "thoughts in rich detail."),
    "copy-quote": ("copy-quote", "Repeat the following passage exactly, word for word, and then repeat it once "
                   "more:\n\nThe lighthouse keeper climbed the spiral stairs every evening at dusk. He trimmed the "
                   "wick, polished the great lens, and wound the clockwork that turned the light. Ships passing in "
                   "the night never saw him, but they steered by his patient work. When storms came he stayed awake "
                   "until morning, listening to the waves break against the rocks below, and writing the weather "
                   "in his logbook in small, careful letters."),
}
SAMPLED = {"temperature": 0.7, "top_p": 0.95, "seed": 7}


def prompt(id: str, text_id: str, sampling: dict) -> str:
    kind, text = TEXTS[text_id]
    return (f'[[prompts]]\nid = "{id}"\nkind = "{kind}"\nsampling = {_inline({**sampling, "cache_prompt": False})}\n'
            f"text = {json.dumps(text, ensure_ascii=False)}\n")


def _inline(d: dict) -> str:
    parts = []
    for k, v in d.items():
        if v is None:
            continue
        val = _inline(v) if isinstance(v, dict) else json.dumps(v, ensure_ascii=False)
        parts.append(f"{k} = {val}")
    return "{ " + ", ".join(parts) + " }"


def arm(a: ArmSpec, port: int, parallel: int) -> str:
    command = [*llamacpp.serve_command(SERVER, f"{MODELS}/{a.target}", "qwen2.5-coder-1.5b", "127.0.0.1", port,
                                       ["-t", str(THREADS), "-c", str(4096 * parallel), "--parallel", str(parallel)]),
               *a.spec]
    flags: dict = {"weights": WEIGHTS[a.target], "weights_file": a.target, "weights_sha256": SHA256[a.target],
                   "threads": THREADS, "parallel": parallel, "ctx_size": 4096 * parallel}
    if a.speculative:
        flags["speculative_config"] = a.speculative
    lines = [f'[[arms]]\nid = "{a.id}"\nlabel = {json.dumps(a.label, ensure_ascii=False)}\nendpoint = "http://127.0.0.1:{port}"',
             'model = "qwen2.5-coder-1.5b"\nengine = "llama.cpp"']
    if a.baseline:
        lines.append(f'baseline = "{a.baseline}"')
    lines.append(f"flags = {_inline(flags)}")
    lines.append(f"\n[arms.launch]\ncommand = {json.dumps(command, ensure_ascii=False)}\nstart_timeout_s = 300\nstop_grace_s = 20\n")
    return "\n".join(lines)


def config(title: str, record: dict, arms: list[ArmSpec], prompts: list[str], parallel: int, head: str,
           timing_only: bool = False) -> str:
    rec = "\n".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in record.items())
    body = "\n".join(arm(a, 8311 + i, parallel) for i, a in enumerate(arms))
    return (f"{head}\n# Written by recorder/engine/llamacpp_configs.py (edit that, not this file).\n"
            f"title = {json.dumps(title, ensure_ascii=False)}\n" + ("timing_only = true\n" if timing_only else "")
            + f"\n[record]\n{rec}\n\n{body}\n" + "\n".join(prompts))


HOST = {"host_busy_max": 0.25, "host_busy_max_wait_s": 900, "host_busy_on_timeout": "stop"}
HEAD = ("# Qwen2.5-Coder-1.5B-Instruct on llama.cpp's llama-server, this 2-core CPU (docs/llamacpp.md). The recorder\n"
        "# starts and stops each arm's server itself, one at a time: `make llamacpp-recordings`.")


def main() -> None:
    greedy = {"temperature": 0.0}
    ladder_prompts = [prompt(t, t, greedy) for t in TEXTS] + [
        prompt("chat-sampled", "chat", SAMPLED), prompt("prose-sampled", "prose", SAMPLED)]
    files = {
        "qwen-llamacpp.toml": config(
            "Qwen2.5-Coder-1.5B on llama.cpp CPU: F16 → 4-bit → 0.5B draft model, and n-gram lookup",
            {"output": "recordings/qwen-coder-1.5b-llamacpp-cpu.jsonl", "max_tokens": 192, "repeats": 3,
             "warmup": 1, **HOST}, LADDER, ladder_prompts, 1, HEAD),
        "qwen-llamacpp-sweep.toml": config(
            "Qwen2.5-Coder-1.5B on llama.cpp CPU: concurrency sweep, draft model on and off, F16 and 4-bit",
            {"output": "recordings/qwen-coder-1.5b-llamacpp-cpu-sweep.jsonl", "max_tokens": 48,
             "levels": [1, 2, 4, 8], "rounds": 2, **HOST}, SWEEP,
            [prompt("code", "code", greedy), prompt("reasoning", "reasoning", greedy)], 8, HEAD),
        "qwen-llamacpp-breakeven.toml": config(
            "Qwen2.5-Coder-1.5B on llama.cpp CPU: break-even map, draft model at a set acceptance length × streams",
            {"output": "recordings/qwen-coder-1.5b-llamacpp-cpu-breakeven.jsonl", "max_tokens": 32,
             "levels": [1, 2, 4, 8], "rounds": 1, **HOST}, BREAKEVEN, [prompt("code", "code", greedy)], 8,
            HEAD + "\n# --spec-synth-len is llama-server's benchmark-only mode: the acceptance is set, the timing is "
                   "the engine's;\n# the text is not the model's answer (timing_only).", timing_only=True),
        "qwen-llamacpp-temperature.toml": config(
            "Qwen2.5-Coder-1.5B on llama.cpp CPU: temperature 0 / 0.3 / 0.7 / 1.0, F16 with and without the draft model",
            {"output": "recordings/qwen-coder-1.5b-llamacpp-cpu-temperature.jsonl", "max_tokens": 64,
             "repeats": 2, "warmup": 0, **HOST}, TEMPERATURE,
            [prompt(f"{t}-t{temp:g}", t, {"temperature": temp, **({"seed": 7} if temp else {})})
             for t in ("code", "prose") for temp in (0.0, 0.3, 0.7, 1.0)], 1, HEAD),
    }
    for name, text in files.items():
        (CONFIGS / name).write_text(text)
        print(CONFIGS / name)


if __name__ == "__main__":
    main()
