"""Train an EAGLE-3 head for the real Qwen2.5-Coder-1.5B-Instruct with vLLM's `speculators` (issue #38).

    python3 gpu/drafter_train.py STEP [STEP ...]   # on the device, after gpu/device.py's setup-qwen

Steps (gpu/device.py runs them as `drafter:STEP`):
  prompts    the training prompts (gpu/drafter_prompts.py, disjoint from every recorded prompt) -> WORK/prompts.jsonl
  generate   the target's own greedy answers to them through vLLM's offline LLM (self-distillation, as EAGLE-3
             trains) -> WORK/answers.jsonl: the exact token ids vLLM saw and produced
  hidden     the target's hidden states for every answered conversation (Hugging Face transformers, bf16): the
             inputs of layers TARGET_LAYERS and the last layer's output before the final norm, in the layout
             speculators' file backend reads (WORK/data/hidden_states/hs_<i>.safetensors), with the dataset of
             token ids and loss masks (assistant tokens only) and the token frequencies for the draft vocabulary
  train      `python -m speculators.train` with RECIPE -> WORK/ckpt
  export     the last checkpoint without the embedding (vLLM shares the target's) -> HEAD, its sha256 in
             HEAD/sha256.txt, and the pieces to bring back in $OUT

The recipe's one home is RECIPE below: the recording header of every arm that serves the head names it
(gpu/qwen_gpu.py), with the head's sha256, so the recording says what was trained and how.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

WORK = Path("/tmp/drafter")
TARGET = Path("/tmp/models/qwen2.5-coder-1.5b-bf16")  # gpu/qwen_gpu.py TARGET_BF16 (setup-qwen converts it)
HEAD = Path("/tmp/models/qwen2.5-coder-1.5b-eagle3-trained")
NUM_LAYERS = 28  # Qwen2.5-Coder-1.5B
TARGET_LAYERS = (2, NUM_LAYERS // 2, NUM_LAYERS - 3)  # speculators' and vLLM's default for EAGLE-3
RECIPE = {
    "library": "speculators 0.9.0",
    "speculator_type": "eagle3",
    "prompts": "gpu/drafter_prompts.py: Python standard-library docstrings and sources (code, prose, copy), "
               "disjoint from every recorded prompt",
    "answers": "the target's own, greedy, at most 384 new tokens (vLLM offline, chat template)",
    "target_layers": list(TARGET_LAYERS),
    "draft_vocab_size": 16384,
    # one full-attention Llama layer at the target's width, with a narrower MLP than the target's 8,960: with the
    # reduced vocabulary it keeps the head near 120 MB, small enough to come back from the device in pieces
    "draft_layer": {"model_type": "llama", "hidden_size": 1536, "intermediate_size": 4096, "num_hidden_layers": 1,
                    "num_attention_heads": 12, "num_key_value_heads": 2, "head_dim": 128, "hidden_act": "silu",
                    "rms_norm_eps": 1e-6, "vocab_size": 151936, "max_position_embeddings": 32768,
                    "rope_parameters": {"rope_theta": 1000000.0, "rope_type": "default"},
                    "tie_word_embeddings": False},
    "epochs": 8,
    "lr": 1e-3,
    "optimizer": "muon",
    "ttt_steps": 3,
    "loss_implementation": "eager",  # the fused Triton loss failed under the device's torch 2.11 dynamo
    "total_seq_len": 8192,
}
MAX_NEW_TOKENS = 384
# speculators' trainer, in-process data loading (--num-workers 0: a patched worker would start unpatched)
TRAIN_ENTRY = ("import runpy; from gpu.drafter_train import without_video_formatting; without_video_formatting(); "
               "runpy.run_module('speculators.train', run_name='__main__')")
OUT = Path(os.environ.get("OUT", "/tmp/out"))
PIECE = 15 * 2**20  # the device tool brings back files of at most 16 MiB


def prompts(configs: Path) -> None:
    from gpu import drafter_prompts

    drafter_prompts.main([str(WORK / "prompts.jsonl"), "--configs", str(configs)])


def generate() -> None:
    """The target's greedy answers, with vLLM's own token ids (no re-tokenising: the head trains on what the
    server will see)."""
    from vllm import LLM, SamplingParams

    rows = [json.loads(line) for line in (WORK / "prompts.jsonl").read_text().splitlines()]
    t = time.monotonic()
    llm = LLM(model=str(TARGET), dtype="bfloat16", max_model_len=4096, max_num_seqs=256, seed=0,
              gpu_memory_utilization=0.6)
    print(f"generate: engine up in {time.monotonic() - t:.0f} s", flush=True)
    t = time.monotonic()
    outs = llm.chat([[{"role": "user", "content": r["text"]}] for r in rows],
                    SamplingParams(temperature=0.0, max_tokens=MAX_NEW_TOKENS), use_tqdm=False)
    with open(WORK / "answers.jsonl", "w") as fh:
        for row, out in zip(rows, outs, strict=True):
            fh.write(json.dumps({"id": row["id"], "kind": row["kind"], "prompt_ids": list(out.prompt_token_ids),
                                 "answer_ids": list(out.outputs[0].token_ids),
                                 "finish": out.outputs[0].finish_reason}) + "\n")
    new = sum(len(o.outputs[0].token_ids) for o in outs)
    print(f"generate: {len(rows)} answers, {new} new tokens in {time.monotonic() - t:.0f} s", flush=True)


def without_video_formatting() -> None:
    """datasets' torch formatter imports torchvision.io.VideoReader once torchvision is loaded, and the device's
    torchvision has none: the formatter is told torchvision is absent (no video columns here)."""
    import datasets.config

    datasets.config.TORCHVISION_AVAILABLE = False


def hidden() -> None:
    """hs_<i>.safetensors for row i: token_ids [seq] and hidden_states [seq, 4, hidden] (the three target layers'
    inputs, then the last layer's output before the final norm: speculators applies the verifier's norm itself).
    A file already written is kept (a cut call resumes)."""
    import torch
    from datasets import Dataset
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM

    without_video_formatting()
    rows = [json.loads(line) for line in (WORK / "answers.jsonl").read_text().splitlines()]
    data = WORK / "data"
    (data / "hidden_states").mkdir(parents=True, exist_ok=True)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = AutoModelForCausalLM.from_pretrained(TARGET, dtype=torch.bfloat16).to(device).eval()
    prenorm: list[torch.Tensor] = []
    model.model.norm.register_forward_pre_hook(lambda _m, args: prenorm.append(args[0]))
    t, columns = time.monotonic(), {"input_ids": [], "loss_mask": [], "seq_len": []}
    freq: Counter[int] = Counter()
    for i, row in enumerate(rows):
        ids = row["prompt_ids"] + row["answer_ids"]
        path = data / "hidden_states" / f"hs_{i}.safetensors"
        if not path.exists():
            tokens = torch.tensor(ids, dtype=torch.long)
            prenorm.clear()
            with torch.no_grad():
                out = model(input_ids=tokens[None].to(device), output_hidden_states=True)
            states = [out.hidden_states[layer][0] for layer in TARGET_LAYERS] + [prenorm[-1][0]]
            save_file({"token_ids": tokens, "hidden_states": torch.stack(states, dim=1).cpu().contiguous()}, path)
        columns["input_ids"].append(ids)
        columns["loss_mask"].append([0] * len(row["prompt_ids"]) + [1] * len(row["answer_ids"]))
        columns["seq_len"].append(len(ids))
        freq.update(row["answer_ids"])
    dataset = Dataset.from_dict(columns)
    dataset.set_format(type="torch")
    dataset.save_to_disk(str(data))
    # speculators' token-frequency file: {token id: count} over the trained (answer) tokens
    torch.save(dict(freq), data / "token_freq.pt")
    tokens = sum(columns["seq_len"])
    print(f"hidden: {len(rows)} conversations, {tokens} tokens ({sum(freq.values())} answer tokens trained on) "
          f"in {time.monotonic() - t:.0f} s", flush=True)


def train_command() -> list[str]:
    """The speculators command line RECIPE stands for (documented in docs/gpu.md)."""
    r = RECIPE
    return [sys.executable, "-c", TRAIN_ENTRY, "--speculator-type", r["speculator_type"],
            "--verifier-name-or-path", str(TARGET), "--data-path", str(WORK / "data"),
            "--save-path", str(WORK / "ckpt"), "--target-layer-ids", *map(str, r["target_layers"]),
            "--draft-vocab-size", str(r["draft_vocab_size"]), "--draft-config", str(WORK / "draft_layer.json"),
            "--epochs", str(r["epochs"]), "--lr", str(r["lr"]), "--optimizer", r["optimizer"],
            "--ttt-steps", str(r["ttt_steps"]), "--total-seq-len", str(r["total_seq_len"]),
            "--draft-attn-impl", "sdpa", "--loss-implementation", r["loss_implementation"], "--num-workers", "0",
            "--on-missing", "raise", "--log-freq", "20"]


def train() -> None:
    (WORK / "draft_layer.json").write_text(json.dumps(RECIPE["draft_layer"], indent=1))
    t = time.monotonic()
    if subprocess.call(train_command()):
        raise SystemExit("drafter train: speculators failed (its log is above)")
    print(f"train: {time.monotonic() - t:.0f} s", flush=True)


def last_checkpoint(ckpt: Path) -> Path:
    """speculators saves each epoch's checkpoint as ckpt/<epoch>/ (beside links such as checkpoint_best)."""
    epochs = [p for p in ckpt.iterdir() if p.name.isdigit() and (p / "config.json").exists()] if ckpt.exists() else []
    if not epochs:
        raise SystemExit(f"drafter export: no epoch checkpoint under {ckpt}")
    return max(epochs, key=lambda p: int(p.name))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def export() -> None:
    """The head without `embed_tokens` (vLLM's EAGLE-3 loader shares the target's when the head has none), its
    sha256 over the weights file, and the files in pieces of at most PIECE bytes in $OUT."""
    from safetensors.torch import load_file, save_file

    src = last_checkpoint(WORK / "ckpt")
    HEAD.mkdir(parents=True, exist_ok=True)
    weights: dict = {}
    for f in sorted(src.glob("*.safetensors")):
        weights |= load_file(f)
    weights = {k: v for k, v in weights.items() if "embed_tokens" not in k}
    save_file(weights, HEAD / "model.safetensors", metadata={"format": "pt"})
    config = json.loads((src / "config.json").read_text())
    config.pop("auto_map", None)  # speculators' own class; vLLM reads the speculators fields itself
    (HEAD / "config.json").write_text(json.dumps(config, indent=1))
    digest = sha256(HEAD / "model.safetensors")
    (HEAD / "sha256.txt").write_text(f"{digest}  model.safetensors\n")
    params = sum(v.numel() for v in weights.values())
    print(f"export: {src} -> {HEAD}: {params / 1e6:.1f} M parameters, "
          f"{(HEAD / 'model.safetensors').stat().st_size / 2**20:.1f} MiB, sha256 {digest}", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "head-config.json").write_text((HEAD / "config.json").read_text())
    (OUT / "head-sha256.txt").write_text((HEAD / "sha256.txt").read_text())


def pieces(first: int, count: int) -> None:
    """Pieces first .. first+count-1 of the head's weights into $OUT (a call brings back at most 64 MiB)."""
    blob = (HEAD / "model.safetensors").read_bytes()
    OUT.mkdir(parents=True, exist_ok=True)
    for i in range(first, first + count):
        part = blob[i * PIECE:(i + 1) * PIECE]
        if part:
            (OUT / f"head.{i:02d}").write_bytes(part)
    print(f"pieces: {len(blob) // PIECE + 1} in all; wrote {first}..{first + count - 1}", flush=True)


def _pieces(arg: str) -> None:
    first, _, count = arg.partition("+")
    pieces(int(first), int(count or 4))


STEPS = {"prompts": lambda arg: prompts(Path(arg)), "generate": lambda _: generate(), "hidden": lambda _: hidden(),
         "train": lambda _: train(), "export": lambda _: export(), "pieces": _pieces}


def main(argv: list[str]) -> int:
    WORK.mkdir(parents=True, exist_ok=True)
    for step in argv:
        name, _, arg = step.partition(":")
        if name not in STEPS:
            raise SystemExit(f"drafter_train.py: unknown step {step!r} (steps: {', '.join(STEPS)})")
        print(f"===== drafter {step} ({time.strftime('%H:%M:%S')})", flush=True)
        STEPS[name](arg)
    return 0


if __name__ == "__main__":
    if __package__ in (None, ""):
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main(sys.argv[1:]))
