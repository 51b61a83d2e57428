"""No English words on Korean pages except names (issue #41 item 7): every page, in Korean, with what a reader sees of
it (tests/apptest_helpers.visible_texts), has no Latin-letter word that is not a name — of a model, engine, machine,
person, paper, product, unit, flag, layer — or an identifier the recordings carry (arm and prompt ids, machine lines);
the prompts' own English text, shown as it was sent, is taken out first."""

from __future__ import annotations

import csv
import re
from unittest.mock import ANY

import pytest

from specreplay import languages
from specreplay.recording import catalogue
from specreplay.recording.format import Recording
from specreplay.replay.arms import sim_pane
from specreplay.replay.levels import default_keys, level_pane
from specreplay.replay.panes import recorded_arm_pane
from specreplay.replay.payload import player_payload
from specreplay.resources import ASSETS
from specreplay.views import pages
from tests.apptest_helpers import open_page, shown, visible_texts

# Names a Korean page keeps as they are. Each is a proper name, a unit, a flag or a code word, never prose.
NAMES = {
    # engines, libraries, kernels, formats, tools
    "vllm", "llama", "cpp", "llama-server", "llama-quantize", "ngram", "ngram-simple", "marlin", "tinygemm",
    "nvidia-modelopt", "bench", "serve", "aiperf", "guidellm", "sglang", "tensorrt-llm", "triton", "streamlit",
    "specreplay", "export-html", "export-chart", "jsonl", "csv", "mp4", "gif", "iframe", "gguf", "awq", "gptq",
    "speculators",  # vLLM's training library (the trained EAGLE-3 head, issue #38)
    # models and model families, drafters, methods
    "qwen", "smollm", "instruct", "coder", "gemma", "vicuna", "deepseek", "dflash", "eagle", "medusa", "hydra", "mtp",
    "draft_model", "suffix", "typical",  # Medusa's "typical acceptance" verification
    # companies, products, people, papers, publications (as the sources name themselves)
    "nvidia", "intel", "xeon", "processor", "amd", "epyc", "spheron", "network", "lambda", "model", "optimizer",
    "thakicloud", "insights", "wccftech", "reddit", "iammess", "edge", "hyunseok", "jung", "leviathan", "li",
    "fast", "inference", "from", "transformers", "via", "speculative", "decoding", "github", "arxiv", "icml",
    "hugging", "face", "mt-bench", "humaneval", "gsm", "alpaca", "cnn", "dm", "lookahead",
    # the language switch names each language in its own words
    "english", "language",
    # units and measures
    "tok", "ms", "km", "fps", "gib", "gb", "mb", "tb", "flop", "bw", "qps", "ttft", "kv", "cuda", "driver", "cores",
    "cpu", "gpu",
    # layer names of the roofline page (Llama's own module names)
    "qkv", "up", "gate", "down", "ridge", "peak",
}
LATIN_WORD = re.compile(r"(?<![\w.\-/@#=_])[A-Za-z][a-z]+(?:[-'][a-z]+)*(?![\w/\-@.=_])")
# Markup and code a reader never reads as words: badges, icons, link addresses, inline code, LaTeX, HTML tags, the
# live charts' {placeholders}, file names and paths, and names shortened with an ellipsis ("qwen-coder…").
MARKUP = re.compile(r":[a-z]+-badge\[|:material/[a-z_]+:|\]\([^)]*\)|`[^`]*`|\$\$.*?\$\$|\$[^$]*\$|<[^>]+>|\{[a-z_]+\}"
                    r"|\S*…\S*"
                    r"|https?://\S+|\S+\.(?:jsonl|toml|md|py|json|csv)\b|\*\*|\u2060", re.S)


def data_words() -> set[str]:
    """Identifiers and names the bundled recordings carry (arm and prompt ids and kinds, models, engines, machines)
    and the names the source files give in their Korean columns."""
    words: set[str] = set()
    for e in catalogue.entries():
        h = e.header
        if h is None:
            continue
        text = [h.machine.line] + [x for a in h.arms for x in (a.id, a.model, a.engine.line)]
        text += [x for p in h.prompts for x in (p.id, p.kind)]
        words |= {w.lower() for t in text for w in re.findall(r"[A-Za-z][A-Za-z'-]*", t)}
    for name, column in (("original_sources.csv", "name_ko"), ("articles.csv", "byline_ko")):
        with (ASSETS / name).open(newline="", encoding="utf-8") as f:
            words |= {w.lower() for row in csv.DictReader(f) for w in re.findall(r"[A-Za-z][A-Za-z'-]*", row[column])}
    return words


def prompt_texts() -> list[str]:
    """What the recordings asked their models, in English: quoted input, shown as it was sent."""
    return sorted({p.text for e in catalogue.entries() if e.header for p in e.header.prompts}, key=len, reverse=True)


def without_prompts(text: str, prompts: list[str]) -> str:
    """The text with every quoted prompt (or the start of one, as a select option shortens it) taken out."""
    for p in prompts:
        at = text.find(p[:24])
        while at >= 0:
            end = at + next((i for i, (a, b) in enumerate(zip(text[at:], p)) if a != b), min(len(p), len(text) - at))
            text = text[:at] + " " + text[end:]
            at = text.find(p[:24])
    return text


def english_words(texts: list[str], allowed: set[str], prompts: list[str] = []) -> dict[str, str]:  # noqa: B006
    """Latin-letter words not allowed, each with the first text it was found in."""
    found: dict[str, str] = {}
    for text in texts:
        plain = MARKUP.sub(" ", without_prompts(shown(text), prompts))
        for word in LATIN_WORD.findall(plain):
            if word.lower() not in allowed and not set(word.lower().split("-")) <= allowed:
                found.setdefault(word, plain.strip()[:160])
    return found


# Every page as it opens, and the states that show other recordings: our GPU's sweeps, the H200 ladder, timing-only
# replays and a concurrency replay.
STATES = [(p.name, {}) for p in pages.PAGES] + [
    ("concurrency", {"source": "gpu"}), ("concurrency", {"family": "quant", "source": "gpu"}),
    ("ladder", {"our_machine": "h200"}), ("replay", {"recording": "timing-only-27b-h200-ladder"}),
    ("replay", {"recording": "smollm2-vllm-cpu-sweep"}), ("chooser", {"temperature": "high"}),
    # the target-size files' shaped drafters ("5 layers at the target's width, …"), whose labels were English
    ("replay", {"recording": "timing-only-sizes-7b-h200"}), ("replay", {"recording": "timing-only-sizes-27b-drafters-h200"})]


@pytest.mark.parametrize(("name", "query"), STATES)
def test_a_korean_page_has_no_english_words_but_names(name: str, query: dict[str, str]) -> None:
    at = open_page(name, "ko", **query)
    assert not at.exception
    found = english_words(visible_texts(at), NAMES | data_words(), prompt_texts())
    assert not found, found


def test_the_check_finds_english_prose() -> None:
    assert english_words(["같은 조건 아님: greedy 글이 다릅니다"], NAMES) == {"greedy": "같은 조건 아님: greedy 글이 다릅니다"}
    assert english_words([":green-badge[여기서 측정] vLLM 0.23.0 · [링크](https://example.com/a-b) `--flag`"], NAMES) == {}


def test_every_bundled_recording_has_a_korean_title() -> None:
    from specreplay.replay.titles import _titles

    assert {f"{e.name}.jsonl" for e in catalogue.entries()} == set(_titles())


def test_the_korean_players_hover_and_simulated_subtitle_are_korean() -> None:
    """The player's pane texts (its payload: labels, subtitles, hover details) on a Korean page: a recorded pane, a
    concurrency level's and two simulated ones (a preset and a custom arm)."""
    rec, sweep = catalogue.read("smollm2-vllm-cpu.jsonl"), catalogue.read("smollm2-vllm-cpu-sweep.jsonl")
    assert isinstance(rec, Recording) and isinstance(sweep, Recording)
    panes = [recorded_arm_pane(rec, rec.arms[0].id, rec.prompts[0].id), level_pane(sweep, default_keys(sweep)[0]),
             sim_pane("sim:p000-dflash2", "시뮬레이션"), sim_pane("sim:100/0.2/0.7/4/300", "시뮬레이션")]
    flags = languages.text("ko", "pane_details.flags")  # the engine's settings as recorded (key=value, its own comments): data, not prose
    texts = [t for p in player_payload(panes, lang="ko")["panes"]
             for t in (p["subtitle"], *p["details"], *(v for k, v in p["details"].items() if k != flags))]
    assert not english_words(texts, NAMES | data_words(), prompt_texts())
    assert english_words([player_payload(panes[2:], lang="en")["panes"][0]["subtitle"]], NAMES) == {"tokens": ANY}


@pytest.mark.parametrize("name", sorted(e.name for e in catalogue.entries() if e.header))
def test_every_arm_label_of_every_bundled_recording_is_korean(name: str) -> None:
    """Each arm's full label and the short one a pane shows beside all its file's arms (the player's and the video's
    titles): a short label ends where its full one has more words ('EAGLE-3-shaped head, K=4' has no '(' after
    'head'), so each is checked, not only the pages' defaults."""
    from specreplay.replay.labels import distinct_labels
    from specreplay.words import arm_label

    header = next(e.header for e in catalogue.entries() if e.name == name)
    assert header is not None
    labels = [a.label for a in header.arms]
    texts = [arm_label(s, "ko") for s in labels + distinct_labels(labels)]
    assert not english_words(texts, NAMES | data_words())
