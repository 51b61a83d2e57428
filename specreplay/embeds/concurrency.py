"""The concurrency chart as an exported chart: a multiplier (speculative on ÷ off, or 4-bit ÷ 16-bit), a source
(articles 001, 004, 002, our H200 and CPU recordings), a metric, and the level slider over the measured curves,
with each series' value at the level and where it crosses 1.0 — the concurrency page's chart, readout and caveats,
from the one spec both draw (specreplay.charts.concurrency).

Every source's series travel in the file; the browser picks the chosen one."""

from __future__ import annotations

from typing import Any

from specreplay.charts import concurrency
from specreplay.embeds.document import Chart
from specreplay.embeds.words import say
from specreplay.languages import Lang
from specreplay.quoted.articles import shown_kind
from specreplay.words import word

# The controls' names: the app's URL (and session state) keys, so a link's state opens the chart in it.
STATE = ("family", "source", "metric", "level")


def _view(family: str, source: str, metric: str, lang: Lang
          ) -> tuple[dict[str, Any], list[tuple[str, str]], tuple[str, ...]]:
    """One choice's chart, readout rows and caveats (the page's, specreplay.charts.concurrency), its sources, and
    the recordings it could not read."""
    T = say("concurrency", lang)
    v = concurrency.view(family, source, metric, lang)
    rows = [{"name": concurrency.name(s, lang), "kind": word(shown_kind(s), lang),
             "below": concurrency.crossing(s, v.grid, lang),
             "at": {lv: concurrency.reading(s, lv, lang) for lv in concurrency.LEVELS}} for s in v.series]
    sources: list[tuple[str, str]] = [(shown_kind(s), f"{concurrency.name(s, lang)} — {concurrency.full_source(s, lang)}")
                                      for s in v.series]
    return {"question": v.question if v.series else T("empty_source"), "chart": {**v.chart, "live": {"model": "level"}},
            "rows": rows, "caveats": [c.text for c in v.caveats]}, sources, v.problems


def chart(lang: Lang) -> Chart:
    T, W = say("concurrency", lang), say("embeds", lang)
    views: dict[str, dict[str, Any]] = {}
    sources: list[tuple[str, str]] = []
    problems: list[str] = []
    for family, family_sources in concurrency.SOURCES.items():
        for source in family_sources:
            metric_free = concurrency.metric_free(family, source)
            for metric in concurrency.METRICS[:1] if metric_free else concurrency.METRICS:
                views[f"{family}/{source}/{metric}"], got, unread = _view(family, source, metric, lang)
                sources += got
                problems += unread
            if metric_free:  # the page greys its metric choice out here: both choices show the same series
                views[f"{family}/{source}/decode"] = views[f"{family}/{source}/throughput"]
    names = {k: T(f"src_{k}") for k in ("001", "004", "002", "gpu", "cpu")}
    controls: list[dict[str, Any]] = [
        {"name": "family", "label": T("family"), "kind": "select",
         "options": [["spec", T("family_spec")], ["quant", T("family_quant")]]},
        {"name": "source", "label": T("source"), "kind": "select", "depends": ["family"],
         "options_by": {f: [[s, names[s]] for s in srcs] for f, srcs in concurrency.SOURCES.items()}},
        {"name": "metric", "label": T("metric"), "kind": "select",
         "options": [["throughput", T("metric_throughput")], ["decode", T("metric_decode")]]},
        {"name": "level", "label": T("level"), "kind": "steps", "options": concurrency.LEVELS}]
    words = {"question": W("question"), "series": T("col_series"), "kind": T("col_kind"),
             "at": T("col_at", level="{level}"), "below": T("col_below")}
    return Chart("concurrency", T("title"), T("intro"), controls,
                 {"family": "spec", "source": concurrency.default_source("spec"), "metric": "throughput", "level": 8},
                 {"views": views, "words": words}, sources,
                 skipped=[W("skipped_read", problem=p) for p in dict.fromkeys(problems)])
