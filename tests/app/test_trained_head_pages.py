"""The EAGLE-3 head trained here (issue #38) on the pages: the start page replays its GPU win beside the CPU one
with its acceptance length and % of ceiling, the acceptance page's fit and break-even charts hold its points (its
real c), and the concurrency page draws the pair's curve and where it falls below 1.0."""

from __future__ import annotations

import pytest

from specreplay.explain import trained_head
from specreplay.explain import trained_head_files as files
from specreplay.multiplier import times
from specreplay.recording import catalogue
from specreplay.recording.format import Recording
from tests.apptest_helpers import open_page, shown


def cells() -> Recording:
    rec = catalogue.read(files.CELLS)
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
    length = trained_head.acceptance_length(rec, files.PAIR[1], win.prompt)
    assert length is not None and f"{length:.2f}" in values and round(length, 2) == 2.73
    ceiling = values["—"]  # no H100 bandwidth was measured here: no share, and the reason beside it
    assert "H100" in ceiling.delta
    why = next(t for t in text if "0.5B" in t and "24" in t and "28" in t)
    assert "c 0.09" in why
    more = next(e for e in at.expander if "H100" in shown(e.children[0].value))  # provenance, head, links
    assert "speculators 0.9.0" in more.children[1].value
    queries = [p.proto.query_string for p in more.get("page_link")]
    assert f"recording={files.CELLS.removesuffix('.jsonl')}&prompt=code&arms=bf16%2Ceagle3-k4&lang={lang}" in queries
    assert f"source=gpu&lang={lang}" in queries
