"""What a reader sees of sources and kinds: article titles (never a hashed file name), English names on English pages,
the start page's kinds, the cost page's batch table, and the method chooser's answers with their cited figures."""

import json
import re

import pandas
import pytest
from google.protobuf.message import Message

from specreplay.explain import chooser
from specreplay.quoted import article_tables, articles
from specreplay.views import pages
from tests.apptest_helpers import open_expander, open_page, shown

PAGES = [p.name for p in pages.PAGES]
HASHED = re.compile(r"\d{3}_[0-9a-f]{16}")


def strings(value) -> list[str]:
    """Every string in a message, a JSON document inside one (charts) included, unescaped."""
    if isinstance(value, Message):
        return [s for _, v in value.ListFields() for s in strings(v)]
    if isinstance(value, (list, tuple)) or type(value).__name__.startswith("Repeated"):
        return [s for v in value for s in strings(v)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, str):
        try:
            doc = json.loads(value)
        except ValueError:
            return [value]
        return strings(doc) if isinstance(doc, (dict, list)) else [value]
    return []


def page_text(at) -> str:
    """Everything the page sent: every element's strings (markdown, badges, labels, chart JSON) and table cells."""
    out = []

    def walk(node) -> None:
        value = getattr(node, "value", None) if type(node).__name__ in ("Dataframe", "Table") else None
        if isinstance(value, pandas.DataFrame):
            out.append(value.to_string())
        if getattr(node, "proto", None) is not None:
            out.extend(strings(node.proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return shown("\n".join(out))


def korean_names() -> set[str]:
    """The Korean section and condition names of the transcribed tables (each has an English column)."""
    names = set()
    for c in article_tables.cells():
        names |= {v for v in (c.section, *c.conditions.values()) if article_tables.HANGUL.search(v)}
    return names


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("name", PAGES)
def test_no_page_shows_a_hashed_article_file_name(name: str, lang: str) -> None:
    text = page_text(open_page(name, lang))
    assert not HASHED.findall(text)


@pytest.mark.parametrize("name", PAGES)
def test_english_pages_show_english_section_and_condition_names(name: str) -> None:
    text = page_text(open_page(name, "en"))
    assert not [n for n in korean_names() if n in text]


@pytest.mark.parametrize(("name", "expected"), [
    ("concurrency", ['article 001 "With the same feature on, the multiplier went from 1.4× to 0.8×" (ThakiCloud)',
                     "fixed 8k-token prompt (256k prompts not measured)"]),
    ("cost", ['article 004 "Speculative decoding: which method is how fast"',
              "original: EAGLE-3 paper (Li et al., 2025), table 4",
              "original: Lambda GPU cloud price list (checked 2026-10-25, before tax)",
              'article 002 "Why 4-bit quantization gets slower than BF16 in large-batch serving" (Hyunseok Jung']),
    ("roofline", ["original: NVIDIA Model Optimizer (nvidia-modelopt v0.21.1)"]),
    ("ladder", ['article 000 "Two changes to the same 27B model took it from 97 to 458 tokens per second"',
                "u/iamMess"]),
    ("acceptance", ["original: Leviathan et al., Fast Inference from Transformers via Speculative Decoding"]),
])
def test_source_lines_name_the_article_and_the_original(name: str, expected: list[str]) -> None:
    # the concurrency page opens on our llama.cpp sweep once it is bundled; article 001 is one click away
    at = open_page(name, "en", **({"source": "001"} if name == "concurrency" else {}))
    if name == "acceptance":  # the formula's source sits under article 004's table, filled once opened
        open_expander(at, "acceptance_check_open")
    text = page_text(at)
    for line in expected:
        assert line in text


def test_quoted_tables_name_their_original_in_their_sources_block() -> None:
    text = page_text(open_page("concurrency", "en", source="004"))
    assert "original: EAGLE-3 paper (Li et al., 2025), table 3" in text


def test_source_lines_in_korean() -> None:
    text = page_text(open_page("concurrency", "ko", source="001")) + page_text(open_page("concurrency", "ko", source="004"))
    assert "기사 001 「같은 기능을 켠 채로 배수가 1.4배에서 0.8배가 됐습니다」 (ThakiCloud)" in text
    assert "원 출처: EAGLE-3 논문 (Li 외, 2025) 표 3" in text


def test_articles_own_arithmetic_is_badged_computed() -> None:
    at = open_page("ladder", "en")
    printed = next(c.value for c in at.caption if "Multipliers printed in the article" in c.value)
    assert printed.startswith(":blue-badge[computed]")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_home_lists_the_kinds(lang: str) -> None:
    text = " ".join(m.value for m in open_page("home", lang).markdown)
    names = {"ko": ["여기서 측정", "타이밍 전용 (설정한 수용)", "인용", "계산", "시뮬레이션", "가져옴"],
             "en": ["measured here", "timing only (set acceptance)", "quoted", "computed", "simulated", "imported"]}[lang]
    for color, label in zip(["green", "yellow", "violet", "blue", "orange", "gray"], names):
        assert f":{color}-badge[{label}] **{label}**" in text


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_start_pages_timing_only_ladder_is_badged_timing_only_never_measured_here(lang: str) -> None:
    """Our 27B-class H200 ladder ran dummy weights at a set acceptance: its badge says so (issue #41)."""
    from specreplay.words import word

    at = open_page("home", lang)
    ours = next(m.value for m in at.markdown if ":violet-badge[" in m.value and "H200" in m.value)
    assert f":yellow-badge[{word('timing_only', lang)}]" in ours and word("measured", lang) not in ours


def test_cost_page_translates_batch_into_cost_per_token() -> None:
    at = open_page("cost", "en")
    batch = next(t.value for t in at.table if "batch" in t.value.columns)
    row64 = batch[batch["batch"] == 64].iloc[0]
    assert row64["EAGLE-3 · SGLang throughput × (quoted)"] == "1.4×"
    assert row64["EAGLE-3 · SGLang cost per token (computed)"] == "-29%"  # 1 ÷ 1.4 from the table's rounded value
    assert batch[batch["batch"] == 48].iloc[0]["EAGLE · SGLang cost per token (computed)"] == "+14%"
    text = page_text(at)
    assert "EAGLE-3 · SGLang · MT-bench · batch 64: cost per token -28%" in text  # the article's own, from 1.38
    assert "EAGLE · SGLang · MT-bench · batch 48: cost per token +14%" in text
    assert "Batch 1 is the costliest way to serve" in text
    assert "1B draft model (bf16): weights 2 GB; 135M draft model (bf16): weights 0.27 GB" in text


BASE = {"drafter": "none", "copies": "no", "concurrency": "low", "memory": "yes", "temperature": "low"}
CASES = [
    # (answers changed from BASE, recommended, avoided, advice, figures that must be cited, article ids cited)
    ({}, [], ["ngram"], [],
     ["free prose · 8 concurrent: 0.8×", "prose-story · ngram (vllm 0.23.0) · temperature 0.8: measured speedup 0.39×",
      "chat-advice · ngram (vllm 0.32.0) · temperature 0.8: measured speedup 0.69×"], ["001"]),
    ({"drafter": "eagle3"}, ["eagle3"], ["ngram"], [],
     ["EAGLE-3 · HumanEval (code) · temperature 0: 6.47×", "EAGLE-3 · CNN/DM (summarization) · temperature 0: 5.01×",
      "temperature 0: 5.5×", "code: acceptance length 5.3–5.6"], ["004", "000"]),
    ({"copies": "yes"}, ["ngram", "suffix"], [], [],
     ["PLD · CNN/DM (summarization) · temperature 0: 2.42×", "copy: acceptance length 3.1",
      "free-prose share: of generated tokens 93.5%"], ["004", "001"]),
    ({"drafter": "small_model", "memory": "no", "concurrency": "high"}, [], ["draft_model", "ngram"], ["peak"],
     ["1B draft model (bf16): weights 2 GB", "drafter on · Edge-budget setup: KV-cache pool -36%",
      "EAGLE · SGLang · MT-bench · batch 48: cost per token +14%", "α 0.2 · γ 3: speedup 1.25× · compute 3.21×"],
     ["004", "001"]),
    ({"drafter": "mtp", "temperature": "high"}, ["mtp"], ["ngram"], ["creative"],
     ["MTP tuned · general: decode 114 tok/s",
      ("EAGLE-3 · Llama 3.1 8B · mean of MT-bench, HumanEval, GSM8K, Alpaca, CNN/DM · temperature 1: 3.45×")],
     ["003", "004", "001"]),
]


@pytest.mark.parametrize(("change", "recommended", "avoided", "advice", "cited", "ids"), CASES)
def test_chooser_logic(change, recommended, avoided, advice, cited, ids) -> None:
    fits, general = chooser.choose({**BASE, **change})
    assert [f.method.id for f in fits if f.verdict == "recommend"] == recommended
    assert [f.method.id for f in fits if f.verdict == "avoid"] == avoided
    assert [r.id for r in general] == advice


@pytest.mark.parametrize(("change", "recommended", "avoided", "advice", "cited", "ids"), CASES)
def test_chooser_page_shows_methods_figures_and_sources(change, recommended, avoided, advice, cited, ids) -> None:
    at = open_page("chooser", "en")
    for q, v in change.items():
        at.radio(key=f"ask_{q}").set_value(v).run()
    assert not at.exception
    heads = [m.value for m in at.markdown if m.value.startswith("### ")]
    assert heads == [f"### :green-badge[recommended] `{m}` · {chooser.methods()[m].name_en}" for m in recommended] + \
        [f"### :red-badge[avoid] `{m}` · {chooser.methods()[m].name_en}" for m in avoided]
    text = page_text(at)
    for figure in cited:
        assert figure in text
    for i in ids:
        assert articles.article_name(next(f for f in articles.articles() if f.startswith(i)), "en") in text
    assert "original: vLLM documentation: Speculative Decoding" in text or not (recommended or avoided)


def test_chooser_page_in_korean_links_to_the_matching_settings() -> None:
    at = open_page("chooser", "ko")
    at.radio(key="ask_copies").set_value("yes").run()
    text = page_text(at)
    assert "### :green-badge[추천] `ngram` · n-gram" in text
    assert "PLD · CNN/DM (요약) · 온도 0: 2.42×" in text
    assert "기사 004 「투기적 디코딩, 어떤 방식이 얼마나 빠른가」" in text
    links = {p.proto.page: p.proto.label for p in at.get("page_link")}
    # 001's copy-style acceptance length 3.1 at K = 7 is α ≈ 0.69 (theory.implied_alpha)
    assert "수용률 페이지에서 α 0.69, γ 7로 보기" in links.values()
    assert "동시 접속 페이지에서 8에 두고 보기" in links.values()
    assert "속도만 쟀고 출력 품질은 재지 않았습니다" in text  # 000's caveat, with its repeat spread
    assert "추론·코드 프롬프트: 반복 간 편차 0–0.2 tok/s" in text


def test_chooser_default_answers_say_none_pays_with_the_measured_figure() -> None:
    """No drafter, text written anew, high temperature: no method is recommended; the page says none pays and gives
    the best speedup we measured at that temperature for the method left (n-gram, below 1.0). At a low temperature
    the best greedy cell held 1.05×, and the page says that instead."""
    at = open_page("chooser", "en", temperature="high")
    note = next(i.value for i in at.info if "None pays here" in i.value)
    assert note.startswith(":green-badge[measured here]") and "`ngram`" in note and "measured speedup 0.69×" in note
    at.radio(key="ask_temperature").set_value("low").run()
    note = next(i.value for i in at.info if "recommend no method here" in i.value)
    assert "`ngram`" in note and "prose-t0.0" in note and "measured speedup 1.05×" in note
