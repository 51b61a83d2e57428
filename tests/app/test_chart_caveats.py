"""An exported chart says what its page says under the chart: every caveat the page shows for a choice is in the
file for the same choice (plain text there, where the page links an address), and no other (specreplay.charts:
one spec per chart, drawn by both)."""

from __future__ import annotations

import html
import re

import pytest

from specreplay.embeds.export import export_chart
from tests.apptest_helpers import open_page, shown
from tests.unit.test_export_chart import embedded_data

LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")
BADGE = re.compile(r":[a-z]+-badge\[[^\]]*\]\s*")


def page_text(markdown: str) -> str:
    """A caption as a reader reads it: links by their text, no badge, icon or bold markup."""
    return shown(LINK.sub(r"\1", BADGE.sub("", markdown.replace(":material/info: ", "").replace(
        ":material/bug_report: ", "").replace("**", "")))).strip()


@pytest.fixture(scope="module")
def concurrency_file() -> dict:
    return embedded_data(export_chart("concurrency", "en"))


@pytest.mark.parametrize(("family", "source", "metric"), [
    ("spec", "004", "throughput"), ("spec", "gpu", "throughput"), ("spec", "gpu", "decode"), ("spec", "cpu", "throughput"),
    ("quant", "002", "throughput"), ("quant", "gpu", "throughput"), ("quant", "cpu", "decode")])
def test_the_concurrency_file_shows_the_pages_caveats(concurrency_file: dict, family: str, source: str,
                                                      metric: str) -> None:
    at = open_page("concurrency", "en", family=family, source=source, metric=metric)
    on_page = [page_text(c.value) for c in at.caption if c.value.startswith(":material/info:")]
    in_file = concurrency_file["views"][f"{family}/{source}/{metric}"]["caveats"]
    assert on_page and in_file == on_page


def test_the_sampled_and_defect_caveats_travel_with_the_h200_choice(concurrency_file: dict) -> None:
    """The two the file used to drop: sampled text cannot be checked, and vLLM 0.23's draft-model defect."""
    caveats = " ".join(concurrency_file["views"]["spec/gpu/throughput"]["caveats"])
    assert "Sampled lines' text cannot be checked" in caveats
    assert "vLLM 0.23.0 defect, fixed upstream in PR #47460" in caveats and "https://" not in caveats


def test_the_breakeven_file_shows_the_pages_caveats_for_each_target() -> None:
    grids = embedded_data(export_chart("breakeven", "en"))["grids"]
    for target, grid in grids.items():
        at = open_page("concurrency", "en", be_target=target)
        # the map's caption: its kind's badge (timing only: the drafter arms' acceptance was set), then its caveats
        caption = next(c.value for c in at.caption if grid["caveats"][0] in page_text(c.value) and "badge[" in c.value)
        assert page_text(caption) == " ".join(grid["caveats"]), target
    assert any("16-bit weights holding the 4-bit model's values" in " ".join(g["caveats"]) for g in grids.values())


def test_the_acceptance_file_shows_the_pages_caveats() -> None:
    """Under the E[τ] chart: the formula, the articles' bands and the α each implies at K = 7, our cells; under the
    γ chart: the formula's assumption — each with its badge on the page and in the file; the cells one line per kind
    of number they are (issue #41: measured here, and timing only where a benchmark mode set the acceptance)."""
    at = open_page("acceptance", "en")
    page_words = " ".join(page_text(c.value) for c in at.caption)
    notes = re.findall(r'<p class="ex-note"><span class="ex-kind"[^>]*>([^<]*)</span> ([^<]*)</p>',
                       export_chart("acceptance", "en"))
    assert [kind for kind, _ in notes] == ["computed", "quoted", "measured here", "timing only (set acceptance)",
                                           "computed"]
    for _, text in notes:
        assert html.unescape(text) in page_words


@pytest.mark.parametrize(("machine", "drafter", "prompt"), [("cpu", "draft", "code"), ("h200", "draft", "code"),
                                                            ("h200", "ngram", "copy")])
def test_the_ladder_file_shows_the_pages_caveats_under_ours(machine: str, drafter: str, prompt: str) -> None:
    """What was measured (the F16 note on this CPU, the H200 setup), the engine defect of a vLLM 0.23 draft-model
    rung, and why neither pays at 1.5B on the H200."""
    ours = embedded_data(export_chart("ladder", "en"))["ours"][f"{machine}/{drafter}"]["prompts"]
    pick = next(p for p in ours if p.startswith(prompt))
    at = open_page("ladder", "en", our_machine=machine, our_drafter=drafter, our_prompt=pick)
    page_words = " ".join(page_text(c.value) for c in at.caption)
    in_file = ours[pick]["caveats"]
    assert in_file and all(text in page_words for text in in_file), in_file
    assert (machine == "h200" and drafter == "draft") == any("PR #47460" in text for text in in_file)
