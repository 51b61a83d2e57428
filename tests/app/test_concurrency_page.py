"""The concurrency page in AppTest: one question per chart (source and metric controls), readouts from measured
cells only, the Pareto view and the break-even map, on bundled recordings and on files in the llama.cpp shape."""

import json
import shutil
from itertools import pairwise

import pytest

from specreplay.explain import panels
from specreplay.recording.wanted import newest
from specreplay.resources import RECORDINGS
from specreplay.views.ui import FORMAT_COLOR  # the roofline page's colours: one map, not a copy
from tests.apptest_helpers import open_expander, open_page, shown
from tests.llamacpp_fixtures import breakeven_file, cells_file, sweep_file
from tests.unit.test_measured_data import write_sweep


def chart(at, key: str) -> dict:
    """What the server sent the live chart with this key (specreplay/views/live_chart.py)."""
    return json.loads(next(c for c in at.get("bidi_component") if key in c.proto.id).proto.json)


def plotly(at, key: str) -> dict:
    return json.loads(next(c for c in at.get("plotly_chart") if key in c.proto.id).proto.spec)


def data_series(spec: dict) -> list[dict]:
    """The chart's series with markers: data, not gap pieces or legend keys."""
    return [s for s in spec["series"] if s.get("markers") and s.get("legend", True) is not False]


def test_article_001_reads_measured_cells_only() -> None:
    at = open_page("concurrency", "en", source="001")
    table = at.dataframe[0].value
    assert list(table["series"]) == ["NVFP4-GPTQ · 131k · batch 256", "KV fp8 · 256k · Edge budget · 8k prompt",
                                     "INT4 · 256k · Edge budget · 8k prompt"]
    assert list(table["at 8"]) == ["not measured", "1.27×", "0.82×"]
    assert table["below 1.0"][2] == "falls below 1.0 between 4 and 8 streams (1.06× → 0.82×)"
    assert table["below 1.0"][1] == "not below 1.0 at its measured levels (up to 8 streams)"
    assert table["below 1.0"][0] == ("falls below 1.0 between 16 and 64 streams (1.05× → 0.26×); 32 in between not "
                                     "measured, so where is unknown")
    at.select_slider(key="level").set_value(64).run()
    assert list(at.dataframe[0].value["at 64"]) == ["0.26×", "not measured", "not measured"]
    assert chart(at, "concurrency_chart")["live"]["values"] == {"level": 64}
    assert chart(at, "concurrency_chart")["title"] == "Article 001: at how many concurrent users does the drafter stop paying?"


def test_article_004_is_its_own_batch_chart() -> None:
    at = open_page("concurrency", "en", source="004", level="32")
    table = at.dataframe[0].value
    quoted_once = table[table["series"] == "EAGLE-3 · vLLM"].iloc[0]  # 004 quotes vLLM at one batch size only
    assert (quoted_once["at 32"], quoted_once["below 1.0"]) == ("not quoted in 004", "one point only: 1.01× at batch 56")
    spec = chart(at, "concurrency_chart")
    assert spec["x"]["title"] == "batch size"
    assert any("axis is batch size" in c.value for c in at.caption)  # the caveat sits under its chart


@pytest.mark.parametrize("query", [{"source": "001"}, {"source": "004"}, {"family": "quant", "source": "002"},
                                   {"source": "gpu"}, {"source": "gpu", "metric": "decode"}, {"source": "cpu"},
                                   {"family": "quant", "source": "gpu"}])
def test_every_chart_has_one_question_at_most_six_series_and_short_legend_names(query: dict) -> None:
    at = open_page("concurrency", "en", **query)
    spec = chart(at, "concurrency_chart")
    names = [s["name"] for s in spec["series"] if s.get("legend", True) is not False]
    assert spec["title"].endswith("?")
    assert 1 <= len(data_series(spec)) <= 6
    assert all(len(n) <= 40 for n in names), names
    sources = next(e for e in at.expander if e.label.startswith("Sources"))
    assert sources.markdown  # the full provenance lives here, not in the legend


def test_quantization_view_draws_formats_in_the_roofline_colours(tmp_path, monkeypatch) -> None:
    shutil.copy(RECORDINGS / str(newest(panels.QUANT_TIMING_SWEEP)), tmp_path)  # our H200 timing sweep, alone
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_page("concurrency", "ko")
    at.radio(key="family").set_value("quant").run()
    rows = at.dataframe[0].value
    assert len(rows) == 4 and rows["1.0 아래로"][0] == "배치 8–16 사이에서 1.0 아래로 (1.12× → 0.96×)"
    spec = chart(at, "concurrency_chart")
    assert (spec["x"]["title"], spec["y"]["title"]) == ("배치 크기", "처리량 ÷ 16비트")
    drawn = {s["name"]: (s["color"], s["dash"]) for s in data_series(spec)}
    assert drawn["Llama-3.1-70B · INT4 AWQ (W4A16)"] == (FORMAT_COLOR["int4"], "solid")
    assert drawn["Llama-3.1-8B · FP8 (W8A8 + FP8 KV)"] == (FORMAT_COLOR["fp8"], "dash")
    at.radio(key="source").set_value("gpu").run()
    assert any("타이밍 전용" in c.value for c in at.caption)  # our H200 4-bit sweep, labelled where drawn


def solid_pieces(line: dict) -> list[tuple[int, int]]:
    """The pieces live_chart.js draws solid: consecutive points of a series that are both not null."""
    return [(a[0], b[0]) for a, b in pairwise(line["points"]) if a[1] is not None and b[1] is not None]


@pytest.mark.parametrize("query", [{"source": "001"}, {"source": "004"}, {"family": "quant", "source": "002"}])
def test_no_solid_line_across_a_level_the_series_did_not_measure(query: dict) -> None:
    at = open_page("concurrency", "en", **query)
    series = chart(at, "concurrency_chart")["series"]
    grid = sorted({x for s in series for x, _ in s["points"]} | {1, 2, 4, 8, 16, 32, 64})
    for s in series:
        if s.get("dash", "solid") == "dot" or s.get("line") is False:
            continue
        for x0, x1 in solid_pieces(s):  # solid only between neighbouring levels of the axis
            assert not [lv for lv in grid if x0 < lv < x1], (s["name"], x0, x1)
    dotted = [s for s in series if s.get("unmeasured")]
    if query["source"] == "004":
        return  # 004's SGLang rows measured every batch level; its vLLM rows are single points
    assert dotted and all(s["dash"] == "dot" and "not measured between" in s["name"] for s in dotted)
    assert any(s["name"].startswith("dotted: not measured in between") for s in series)  # the legend says so
    if query["source"] == "001":
        nvfp4 = next(s for s in series if s["name"] == "NVFP4-GPTQ · 131k · batch 256")
        assert solid_pieces(nvfp4) == []  # 1, 4, 16, 64: every neighbour pair skips a level
    if query["source"] == "004":
        eagle = next(s for s in series if s["name"] == "EAGLE · SGLang")
        assert len(solid_pieces(eagle)) == 8  # 004 measured every batch level from 2 to 64


def test_a_recorded_sweep_is_a_measured_series_of_its_source_and_metric(tmp_path, monkeypatch) -> None:
    write_sweep(tmp_path / "sweep.jsonl")
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_page("concurrency", "en", source="cpu", level="4")
    rows = at.dataframe[0].value
    assert list(rows["series"]) == ["spec ÷ base · greedy · vLLM CPU"]
    assert (rows["kind"][0], rows["at 4"][0], rows["below 1.0"][0]) == (
        "measured here", "0.8×", "falls below 1.0 between 2 and 4 streams (1.2× → 0.8×)")
    assert "system throughput" in chart(at, "concurrency_chart")["y"]["title"]
    assert any("output tokens of every request" in c.value for c in at.caption)  # throughput counts output only
    at.radio(key="metric").set_value("decode").run()
    assert "per-request decode" in chart(at, "concurrency_chart")["y"]["title"]
    open_expander(at, "concurrency_levels_open")  # its table is computed once the reader opens it
    levels = next(e for e in at.expander if e.label == "Every recorded level").dataframe[0].value
    assert list(levels["concurrency"]) == [1, 2, 4] and list(levels["system throughput"]) == ["2.0×", "1.2×", "0.8×"]


def test_levels_that_are_not_like_for_like_are_said_and_drawn_hollow(tmp_path, monkeypatch) -> None:
    write_sweep(tmp_path / "sweep.jsonl", garbled_levels=(4,))
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_page("concurrency", "en", source="cpu", level="4")
    row = at.dataframe[0].value.iloc[0]
    assert row["at 4"] == "measured, excluded: not like-for-like (0.8×)"
    assert row["below 1.0"] == ("not below 1.0 at its like-for-like measured levels (up to 2 streams); measured, "
                                "excluded: not like-for-like — 4 streams 0.8×")
    hollow = [s for s in chart(at, "concurrency_chart")["series"] if s.get("hollow")]
    assert [s["points"] for s in hollow] == [[[4, 0.8]]]
    open_expander(at, "concurrency_levels_open")  # the excluded levels are listed under their table
    warning = next(w.value for w in at.warning if "not like-for-like" in w.value)
    assert "spec · 4: 4/4 greedy runs changed by batching (baseline 0/4); system 0.8×, per-request 0.8× not plotted" in warning


def test_bundled_cpu_sweep_carries_the_engine_caveat_where_its_sampled_line_is_drawn() -> None:
    at = open_page("concurrency", "en", source="cpu", level="16")
    rows = at.dataframe[0].value
    by_name = dict(zip(rows["series"], rows["below 1.0"]))
    assert by_name["ngram ÷ baseline · greedy · vLLM CPU"] == "not below 1.0 at its measured levels (up to 32 streams)"
    assert by_name["ngram ÷ baseline · sampled · vLLM CPU"].startswith("falls below 1.0 between 1 and 2 streams (1.01× → 0.")
    assert any("vLLM CPU 0.32.0's sampled verification" in c.value for c in at.caption)


def test_llamacpp_sweep_drafter_curves_pareto_fronts_and_the_break_even_map(tmp_path, monkeypatch) -> None:
    sweep_file(tmp_path)
    breakeven_file(tmp_path)
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_page("concurrency", "en")  # the llama.cpp sweep is the default source once it is there
    names = [s["name"] for s in data_series(chart(at, "concurrency_chart"))]
    assert names == ["f16-draft ÷ f16 · greedy · llama.cpp CPU", "q4-draft ÷ q4 · greedy · llama.cpp CPU"]
    crossings = dict(zip(at.dataframe[0].value["series"], at.dataframe[0].value["below 1.0"]))
    assert crossings["f16-draft ÷ f16 · greedy · llama.cpp CPU"].startswith("falls below 1.0 between 2 and 4 streams")
    assert crossings["q4-draft ÷ q4 · greedy · llama.cpp CPU"].startswith("not above 1.0 at any measured level")
    assert any("16-bit speed, 4-bit text" in c.value for c in at.caption)  # the F16 arm said for what it is
    # The Pareto view: both fronts of the pair, the baseline's winning region shaded, beaten levels named.
    fig = plotly(at, "pareto_chart")
    traces = [t.get("name") for t in fig["data"] if t.get("showlegend", True) is not False]
    assert sorted(traces) == ["f16 · front", "f16-draft · front", "where f16's front wins"]
    assert any("beaten on both counts by f16" in m.value for m in at.markdown)
    at.radio(key="pair").set_value("q4-draft|q4").run()
    assert "q4-draft · front" in [t.get("name") for t in plotly(at, "pareto_chart")["data"]]
    # The break-even map: a cell per (set length, level), the 1.0 contour, the badge, the read-off per level.
    fig = plotly(at, "breakeven_chart")
    heat, contour = fig["data"]
    assert heat["y"] == [1.5, 2.5, 4.0] and contour["contours"]["start"] == 1
    assert any("measured timing at a set acceptance" in shown(m.value) for m in at.markdown
               if m.value.startswith(":yellow-badge[timing only"))  # st.badge renders as markdown
    assert any("1 stream" in m.value or "1 streams" in m.value for m in at.markdown)


def test_controls_round_trip_through_the_url() -> None:
    at = open_page("concurrency", "en", family="quant", source="002", level="16")
    assert (at.radio(key="family").value, at.radio(key="source").value, at.select_slider(key="level").value) == (
        "quant", "002", 16)
    at.select_slider(key="level").set_value(4).run()
    assert at.query_params["level"] == ["4"] or at.query_params["level"] == "4"
    bad = open_page("concurrency", "en", level="7", source="nope")
    assert not bad.exception and bad.select_slider(key="level").value == 8


@pytest.mark.parametrize("name", ["concurrency", "ladder", "acceptance"])
def test_a_cut_off_llamacpp_file_is_named_in_one_line(name: str, tmp_path, monkeypatch) -> None:
    """A recording still being written (its last line cut off) must not break a page: the file is named instead."""
    for write in (cells_file, sweep_file, breakeven_file):
        path = write(tmp_path)
        path.write_bytes(path.read_bytes()[:3000])
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_page(name, "en", family="quant", source="cpu")
    assert not at.exception
    assert any("qwen-coder-1.5b-llamacpp-cpu" in shown(w.value) and "truncated" in w.value for w in at.warning)


def test_the_pareto_upload_is_parsed_once_not_on_every_click(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Pareto uploader used to parse its file again on every rerun; it goes through the replay page's cache."""
    from specreplay.replay import source, uploads
    from tests.browser_fixtures import ROOT

    uploads.clear()
    calls = []
    real = source.load_upload
    monkeypatch.setattr(source, "load_upload", lambda *a: calls.append(1) or real(*a))
    at = open_page("concurrency", "en", pareto_recording="upload")  # the URL's choice: the uploader shows
    data = (ROOT / "recordings/qwen-coder-1.5b-llamacpp-cpu-sweep.jsonl").read_bytes()
    at.file_uploader(key="pareto_file").set_value(("mine.jsonl", data, "application/octet-stream")).run()
    at.run()
    assert not at.exception and not at.error, at.exception
    assert len(calls) == 1
    uploads.clear()
