"""The EAGLE-3 head trained here (issue #38) on the pages: the start page replays its GPU win beside the CPU one
with its acceptance length and % of ceiling, the acceptance page's fit and break-even charts hold its points (its
real c), and the concurrency page draws the pair's curve and where it falls below 1.0."""

from __future__ import annotations

import json

import pytest

from specreplay.explain import panels, trained_head
from specreplay.explain.acceptance_measured import cells_of
from specreplay.multiplier import times
from specreplay.recording import catalogue
from specreplay.recording.format import Recording
from specreplay.recording.wanted import newest
from tests.apptest_helpers import open_page, shown

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
HEAD_CELLS = newest(panels.HEAD_CELLS)


def cells() -> Recording:
    rec = catalogue.read(HEAD_CELLS)
    assert isinstance(rec, Recording)
    return rec


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_start_page_replays_the_trained_head_s_gpu_win_beside_the_cpu_one(lang: str) -> None:
    at = open_page("home", lang)
    assert not at.exception
    rec = cells()
    win = trained_head.start_win(rec)
    assert win is not None and win.prompt == "code" and win.gain > 2  # the rule's pick: 475 → 975 tok/s
    text = [m.value for m in at.markdown]
    cpu = next(i for i, t in enumerate(text) if "llama.cpp" in t)
    gpu = next(i for i, t in enumerate(text) if "vLLM 0.26.0 · H100" in t)
    assert cpu < gpu and ":green-badge[" in text[gpu]  # after the CPU replay, badged measured
    values = {m.value: m for m in at.metric}
    head = values[f"{win.f16_draft_rate:.0f} tok/s"]
    assert f"{win.f16_rate:.0f} tok/s" in values
    assert times(win.gain) in head.delta
    length = trained_head.acceptance_length(rec, panels.HEAD_PAIR[1], win.prompt)
    assert length is not None and f"{length:.2f}" in values and round(length, 2) == 2.73
    ceiling = values["—"]  # no H100 bandwidth was measured here: no share, and the reason beside it
    assert "H100" in ceiling.delta
    why = next(t for t in text if "0.5B" in t and "24" in t and "28" in t)
    assert "c 0.09" in why
    more = next(e for e in at.expander if "H100" in shown(e.children[0].value))  # provenance, head, links
    assert "speculators 0.9.0" in more.children[1].value
    queries = [p.proto.query_string for p in more.get("page_link")]
    assert f"recording={HEAD_CELLS.removesuffix('.jsonl')}&prompt=code&arms=bf16%2Ceagle3-k4&lang={lang}" in queries
    assert f"source=gpu&lang={lang}" in queries


def plotly(at, key: str) -> dict:
    return json.loads(next(c for c in at.get("plotly_chart") if key in c.proto.id).proto.spec)


def head_costs() -> list[trained_head.HeadCost]:
    return trained_head.head_costs(cells_of(cells()))


def test_the_acceptance_fit_draws_the_trained_head_first_with_its_real_c() -> None:
    at = open_page("acceptance", "en", fit_engine="vllm")
    assert not at.exception
    drawn = [t for t in plotly(at, "fit_chart")["data"][1:]]
    assert [t["name"].split(" · ")[0] for t in drawn[:3]] == list(panels.HEADS)  # first, whatever else is bundled
    heads = {h.fit.arm: h for h in head_costs()}
    k4 = next(t for t in drawn if t["name"].startswith("eagle3-k4"))
    assert max(k4["y"]) == pytest.approx(2.05, abs=0.01)  # code: 475 → 975 tok/s
    assert f"c {heads['eagle3-k4'].fit.cells[0].cost_ratio:.2f}" in k4["text"][0]  # the real c, per cell
    assert all(0.05 < h.fit.cost_ratio < 0.1 for h in heads.values())  # a step with it ≈ 1.3 plain ones
    ngram = next((t for t in drawn if t["name"].startswith(f"{panels.HEAD_NGRAM} · qwen-coder-1.5b-vllm026")), None)
    assert ngram is None or any("V1 runner" in c.value for c in at.caption)  # never without its caveat


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_break_even_chart_holds_the_trained_head_s_point(lang: str) -> None:
    at = open_page("acceptance", lang)
    assert not at.exception
    k4 = next(h for h in head_costs() if h.fit.gamma == 4)
    assert k4.break_even is not None and 1.2 < k4.break_even < 1.4 and not k4.pays_everywhere
    assert k4.break_even == pytest.approx(k4.step_ratio, abs=0.05)  # the measured crossing sits near 1 + γc
    star = next(t for t in plotly(at, "drafter_sizes_chart")["data"] if "H100" in t["name"])
    assert star["x"] == [1.5] and star["y"] == [pytest.approx(k4.break_even)]
    panel = next(e for e in at.expander if e.label.startswith(("How big", "타깃이 얼마나")))
    text = shown(" ".join(m.value for m in panel.markdown))
    assert "vLLM 0.26.0" in text and f"{k4.break_even:.2f}" in text and f"{k4.fit.cost_ratio:.2f}" in text
    table = next(d.value for d in panel.dataframe if "K" in d.value.columns)
    assert list(table["K"]) == [3, 4, 5]


@pytest.mark.parametrize("metric", ["throughput", "decode"])
def test_the_concurrency_page_draws_the_pair_and_where_it_falls_below_one(metric: str) -> None:
    at = open_page("concurrency", "en", source="gpu", metric=metric)
    assert not at.exception
    row = at.dataframe[0].value.set_index("series").loc["eagle3-k4 ÷ bf16 · greedy · vLLM GPU"]
    assert row["below 1.0"].startswith("falls below 1.0 between 32 and 64 streams")
    note = next(c.value for c in at.caption if "EAGLE-3 head trained here" in c.value)
    assert "vLLM 0.26.0, H100" in note and "below 1.0 from 64 streams" in note
