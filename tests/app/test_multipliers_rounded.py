"""Every multiplier on every page is rounded for reading (two decimals at most), and neutral notes carry no arrow.

AppTest walks every page in both languages (the concurrency page in both views and at every level, the acceptance
page at uneven slider values) and reads everything it shows: text, metrics, tables, badges, the Plotly figures'
labels and hover formats, and the live charts' hover units.
"""

from __future__ import annotations

import json
import re

import pytest
from streamlit.proto.Metric_pb2 import Metric as MetricProto

from specreplay.views import pages
from tests.apptest_helpers import open_page, shown

PAGES = [p.name for p in pages.PAGES]
# "1.234×", "1.234 x", "×1.234": a multiplier with three or more decimals.
UNROUNDED = re.compile(r"\d\.\d{3,}\s?[×x](?![0-9a-zA-Z])|×\s?\d+\.\d{3,}")
MULTIPLIER_AXIS = re.compile(r"[×÷]")
ROUNDED_HOVER = re.compile(r"%\{y:[.,]?[0-2]f\}")


def texts(at) -> list[str]:
    """Everything the page shows as text (Markdown unescaped as a reader sees it)."""
    out: list[str] = []
    for kind in ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success"):
        out += [shown(e.value) for e in getattr(at, kind)]
    for m in at.metric:
        out += [m.label, str(m.value), m.proto.delta]
    for d in at.dataframe:
        frame = d.value
        out += [str(c) for c in frame.columns]
        out += [v for col in frame.columns for v in frame[col] if isinstance(v, str)]
    out += [e.proto.body for e in at.get("html")]
    out += [e.proto.label for e in at.get("badge")] if at.get("badge") else []
    return out


def unrounded_hover(at) -> list[str]:
    """Plotly traces on a multiplier axis whose hover would print the raw value: neither a rounded hovertemplate,
    nor text written with the one multiplier format, nor hover off, nor values already rounded to two decimals."""
    bad = []
    for chart in at.get("plotly_chart"):
        fig = json.loads(chart.proto.spec)
        layout = fig.get("layout", {})
        axis = json.dumps([layout.get("yaxis", {}).get("title", ""), layout.get("title", "")], ensure_ascii=False)
        for trace in fig["data"]:
            for field in ("text", "hovertext", "hovertemplate", "texttemplate", "name"):
                value = trace.get(field)
                bad += [f"{field}: {v}" for v in (value if isinstance(value, list) else [value])
                        if isinstance(v, str) and UNROUNDED.search(v)]
            if not MULTIPLIER_AXIS.search(axis) or trace.get("hoverinfo") in ("name", "skip", "none"):
                continue
            if ROUNDED_HOVER.search(trace.get("hovertemplate", "")):
                continue
            texts = trace.get("text")
            if "%{text}" in trace.get("hovertemplate", "") and isinstance(texts, list) and all(
                    isinstance(t, str) for t in texts):
                continue  # hovers text the page wrote with the one multiplier format (checked above for raw values)
            ys = [y for y in trace.get("y", []) if isinstance(y, (int, float))]
            if any(round(y, 2) != y for y in ys):
                bad.append(f"{axis}: trace {trace.get('name')!r} hovers raw values")
    return bad


def live_chart_units(at) -> list[str]:
    """Live chart series with dots on a multiplier axis must say unit × (live_chart.js then hovers two decimals)."""
    bad = []
    for c in at.get("bidi_component"):
        spec = json.loads(c.proto.json)
        if "series" not in spec and "curves" not in spec:
            continue
        if not MULTIPLIER_AXIS.search(spec.get("y", {}).get("title", "")):
            continue
        for s in spec.get("series", []) + spec.get("curves", []):
            if s.get("markers") and s.get("unit") != "×":
                bad.append(f"{spec.get('title')}: {s.get('name')}")
    return bad


def arrows(at) -> list[str]:
    """Metrics whose delta shows an arrow: every delta on these pages is a neutral note."""
    return [m.label for m in at.metric if m.proto.delta and m.proto.direction != MetricProto.MetricDirection.NONE]


def check(at, where: str) -> None:
    assert not at.exception, (where, at.exception)
    found = [t for t in texts(at) if UNROUNDED.search(t)]
    assert not found, (where, [UNROUNDED.search(t).group(0) + " in " + t[:160] for t in found])
    assert not unrounded_hover(at), (where, unrounded_hover(at))
    assert not live_chart_units(at), (where, live_chart_units(at))
    assert not arrows(at), (where, arrows(at))


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("name", PAGES)
def test_every_page_rounds_its_multipliers(name: str, lang: str) -> None:
    at = open_page(name, lang)
    check(at, f"{name} {lang}")
    if name == "concurrency":
        for family in ("spec", "quant"):
            at.radio(key="family").set_value(family).run()
            for level in (1, 2, 4, 8, 16, 32, 64):
                at.select_slider(key="level").set_value(level).run()
                check(at, f"{name} {lang} {family} at {level}")
    if name == "acceptance":
        at.slider(key="alpha").set_value(0.37).run()
        at.slider(key="gamma").set_value(13).run()
        at.slider(key="c").set_value(0.07).run()
        check(at, f"{name} {lang} at α 0.37 γ 13 c 0.07")
    if name == "roofline":
        at.select_slider(key="roofline_batch").set_value(32).run()
        check(at, f"{name} {lang} at B 32")


def test_the_check_finds_an_unrounded_multiplier() -> None:
    """The pattern the walk relies on catches what it is meant to, and leaves other numbers alone."""
    assert UNROUNDED.search("first below 1.0 at 8 (0.8234×)") and UNROUNDED.search("×1.234")
    assert UNROUNDED.search("speedup 2.345 x") and not UNROUNDED.search("1.23× · vLLM 0.23.0 · α 0.984")
