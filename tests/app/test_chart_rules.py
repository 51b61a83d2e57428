"""One question per chart, checked on what every page sends (AppTest): at most six data series in a chart's legend,
legend names of at most 40 characters, a title on every chart — in both languages, with and without the llama.cpp
recordings (tests/browser/test_explainer_questions_browser.py checks the drawn charts in chromium)."""

import json
import os

import pytest

from tests.apptest_helpers import chart_title, open_page
from tests.llamacpp_fixtures import breakeven_file, cells_file, sweep_file

URLS = [("acceptance", {}), ("acceptance", {"fit_engine": "vllm"}), ("concurrency", {"source": "001"}),
        ("concurrency", {"source": "004"}), ("concurrency", {"source": "gpu"}), ("concurrency", {"source": "cpu"}),
        ("concurrency", {"family": "quant", "source": "002"}), ("concurrency", {"family": "quant", "source": "gpu"}),
        ("concurrency", {"family": "quant", "source": "cpu"}), ("ladder", {}), ("roofline", {})]


def legends(at) -> list[tuple[str, list[str]]]:
    """(chart title, legend names) of every chart on the page: live charts' data series and Plotly's entries."""
    out = []
    for c in at.get("bidi_component"):
        spec = json.loads(c.proto.json)
        names = [s["name"] for s in spec.get("series", []) + spec.get("fixed", [])
                 if s.get("legend", True) is not False and s.get("points")]
        out.append((spec.get("title", ""), names))
    title = ""  # a Plotly chart's title is the text element just before it (views.chart_parts.plotly)

    def walk(node) -> None:
        nonlocal title
        children = getattr(node, "children", None)
        if children is not None:
            for child in children.values():
                walk(child)
        elif chart_title(node) is not None:
            title = chart_title(node) or ""
        elif getattr(node, "type", "") == "plotly_chart":
            fig = json.loads(node.proto.spec)
            names = [t["name"] for t in fig["data"] if t.get("showlegend", True) is not False and t.get("name")
                     and t.get("type") != "heatmap"]
            out.append((title, names))
            title = ""

    walk(at.main)
    return out


@pytest.fixture(scope="module")
def llamacpp_folder(tmp_path_factory):
    """The llama.cpp files' shape, written once for the module (the pages cache what they read per file)."""
    folder = tmp_path_factory.mktemp("llamacpp")
    for write in (cells_file, sweep_file, breakeven_file):
        write(folder)
    return folder


@pytest.fixture(params=["bundled", "with llama.cpp files"])
def recordings(request, llamacpp_folder, monkeypatch):
    if request.param != "bundled":
        from specreplay.resources import RECORDINGS
        monkeypatch.setenv("SPECREPLAY_RECORDINGS", os.pathsep.join([str(RECORDINGS), str(llamacpp_folder)]))


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize(("name", "query"), URLS)
def test_every_chart_has_a_title_six_series_at_most_and_short_legend_names(recordings, name: str, query: dict,
                                                                          lang: str) -> None:
    at = open_page(name, lang, **query)
    assert not at.exception
    charts = legends(at)
    assert charts
    for title, names in charts:
        assert title, names
        assert len(names) <= 6, (title, names)
        assert all(len(n) <= 40 for n in names), (title, [n for n in names if len(n) > 40])
        assert len(set(names)) == len(names), (title, names)  # no two alike once cut to 40 characters
