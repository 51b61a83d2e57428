"""The trained head offline, on the conversations a recording holds: is a low acceptance the head or the engine?

    python3 gpu/drafter_eval.py RECORDING ARM HEAD TARGET [PROMPT ...]   # CPU is enough: one pass a prompt

For each prompt, the reference arm's greedy answer in RECORDING (its token ids) after the prompt as the chat
template renders it; the target's hidden states as gpu/drafter_train.py's `hidden` step takes them; then the head
through speculators' own forward pass, as its validation runs during training: the share of answer tokens it
predicts at each of the three unrolled steps (speculators' full_acc_k). Run with vLLM's speculators, transformers and
this checkout on the path, as the training ran (docs/gpu.md).
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def conversation(recording: Path, arm: str, prompt: str, tokenizer) -> dict:
    """The reference arm's first measured greedy run of this prompt, as prompt ids + answer ids."""
    header, *lines = (json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines())
    text = next(p["text"] for p in header["prompts"] if p["id"] == prompt)
    run = next(ln for ln in lines if ln.get("type") == "run" and ln["arm"] == arm and ln["prompt"] == prompt
               and not ln["warmup"] and ln["status"] == "ok")
    answer = [i for e in run["events"] for i in e.get("ids", [])]
    ids = tokenizer.apply_chat_template([{"role": "user", "content": text}], add_generation_prompt=True)
    ids = ids["input_ids"] if hasattr(ids, "keys") else ids  # transformers 5 returns a BatchEncoding
    return {"id": prompt, "kind": "", "prompt_ids": list(ids), "answer_ids": answer, "finish": "length"}


def local_head(head: Path, target: Path) -> Path:
    """The head with its config naming this machine's target: speculators loads the verifier's embedding and
    lm_head from the path the config names (the device's), whatever else it is told."""
    local = Path(tempfile.mkdtemp(prefix="head-"))
    config = json.loads((head / "config.json").read_text())
    config["speculators_config"]["verifier"]["name_or_path"] = str(target)
    (local / "config.json").write_text(json.dumps(config))
    (local / "model.safetensors").symlink_to((head / "model.safetensors").resolve())
    return local


def evaluate(recording: Path, arm: str, head: Path, target: Path, prompts: list[str]) -> dict[str, list[float]]:
    import torch
    from speculators.losses.utils import resolve_loss_config
    from speculators.models.eagle3 import Eagle3DraftModel
    from speculators.models.eagle3.data import shift_batch
    from speculators.train.data import ArrowDataset, CollateFn
    from transformers import AutoTokenizer

    from gpu import drafter_train

    tokenizer = AutoTokenizer.from_pretrained(target)
    local = local_head(head, target)
    config = Eagle3DraftModel.config_class.from_pretrained(local)
    config.transformer_layer_config._attn_implementation = "sdpa"  # as it trained (never saved in the config)
    model = Eagle3DraftModel.from_pretrained(local, config=config, verifier=str(target))
    # the exported head has no embedding (vLLM shares the target's); speculators fills only a NaN one, and a
    # missing one loads as zeros, so it is taken from the target here as vLLM does
    model._load_verifier_weights(overwrite_embed_tokens=True)  # noqa: SLF001
    model = model.float().eval()
    found = {}
    for prompt in prompts:
        with tempfile.TemporaryDirectory() as work:
            drafter_train.WORK, drafter_train.TARGET = Path(work), target
            (Path(work) / "answers.jsonl").write_text(json.dumps(conversation(recording, arm, prompt, tokenizer)))
            drafter_train.hidden()
            data = ArrowDataset(max_len=4096, datapath=Path(work) / "data", on_missing="raise")
            batch = CollateFn(4096, model.config.transformer_layer_config.hidden_size, preprocess=shift_batch,
                              dtype=torch.float32)([data[0]])
            with torch.no_grad():
                _, _, metrics = model(**{k: v for k, v in batch.items() if isinstance(v, torch.Tensor)},
                                      loss_config=resolve_loss_config("kl_div", drafter_train.RECIPE[
                                          "loss_implementation"]))
            found[prompt] = [round(float(metrics[f"full_acc_{k}_sum"] / metrics[f"full_acc_{k}_total"]), 3)
                             for k in range(3)]
            print(f"{prompt}: full_acc {found[prompt]}", flush=True)
    return found


if __name__ == "__main__":
    rec, arm_id, head_dir, target_dir, *ids = sys.argv[1:]
    evaluate(Path(rec), arm_id, Path(head_dir), Path(target_dir), ids or ["code", "copy-quote"])
