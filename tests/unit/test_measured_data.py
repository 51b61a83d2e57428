"""The transcribed tables against the articles' numbers, the loader's checks, and the crossings read off them."""

import pytest

from specreplay.explain import axis_series, sweep_series
from specreplay.explain.derived import first_below
from specreplay.quoted import article_tables, asset_csv


def by_label(table: str, metric: str) -> dict[str, axis_series.Series]:
    return {s.label: s for s in axis_series.series(table, metric)}


def test_001_concurrency_table_with_unmeasured_cells_empty() -> None:
    s = by_label("concurrency_speedup", "speedup")
    assert list(s) == ["NVFP4-GPTQ · 131k · 배치 256", "KV fp8 · 256k · Edge 예산 · 8k 프롬프트", "INT4 · 256k · Edge 예산 · 8k 프롬프트"]
    assert s["NVFP4-GPTQ · 131k · 배치 256"].points == ((1, 1.34), (2, None), (4, 1.22), (8, None), (16, 1.05),
                                                         (64, 0.26))
    assert s["KV fp8 · 256k · Edge 예산 · 8k 프롬프트"].value_at(8) == 1.27
    assert s["KV fp8 · 256k · Edge 예산 · 8k 프롬프트"].value_at(16) is None
    assert [v for _, v in s["INT4 · 256k · Edge 예산 · 8k 프롬프트"].points] == [1.43, 1.23, 1.06, 0.82, None, None]
    assert all(x.kind == "measured" and x.source.startswith("001_") and x.conditions["engine"] == "vLLM 0.28.0"
               for x in s.values())


def test_crossings() -> None:
    s = by_label("concurrency_speedup", "speedup")
    assert first_below(s["INT4 · 256k · Edge 예산 · 8k 프롬프트"].points) == 8
    assert first_below(s["KV fp8 · 256k · Edge 예산 · 8k 프롬프트"].points) is None  # never
    assert first_below(s["NVFP4-GPTQ · 131k · 배치 256"].points) == 64
    e = by_label("batch_speedup", "speedup")
    assert first_below(e["EAGLE · SGLang"].points) == 24  # 1 at batch 16 is not below 1.0
    assert first_below(e["EAGLE-3 · SGLang"].points) is None
    h = by_label("h200_relative_throughput", "relative_throughput")
    assert first_below(h["Llama-3.1-70B · INT4 AWQ (W4A16)"].points) == 16
    assert first_below(h["Llama-3.1-8B · INT4 AWQ (W4A16)"].points) == 8
    assert first_below(h["Llama-3.1-70B · FP8 (W8A8 + FP8 KV)"].points) is None


def test_segments_flag_lines_across_unmeasured_cells() -> None:
    nvfp4 = by_label("concurrency_speedup", "speedup")["NVFP4-GPTQ · 131k · 배치 256"]
    assert axis_series.segments(nvfp4.points) == [((1, 4), (1.34, 1.22), (2,)), ((4, 16), (1.22, 1.05), (8,)),
                                               ((16, 64), (1.05, 0.26), ())]
    kv = by_label("concurrency_speedup", "speedup")["KV fp8 · 256k · Edge 예산 · 8k 프롬프트"]
    assert all(not skips for _, _, skips in axis_series.segments(kv.points))
    assert axis_series.segments(((1, 1.2), (2, None))) == []  # a single measured point draws no line


def test_segments_across_levels_other_series_measured_on_the_same_axis() -> None:
    """001's NVFP4 row jumps from 16 to 64; 004's points at 24, 32, 48 and 56 sit on the same axis: not measured."""
    nvfp4 = by_label("concurrency_speedup", "speedup")["NVFP4-GPTQ · 131k · 배치 256"]
    eagle = by_label("batch_speedup", "speedup")["EAGLE · SGLang"]
    grid = sorted({x for s in (nvfp4, eagle) for x, _ in s.points})
    assert axis_series.segments(nvfp4.points, grid)[-1] == ((16, 64), (1.05, 0.26), (24, 32, 48, 56))
    assert all(not skips for _, _, skips in axis_series.segments(eagle.points, grid))  # 004 measured every level


def test_crossing_is_read_between_measured_points_only() -> None:
    s = by_label("concurrency_speedup", "speedup")
    grid = [1, 2, 4, 8, 16, 24, 32, 48, 64]
    c = axis_series.crossing(s["NVFP4-GPTQ · 131k · 배치 256"].points, grid)
    assert (c.above, c.above_value, c.below, c.value, c.unmeasured) == (16, 1.05, 64, 0.26, (24, 32, 48))
    c = axis_series.crossing(s["INT4 · 256k · Edge 예산 · 8k 프롬프트"].points, grid)
    assert (c.above, c.below, c.unmeasured) == (4, 8, ())
    assert axis_series.crossing(s["KV fp8 · 256k · Edge 예산 · 8k 프롬프트"].points, grid) is None
    c = axis_series.crossing(((1, 0.5), (2, 0.4)))
    assert (c.above, c.below) == (None, 1)  # below from the first measured level


def test_004_batch_and_cost_tables() -> None:
    e = by_label("batch_speedup", "speedup")
    assert e["EAGLE-3 · SGLang"].value_at(2) == 1.8 and e["EAGLE-3 · SGLang"].value_at(64) == 1.4
    assert e["EAGLE · SGLang"].value_at(48) == 0.88 and e["EAGLE · SGLang"].value_at(16) == 1.0
    assert [x for x, _ in e["EAGLE · SGLang"].points] == [2, 4, 8, 16, 24, 32, 48, 56, 64]
    assert e["EAGLE · vLLM"].points == ((32, 0.93),)
    assert {c.series: c.value for c in article_tables.table_cells("cost_h100", "throughput")} == {
        "투기적 디코딩 없음": 158.34, "EAGLE-2": 244.10, "EAGLE-3": 373.25}
    assert {c.value for c in article_tables.table_cells("cost_h100", "price_per_hour")} == {4.29}
    assert all(c.axis == "batch" and c.level == 1 for c in article_tables.table_cells("cost_h100"))
    # the paper's throughput and Lambda's price are quoted; the cost and seconds the article worked out are computed
    assert {(c.metric, c.kind) for c in article_tables.table_cells("cost_h100")} == {
        ("throughput", "quoted"), ("price_per_hour", "quoted"), ("cost_per_1m_output_stated", "computed"),
        ("seconds_per_500_tokens_stated", "computed")}


def test_002_tables() -> None:
    h = by_label("h200_relative_throughput", "relative_throughput")
    assert len(h) == 6
    assert [v for _, v in h["Llama-3.1-70B · INT4 AWQ (W4A16)"].points] == [1.78, 1.42, 1.12, 0.96, 0.88]
    assert h["Llama-3.1-8B · FP8 (W8A8 + FP8 KV)"].value_at(64) == 1.55
    assert h["Llama-3.1-8B · INT4 AWQ (W4A16)"].value_at(8) == 0.75
    h100 = {(c.level, c.metric): c.value for c in article_tables.table_cells("h100_concurrency")}
    assert h100[(1, "throughput")] == 120 and h100[(100, "throughput")] == 2400
    assert h100[(16, "ttft_p50")] == 165 and h100[(100, "ttft_ratio")] == 16.4
    assert article_tables.cell("kv_example", "Llama 3.3 70B · FP16 KV", "kv_bytes_per_token").value == 327_680


def test_000_ladders_and_acceptance_lengths() -> None:
    overall = article_tables.ladder("ladder_overall")
    assert [s.value for s in overall] == [97.1, 136.7, 458.5]
    assert round(overall[1].vs_previous, 2) == 1.41 and round(overall[2].vs_previous, 2) == 3.35
    assert round(overall[2].vs_first, 2) == 4.72  # the product of the step multipliers
    assert article_tables.cell("ladder_overall", "① 원본", "total_ratio_stated").value is None  # blank in the article
    code = article_tables.ladder("ladder_by_prompt", workload="코드 생성")
    assert [s.value for s in code] == [95.2, 133.0, 678.4] and round(code[-1].vs_first, 2) == 7.13
    assert all(s.cell.like_for_like for s in code)
    assert not any(s.cell.like_for_like for s in article_tables.ladder("ladder_by_prompt", workload="대화"))
    refs = {(r.source[:3], r.label): (r.low, r.high) for r in article_tables.acceptance_references()}
    assert refs == {("000", "산문"): (2.2, 2.5), ("000", "코드"): (5.3, 5.6), ("001", "복사형"): (3.1, 3.1),
                    ("001", "자유 서술"): (2.2, 2.2)}


def test_001_and_003_figures() -> None:
    q = {s.label: s.value for s in article_tables.ladder("quant_vs_drafter")}
    assert q == {"bf16 · 드래프터 없음": 88.7, "bf16 · 드래프터": 266.4, "4비트 · 드래프터 없음": 129.0,
                 "4비트 · 드래프터": 286.9}
    assert article_tables.cell("memory", "드래프터 켬", "kv_pool_change").value == -36
    assert article_tables.cell("memory", "드래프터 없음", "sessions").value == 6.7
    assert article_tables.cell("memory", "드래프터 켬", "sessions").value == 4.3
    assert {c.series: c.value for c in article_tables.table_cells("collapse_64")} == {"기준선": 2306, "드래프터 켬": 595}
    steps = {c.series: c.value for c in article_tables.table_cells("rtx3090_steps", "decode_rate")}
    assert steps == {"기준": 82, "MTP 조정": 114, "+ DFlash2 + 룩업 드래프터": 138, "16토큰 검증 이전 · 문서 인용": 260,
                     "16토큰 검증 · 문서 인용": 382, "16토큰 검증 · 일반 채팅": 133}


def test_every_cell_names_its_article_table_and_unit() -> None:
    for c in article_tables.cells():
        assert article_tables.SOURCE_RE.match(c.source) and c.section and c.unit in article_tables.UNITS
        assert c.kind in ("measured", "quoted", "computed")


def test_loader_rejects_a_broken_file(tmp_path, monkeypatch) -> None:
    good = (asset_csv.ASSETS / "articles_measured.csv").read_text(encoding="utf-8").splitlines()
    monkeypatch.setattr(asset_csv, "ASSETS", tmp_path)
    monkeypatch.setattr(article_tables, "TIDY_FILES", ("t.csv",))
    bad_rows = {
        "미측정": ("0.82,×", "미측정,×", "not a number"),
        "unit": ("0.82,×", "0.82,x-times", "unit"),
        "source": ("001_fd68569eeaa6a69a.txt", "article-one.txt", "source"),
    }
    row = next(line for line in good if "INT4 · 256k" in line and ",8,speedup,0.82" in line)
    for old, new, problem in bad_rows.values():
        (tmp_path / "t.csv").write_text("\n".join([good[0], row.replace(old, new)]) + "\n", encoding="utf-8")
        article_tables.cells.cache_clear()
        with pytest.raises(article_tables.DataError, match=problem):
            article_tables.cells()
    article_tables.cells.cache_clear()


def test_recorded_sweep_is_just_another_series() -> None:
    s = sweep_series.recorded_series({1: 1.5, 4: 1.1, 8: 0.9}, {"recording": "sweep.jsonl", "engine": "vLLM 0.32.0",
                                                           "model": "SmolLM2-135M", "machine": "cpu", "date": "2026-11-29"},
                                 label="ngram ÷ base")
    assert s.kind == "measured" and first_below(s.points) == 8
    assert "vLLM 0.32.0" in s.provenance() and "sweep.jsonl" in s.provenance()
    with pytest.raises(ValueError, match="recording"):
        sweep_series.recorded_series({1: 1.0}, {"engine": "x"}, label="x")
    with pytest.raises(ValueError, match="at least one"):
        sweep_series.recorded_series({}, {"recording": "r.jsonl"}, label="x")


def test_no_recordings_folder_means_no_sweeps(tmp_path) -> None:
    assert sweep_series.recorded_sweeps(tmp_path) == ([], [], [])
    (tmp_path / "broken.jsonl").write_text("not json\n", encoding="utf-8")
    series, problems, _ = sweep_series.recorded_sweeps(tmp_path)
    assert series == [] and len(problems) == 1 and "broken.jsonl" in problems[0]


def write_sweep(path, garbled_levels: tuple[int, ...] = ()) -> None:
    """A made-up sweep: the speculative arm's per-stream rate falls faster with concurrency than the baseline's.

    At `garbled_levels` the speculative arm's greedy text differs from the baseline's (as vLLM CPU's batched ngram
    output did)."""
    from specreplay.recording.format import append, create, event_dict

    create(path, {
        "title": "sweep test", "created": "2026-11-29T12:00:00+00:00",
        "machine": {"cpu": "Test CPU", "cores": 4, "ram_gib": 8.0, "accelerator": None, "os": "Debian"},
        "arms": [{"id": "base", "label": "baseline", "model": "tiny-lm", "engine": {"name": "vllm", "version": "0.0-test"},
                  "flags": {}},
                 {"id": "spec", "label": "ngram", "model": "tiny-lm", "engine": {"name": "vllm", "version": "0.0-test"},
                  "flags": {"speculative_config": {"method": "ngram", "num_speculative_tokens": 4}}, "baseline": "base"}],
        "prompts": [{"id": "p", "kind": "chat", "text": "hi", "sampling": {"temperature": 0}}],
    })
    rates = {"base": {1: 10.0, 2: 10.0, 4: 10.0}, "spec": {1: 20.0, 2: 12.0, 4: 8.0}}  # tok/s per stream
    for arm, by_level in rates.items():
        for level, rate in by_level.items():
            for stream in range(level):
                text = "y" if arm == "spec" and level in garbled_levels else "x"
                events = [event_dict(i / rate, 1, text, None) for i in range(20)]
                append(path, {"type": "run", "arm": arm, "prompt": "p", "repeat": 0, "warmup": False,
                              "concurrency": level, "stream": stream, "started_wall": "2026-11-29T12:00:00+00:00",
                              "started_mono": 0.0, "events": events, "ttft": events[0]["t"],
                              "usage": {"completion_tokens": 20}, "finish_reason": "length", "spec": None,
                              "request_metrics": None, "status": "ok", "error": None})


def test_recorded_sweep_becomes_a_measured_series_with_provenance(tmp_path) -> None:
    write_sweep(tmp_path / "sweep.jsonl")
    series, problems, excluded = sweep_series.recorded_sweeps(tmp_path)
    assert problems == [] and excluded == [] and len(series) == 2
    s, d = series
    assert s.kind == d.kind == "measured"
    assert (s.label_en, d.label_en) == ("ngram ÷ baseline · system throughput", "ngram ÷ baseline · per-request decode")
    assert [x for x, _ in s.points] == [1, 2, 4]
    assert [round(v, 2) for _, v in s.points] == [2.0, 1.2, 0.8]  # system throughput ratio per level
    assert [round(v, 2) for _, v in d.points] == [2.0, 1.2, 0.8]  # median per-request decode ratio (same here)
    assert first_below(s.points) == 4
    assert s.conditions == {"engine": "vllm 0.0-test", "model": "tiny-lm", "machine": "Test CPU (4 cores)",
                            "date": "2026-11-29T12:00:00+00:00"}


def test_sweep_levels_whose_greedy_text_differs_are_left_out(tmp_path) -> None:
    write_sweep(tmp_path / "sweep.jsonl", garbled_levels=(2, 4))
    series, problems, excluded = sweep_series.recorded_sweeps(tmp_path)
    assert problems == []
    assert series[0].points == ((1, pytest.approx(2.0)), (2, None), (4, None))
    assert first_below(series[0].points) is None
    assert series[0].excluded == ((2, 1.2), (4, 0.8))  # measured there, kept with its value, not drawn as a line
    assert series[0].excluded_at(4) == (True, 0.8) and series[0].excluded_at(1) == (False, None)
    assert len(excluded) == 2
    assert "spec · 2: 2/2 greedy runs changed by batching (baseline 0/2); system 1.2×, per-request 1.2× not plotted" in excluded[0]
