"""The trained drafter's recipe on CPU (issue #38): its training prompts never overlap what we record, the
speculators command it stands for, the checkpoint it exports, and the arms that serve it name it.

The training itself runs on the lent GPU (docs/gpu.md); CI never has one.
"""

from __future__ import annotations

import json
import tomllib

import pytest

from gpu import device, drafter_prompts, drafter_train, qwen_gpu
from tests.browser_fixtures import ROOT

CONFIGS = ROOT / "recorder/configs"


@pytest.fixture(scope="module")
def prompts() -> list[dict]:
    return drafter_prompts.build(drafter_prompts.recorded_prompts(CONFIGS))


def test_no_training_prompt_shares_a_six_word_run_with_any_recorded_prompt(prompts):
    recorded = drafter_prompts.recorded_prompts(CONFIGS)
    assert len(recorded) > 20, "every recorder config's prompts are read"
    banned = set().union(*(drafter_prompts.shingles(t) for t in recorded))
    assert len(prompts) > 1000
    for p in prompts:
        assert drafter_prompts.shingles(p["text"]).isdisjoint(banned), p["id"]
        assert not any(r in p["text"] or p["text"] in r for r in recorded), p["id"]


def test_the_prompts_cover_code_prose_and_copy_once_each_with_stable_ids(prompts):
    kinds = {k: sum(p["kind"] == k for p in prompts) for k in ("code", "prose", "copy")}
    assert min(kinds.values()) > 200, kinds
    assert len({p["text"] for p in prompts}) == len(prompts)
    assert [p["id"] for p in prompts[:2]] == ["train-00000", "train-00001"]
    again = drafter_prompts.build(drafter_prompts.recorded_prompts(CONFIGS), limit=50)
    assert [p["text"] for p in again] == [p["text"] for p in prompts[:50]], "the same Python builds the same list"


def test_a_prompt_that_quotes_a_recorded_one_is_dropped():
    recorded = ["Write a Python module that implements an LRU cache class with get, put and delete methods"]
    assert drafter_prompts.overlaps("Please: implements an LRU cache class with get, put", set().union(
        *(drafter_prompts.shingles(t) for t in recorded)))
    kept = drafter_prompts.build(recorded, modules=("textwrap",))
    assert kept and not any("LRU cache class with get" in p["text"] for p in kept)


def test_the_cli_refuses_a_folder_without_recorded_prompts(tmp_path):
    with pytest.raises(SystemExit, match="no recorder config with prompts"):
        drafter_prompts.main([str(tmp_path / "p.jsonl"), "--configs", str(tmp_path)])


def test_the_train_command_is_the_recipe():
    cmd = drafter_train.train_command()
    r = drafter_train.RECIPE

    def value(flag: str) -> str:
        return cmd[cmd.index(flag) + 1]

    assert cmd[1:3] == ["-c", drafter_train.TRAIN_ENTRY] and "speculators.train" in cmd[2] and value("--speculator-type") == "eagle3"
    assert value("--draft-vocab-size") == str(r["draft_vocab_size"]) and value("--epochs") == str(r["epochs"])
    i = cmd.index("--target-layer-ids")
    assert [int(x) for x in cmd[i + 1:i + 4]] == [2, 14, 25] == r["target_layers"]
    assert value("--verifier-name-or-path") == str(qwen_gpu.TARGET_BF16) == str(drafter_train.TARGET)
    assert r["draft_layer"]["hidden_size"] == 1536, "the head reads the 1.5B target's hidden states"


def test_export_takes_the_last_epoch_not_the_links_beside_it(tmp_path):
    for name in ("0", "1", "10", "checkpoint_best"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.json").write_text("{}")
    (tmp_path / "2").mkdir()  # an epoch cut before its config was written
    assert drafter_train.last_checkpoint(tmp_path).name == "10"
    with pytest.raises(SystemExit, match="no epoch checkpoint"):
        drafter_train.last_checkpoint(tmp_path / "none")


def test_the_trained_arms_name_the_head_its_recipe_and_digest_and_the_device_fills_the_digest(tmp_path,
                                                                                              monkeypatch):
    cfg = tomllib.loads((CONFIGS / "gpu-qwen-coder-eagle3.toml").read_text())
    arms = {a["id"]: a for a in cfg["arms"]}
    assert set(arms) == {"bf16", "eagle3-k3", "eagle3-k4", "eagle3-k5", "ngram", "draft"}
    for k in qwen_gpu.TRAINED_KS:
        flags = arms[f"eagle3-k{k}"]["flags"]
        assert flags["speculative_config"] == {"method": "eagle3", "model": str(drafter_train.HEAD),
                                               "num_speculative_tokens": k}
        assert flags["draft_sha256"] == qwen_gpu.HEAD_SHA256 and flags["training_recipe"]["epochs"] > 0
        assert "trained here" in arms[f"eagle3-k{k}"]["label"] and arms[f"eagle3-k{k}"]["baseline"] == "bf16"
    arm, model = device.server("t-eagle3-k4")
    cmd, _ = device.server_command(arm, model)
    assert "--training-recipe" not in cmd and "--draft-sha256" not in cmd, "descriptions are not server flags"
    head = tmp_path / "head"
    head.mkdir()
    monkeypatch.setattr(drafter_train, "HEAD", head)
    assert device.head_sha256() == "not trained on this machine"
    (head / "sha256.txt").write_text("ab" * 32 + "  model.safetensors\n")
    assert device.head_sha256() == "ab" * 32
    assert json.dumps(drafter_train.RECIPE)  # the recipe travels in a JSON header as it is


def test_an_unknown_step_is_refused_naming_the_steps(tmp_path, monkeypatch):
    monkeypatch.setattr(drafter_train, "WORK", tmp_path)
    with pytest.raises(SystemExit, match="unknown step 'trian'.*prompts, generate, hidden, train, export, pieces"):
        drafter_train.main(["trian"])


def test_the_offline_check_takes_the_reference_arms_measured_answer_after_the_rendered_prompt():
    from gpu import drafter_eval

    class Tokenizer:  # transformers 5 returns a BatchEncoding, a mapping
        def apply_chat_template(self, messages, add_generation_prompt):
            assert add_generation_prompt and messages[0]["role"] == "user"
            return {"input_ids": [1, 2, 3], "attention_mask": [1, 1, 1]}

    conv = drafter_eval.conversation(ROOT / "recordings/qwen-coder-1.5b-vllm026-eagle3.jsonl", "bf16", "code",
                                     Tokenizer())
    assert conv["prompt_ids"] == [1, 2, 3] and len(conv["answer_ids"]) == 192
    assert conv["answer_ids"][:1] != conv["prompt_ids"][:1]
