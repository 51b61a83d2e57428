"""Article metadata, the new quoted figures, the chooser's rules and the loaders' checks on them."""

import shutil

import pytest

from specreplay.explain import axis_series, chooser
from specreplay.quoted import article_tables, articles, asset_csv


def values(table: str, key: str, metric: str) -> list[float | None]:
    return [c.value for c in article_tables.table_cells(table, metric) if c.key == key]


def test_every_source_is_a_known_article_with_a_title() -> None:
    known = articles.articles()
    assert sorted(a.id for a in known.values()) == ["000", "001", "002", "003", "004"]
    assert all(c.source in known for c in article_tables.cells())
    assert all(m.source in known for m in article_tables.speculative_math())
    assert known["001_fd68569eeaa6a69a.txt"].title_ko == "같은 기능을 켠 채로 배수가 1.4배에서 0.8배가 됐습니다"
    assert articles.article_name("002_a0e4c08bb76e76c3.txt", "en") == (
        'article 002 "Why 4-bit quantization gets slower than BF16 in large-batch serving" '
        "(Hyunseok Jung (ingu627.github.io))")
    assert all(not a.date for a in known.values())  # none of the five texts prints its publication date


def test_quoted_tables_name_their_original_source() -> None:
    originals: dict[str, set[str]] = {}
    for c in article_tables.cells():
        originals.setdefault(c.table, set()).add(c.original)
    assert originals["batch_speedup"] == {"eagle3_table3", "eagle3_vllm"}  # SGLang rows, and the paper's vLLM points
    assert originals["h200_relative_throughput"] == {"nvidia_modelopt"} and originals["h100_concurrency"] == {"spheron"}
    assert originals["method_speedup"] == {"eagle3_table1"} and originals["ladder_overall"] == {""}
    assert {c.original for c in article_tables.table_cells("cost_h100", "price_per_hour")} == {"lambda_price"}
    assert all(c.original for c in article_tables.cells() if c.kind == "quoted" and c.table not in ("kv_example",
                                                                                              "spec_example"))


def test_articles_own_arithmetic_is_computed() -> None:
    kinds = {(c.table, c.metric): c.kind for c in article_tables.cells()}
    assert kinds[("ladder_overall", "step_ratio_stated")] == "computed"
    assert kinds[("ladder_overall", "decode_rate")] == "measured"
    assert kinds[("h100_concurrency", "throughput_ratio")] == "computed"
    assert kinds[("h100_concurrency", "throughput")] == "quoted"
    assert kinds[("memory", "sessions")] == "computed" and kinds[("memory", "kv_pool_change")] == "measured"
    assert {m.kind for m in article_tables.speculative_math()} == {"computed"}


def test_new_figures_from_004() -> None:
    assert values("method_speedup", "training_free", "speedup_min") == [1.6]
    assert values("method_speedup", "training_free", "speedup_max") == [1.9]
    assert values("method_speedup", "eagle_3", "speedup") == [6.47, 5.01, 5.5]
    assert values("method_speedup", "pld", "speedup") == [2.42]
    assert (values("method_speedup", "pld", "speedup_min"), values("method_speedup", "pld", "speedup_max")) == (
        [1.16], [1.85])
    assert values("t5_xxl", "smaller_draft", "alpha") + values("t5_xxl", "larger_draft", "alpha") == [0.75, 0.82]
    assert values("t5_xxl", "smaller_draft", "speedup") + values("t5_xxl", "larger_draft", "speedup") == [3.4, 1.7]
    cost = {(c.key, c.level): c.value for c in article_tables.table_cells("batch_cost", "cost_change")}
    assert cost == {("eagle_3_sglang_batch_1", 1): -58, ("eagle_3_sglang", 64): -28, ("eagle_sglang", 48): 14}
    assert values("drafter_memory", "draft_1b", "weights") + values("drafter_memory", "draft_135m", "weights") == [
        2, 0.27]
    vllm = {m.id: (m.low_qps, m.high_qps) for m in chooser.methods().values()}
    assert vllm == {"eagle3": ("high", "medium_high"), "mtp": ("high", "medium_high"), "draft_model": ("high", "medium"),
                    "ngram": ("low_medium", "medium"), "suffix": ("low_medium", "medium")}


def test_new_figures_from_000_and_001() -> None:
    assert values("repeat_spread", "reasoning_and_code", "spread_min") == [0.0]
    assert values("repeat_spread", "reasoning_and_code", "spread_max") == [0.2]
    edge = [s for s in axis_series.series("concurrency_speedup", "speedup") if "Edge" in s.label]
    assert len(edge) == 2 and all("fixed 8k-token prompt" in s.conditions_en["workload"] for s in edge)
    assert article_tables.cell("traffic_mix", "free_prose_share", "share").value == 93.5
    assert {c.id for c in chooser.caveats().values()} >= {"quality_not_measured", "repeat_spread", "edge_prompt_8k",
                                                           "single_run_spread", "benchmarks_overstate"}


def test_rows_are_found_by_their_stable_key() -> None:
    assert article_tables.cell("memory", "drafter_on", "kv_pool_change").series == "드래프터 켬"
    assert article_tables.cell("kv_example", "llama_3_3_70b_fp16_kv", "layers").value == 80
    keys = [(c.table, c.key, tuple(c.conditions.values()), c.level, c.metric) for c in article_tables.cells()]
    assert len(keys) == len(set(keys))


def test_source_line_in_both_languages() -> None:
    cell = article_tables.cell("batch_cost", "eagle_sglang", "cost_change")
    assert articles.cite(cell, "en").startswith('article 004 "Speculative decoding: which method is how fast" · Why '
                                                "the gain shrinks as the batch grows, in numbers · original: EAGLE-3 "
                                                "paper (Li et al., 2025), table 3")
    assert "원 출처: EAGLE-3 논문 (Li 외, 2025) 표 3" in articles.cite(cell, "ko")
    assert not article_tables.HANGUL.search(articles.cite(cell, "en"))


@pytest.fixture
def assets_copy(tmp_path, monkeypatch):
    """A writable copy of assets/ the loaders read instead (caches cleared before and after)."""
    shutil.copytree(asset_csv.ASSETS, tmp_path / "assets", ignore=shutil.ignore_patterns("fonts", "player", "explainer"))
    monkeypatch.setattr(asset_csv, "ASSETS", tmp_path / "assets")
    caches = (article_tables.cells, article_tables.speculative_math, articles.articles, articles.originals, chooser.rules,
              chooser.methods, chooser.caveats)
    for f in caches:
        f.cache_clear()
    yield tmp_path / "assets"
    for f in caches:
        f.cache_clear()


def break_file(folder, name: str, old: str, new: str) -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(("name", "old", "new", "load", "problem"), [
    ("articles_measured.csv", ",More users leave no idle room to use (concurrency table),",
     ",손님이 늘면 (동시성 표),", "cells", "section_en' has Korean"),
    ("articles_measured.csv", ",More users leave no idle room to use (concurrency table),", ",,", "cells",
     "'section' is Korean, so 'section_en' needs its English"),
    ("quoted_methods.csv", "eagle3_table1", "eagle3_table9", "cells", "original 'eagle3_table9' is not an id"),
    ("quoted_methods.csv", ",training_free,", ",Training Free,", "cells", "key 'Training Free'"),
    ("articles.csv", "001,001_fd68569eeaa6a69a.txt", "001,002_fd68569eeaa6a69a.txt", "articles", "must be <id>_"),
    ("quoted_chooser.csv", "drafter=eagle3", "drafter=medusa", "rules", "not question=answer"),
    ("quoted_chooser.csv", "method_speedup/eagle_3/speedup", "method_speedup/eagle_4/speedup", "rules",
     "names no cell"),
    ("quoted_chooser.csv", ",recommend,eagle3,", ",recommend,medusa,", "rules", "not in assets/quoted_vllm_methods"),
    ("quoted_vllm_methods.csv", ",high,medium_high,", ",very high,medium_high,", "methods", "low_qps 'very high'"),
    ("article_caveats.csv", "Only speed was measured", "속도만", "caveats", "text_en' has Korean"),
])
def test_loaders_reject_broken_rows(assets_copy, name, old, new, load, problem) -> None:
    break_file(assets_copy, name, old, new)
    loader = {"cells": article_tables.cells, "articles": articles.articles, "rules": chooser.rules,
              "methods": chooser.methods, "caveats": chooser.caveats}[load]
    with pytest.raises(article_tables.DataError, match=problem) as err:
        loader()
    assert name in str(err.value)  # the message names the file (and line)
