"""The acceptance page backed by our recordings (AppTest): measured cells beside the formula, the nearest cell
following the sliders, formula vs measured speedup, the temperature sweep. The recordings folder is a temporary
copy, so the figures checked here are the bundled cells-mode file's."""

import json
import shutil

import pytest

from specreplay.resources import RECORDINGS
from tests.app.test_explainer_pages import chart
from tests.apptest_helpers import chart_title, open_expander, open_page
from tests.llamacpp_fixtures import cells_file
from tests.unit.test_acceptance_measured import write_temperature_sweep

BUNDLED = RECORDINGS / "smollm2-vllm-cpu.jsonl"


@pytest.fixture
def bundled_only(tmp_path, monkeypatch):
    shutil.copy(BUNDLED, tmp_path)
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    return tmp_path


def table(at, column: str):
    """The first table on the page with this column."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def readout(at) -> str:
    return next(m.value for m in at.markdown if "Nearest measured cell" in m.value or "가장 가까운 실측 셀" in m.value)


def test_measured_cells_beside_the_formula_and_the_nearest_follows_the_sliders(bundled_only) -> None:
    at = open_page("acceptance", "en")
    assert not at.exception
    cells = {c["id"]: c for c in chart(at, "etau_chart")["cells"]}
    assert sorted(cells) == sorted(f"smollm2-vllm-cpu.jsonl · ngram · {p}"
                                   for p in ("copy-quote", "code-refactor", "prose-story", "chat-advice"))
    copy = cells["smollm2-vllm-cpu.jsonl · ngram · copy-quote"]
    assert (round(copy["alpha"], 4), round(copy["length"], 2), copy["gamma"]) == (0.9844, 4.85, 4)
    assert [round(r, 3) for r in copy["rates"]] == [0.981, 0.981, 0.962, 0.923]
    assert chart(at, "positions_chart")["cells"] == chart(at, "etau_chart")["cells"]
    # α 0.8, γ 5: the code prompt (α 0.853) is nearest; at α 0.1 the story (α 0.106).
    assert "**code-refactor · ngram · smollm2-vllm-cpu**" in readout(at) and "green-badge[measured here]" in readout(at)
    at.slider(key="alpha").set_value(0.1).run()
    assert "**prose-story · ngram · smollm2-vllm-cpu**" in readout(at)
    assert chart(at, "positions_chart")["live"]["values"] == {"alpha": 0.1, "gamma": 5}


def test_formula_vs_measured_table(bundled_only) -> None:
    at = open_expander(open_page("acceptance", "en"), "acceptance_tables_open")  # filled once opened
    acc = table(at, "accepted at position ÷ drafts")
    row = acc[acc["prompt · arm"].str.split(" · ").str[0] == "copy-quote"].iloc[0]
    assert (row["drafts"], row["accepted"], row["accepted at position ÷ drafts"]) == (156, 600, "0.98 / 0.98 / 0.96 / 0.92")
    assert (row["acceptance length"], row["implied α"]) == (4.85, 0.984)
    loop = table(at, "formula, c=0")
    by_prompt = {r["prompt · arm"].split(" · ")[0]: r for _, r in loop.iterrows()}
    copy, code = by_prompt["copy-quote"], by_prompt["code-refactor"]
    assert (copy["formula, c=0"], copy["formula, measured c"], copy["measured"]) == ("4.85×", "3.29×", "3.15×")
    assert (copy["step time ÷ baseline token time"], copy["residual (measured ÷ formula − 1)"]) == (1.47, "-4%")
    assert (code["formula, measured c"], code["measured"], code["steps without a draft"]) == ("2.7×", "1.63×", "54%")
    assert code["open in the calculator"].startswith("/acceptance?alpha=0.85&gamma=4&c=0.10")
    caption = " ".join(c.value for c in at.caption)
    assert "Largest gap: code-refactor · ngram · smollm2-vllm-cpu -40%, 54% of its steps without a draft" in caption


def test_a_cell_carries_its_alpha_gamma_and_c_into_the_calculator(bundled_only) -> None:
    at = open_page("acceptance", "en")
    at.selectbox(key="fit_cell").set_value("smollm2-vllm-cpu.jsonl · ngram · copy-quote").run()
    at.button(key="fit_use").click().run()
    assert (at.slider(key="alpha").value, at.slider(key="gamma").value, at.slider(key="c").value) == (0.98, 4, 0.12)
    assert at.query_params["alpha"] in ("0.98", ["0.98"])  # and the address keeps them for sharing
    assert any("fit_chart" in c.proto.id for c in at.get("plotly_chart"))
    assert "Does the formula predict our arms' speedup?" in [chart_title(m) for m in at.markdown]  # above the chart


def test_the_formula_fitted_to_llamacpp_arms_and_c_on_f16_and_q4(tmp_path, monkeypatch) -> None:
    cells_file(tmp_path)
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_page("acceptance", "en")
    assert not at.exception and at.radio(key="fit_engine").value == "llamacpp"  # the default once the file is there
    fit = table(at, "residual (measured ÷ formula − 1)")
    assert set(fit["prompt · arm"].str.split(" · ").str[1]) == {"f16-draft", "q4-draft", "q4-ngram"}
    assert set(fit["γ"]) == {4}
    m = {x.label: x.value for x in at.metric}
    assert float(m["median c · q4-draft"]) > float(m["median c · f16-draft"])  # the cheaper target, the dearer drafter
    assert any("16-bit weights holding the 4-bit model's values" in c.value for c in at.caption)
    kinds = json.loads(next(c for c in at.get("plotly_chart") if "kind_chart" in c.proto.id).proto.spec)
    assert [t["name"] for t in kinds["data"]] == ["f16-draft", "q4-draft", "q4-ngram"]


def test_temperature_sweep_and_like_for_like_rule(tmp_path, monkeypatch) -> None:
    write_temperature_sweep(tmp_path / "temp.jsonl")
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_page("acceptance", "ko")
    assert not at.exception
    rows = table(at, "프롬프트에서 온 단어 3개 묶음: 기준 / 추측")
    assert list(rows["온도"]) == [0.0, 1.0] and list(rows["수용 길이"]) == [3.33, 1.2]
    assert list(rows["속도 배수"]) == [2.0, 0.67] and list(rows["같은 토큰 수"]) == ["✓", "✓"]
    assert any("같은 조건 비교 규칙" in c.value and "텍스트는 비교하지 않습니다" in c.value for c in at.caption)


def test_no_recording_with_counters(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_expander(open_page("acceptance", "en"), "acceptance_tables_open")
    assert not at.exception
    assert any("No recording with speculative-decoding counters" in i.value for i in at.info)
    assert chart(at, "etau_chart")["cells"] == []


def test_bundled_temperature_sweep_names_the_engines_sampled_path(tmp_path, monkeypatch) -> None:
    shutil.copy(RECORDINGS / "smollm2-vllm-cpu-temperature.jsonl", tmp_path)
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_page("acceptance", "en")
    assert not at.exception
    rows = table(at, "word triples from the prompt: baseline / spec")
    assert list(rows["temperature"]) == [0.0, 0.3, 0.6, 0.8, 1.0] * 2
    copy = rows[rows["prompt · arm"].str.split(" · ").str[0] == "copy-t0.3"].iloc[0]
    assert (copy["acceptance length"], copy["word triples from the prompt: baseline / spec"]) == (1.0, "98% / 1%")
    assert any("copy-t0.3 · ngram · smollm2-vllm-cpu-temperature, temperature 0.3: 98% of the baseline's word "
               "triples are in the prompt, 1% of the speculative arm's (0 of 253 drafts accepted)" in w.value
               for w in at.warning)


def test_the_per_position_chart_draws_measured_acceptance_only_and_names_its_band() -> None:
    """Issue #41 item 6: set-acceptance arms' per-position counts (set, not measured) stay out; every other measured
    cell is one band with its median (assets/explainer/live_chart.js, tests/js), named in the legend, and the axis'
    ticks follow what is drawn (a llama.cpp n-gram arm's 48 positions only when it is the cell shown)."""
    from specreplay.explain.acceptance_measured import recorded_cells

    at = open_page("acceptance", "en")
    spec = chart(at, "positions_chart")
    measured = [c for c in recorded_cells()[0] if c.number_kind == "measured"]
    assert len(spec["cells"]) == len(measured) < len(recorded_cells()[0])
    assert max(len(c["rates"]) for c in spec["cells"]) == 48 and "ticks" not in spec["x"]
    assert (spec["others_name"], spec["median_name"]) == ("other measured cells: middle half",
                                                          "other measured cells: median")


def test_the_fit_charts_points_are_never_clipped_by_its_axes() -> None:
    at = open_page("acceptance", "en")
    fig = json.loads(next(c for c in at.get("plotly_chart") if "fit_chart" in c.proto.id).proto.spec)
    points = [t for t in fig["data"] if t.get("mode") == "markers"]
    assert points and all(t.get("cliponaxis") is False for t in points)
