"""Every explainer page in a real browser: no chart shows more than six data series or a legend name over 40
characters; the Pareto chart draws both fronts of a bundled sweep; each page's controls round-trip through the
URL."""

import pytest

CHARTS = "[data-live-chart] svg, .js-plotly-plot .main-svg"
# Legend texts of every chart on the page: the live charts' keys and Plotly's legend entries.
LEGENDS = """() => [
  ...Array.from(document.querySelectorAll('[data-live-chart] .lc-key')).map(e => e.textContent),
  ...Array.from(document.querySelectorAll('.js-plotly-plot .legendtext')).map(e => e.textContent)]"""
# Data series per chart: the live chart says how many it drew; a Plotly legend counts its visible entries.
SERIES = """() => [
  ...Array.from(document.querySelectorAll('[data-live-chart]')).map(e => Number(e.dataset.dataSeries)),
  ...Array.from(document.querySelectorAll('.js-plotly-plot')).map(e => e.querySelectorAll('.legend .traces').length)]"""


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("url", ["acceptance", "acceptance?fit_engine=vllm", "concurrency", "concurrency?source=004",
                                 "concurrency?source=gpu", "concurrency?family=quant&source=002",
                                 "concurrency?family=quant&source=gpu", "ladder", "ladder?our_machine=h200", "roofline"])
def test_no_chart_has_more_than_six_series_or_a_long_legend_name(app_url: str, page, url: str, lang: str) -> None:
    page.goto(f"{app_url}/{url}{'&' if '?' in url else '?'}lang={lang}")
    page.locator(CHARTS).first.wait_for(timeout=60_000)
    page.wait_for_timeout(2000)  # every chart of the page drawn
    assert page.locator("[data-testid=stException]").count() == 0
    series = page.evaluate(SERIES)
    assert series and max(series) <= 6, series
    long = [name for name in page.evaluate(LEGENDS) if len(name) > 40]
    assert not long, long


def test_the_pareto_chart_shows_both_fronts_of_a_bundled_sweep(app_url: str, page) -> None:
    page.goto(f"{app_url}/concurrency?lang=en&pareto_recording=smollm2-h200-sweep-greedy.jsonl")
    page.get_by_text("The engineers' view").wait_for(timeout=60_000)
    chart = page.locator(".js-plotly-plot", has_text="front").first
    chart.wait_for(timeout=60_000)
    names = chart.locator(".legendtext").all_text_contents()
    assert "ngram · front" in names and "baseline · front" in names, names
    assert "where baseline's front wins" in names


@pytest.mark.parametrize(("url", "shown"), [
    ("acceptance?alpha=0.7&gamma=7", "E[τ], γ=7"),
    ("concurrency?level=16&source=001", "Read at 16, and where each crosses 1.0"),
    ("ladder?prompt=chat", "B200 · Qwen3.8-27B · chat: 99.9 → 334.7 tok/s (article 000)"),
    ("ladder?our_machine=h200", "Our ladder: Qwen2.5-Coder-1.5B on an NVIDIA H200 (vLLM 0.23, not an article)"),
    ("cost?tok_s=158.34", "$7.53"),
    ("roofline?roofline_batch=64", "B = 64"),
    ("chooser?copies=yes", "n-gram"),
])
def test_controls_come_from_the_url(app_url: str, page, url: str, shown: str) -> None:
    page.goto(f"{app_url}/{url}&lang=en")
    page.get_by_text(shown).first.wait_for(timeout=60_000)
    assert page.locator("[data-testid=stException]").count() == 0


def test_a_moved_control_goes_into_the_url(app_url: str, page) -> None:
    page.goto(f"{app_url}/acceptance?lang=en")
    page.locator(CHARTS).first.wait_for(timeout=60_000)
    page.get_by_role("slider", name="Acceptance rate α").focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => location.search.includes('alpha=0.79')", timeout=30_000)
    shared = page.url
    page.goto("about:blank")
    page.goto(shared)  # the shared link opens where it was left
    page.get_by_role("slider", name="Acceptance rate α").wait_for(timeout=60_000)
    # a native <input type=range>: its value, not an aria-valuenow attribute
    assert page.get_by_role("slider", name="Acceptance rate α").input_value() == "0.79"
