"""The acceptance calculator as an exported chart: α, γ and c sliders over the formulas (run in the browser by
assets/explainer/formulas.js), the E[τ] curve with the articles' acceptance lengths as bands and our recordings'
cells as dots, and speedup and compute against γ — the acceptance page's two live charts and its three numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from specreplay import acceptance_measured, article_tables, palette, theory
from specreplay.articles import cite
from specreplay.embeds.document import Chart
from specreplay.embeds.words import say
from specreplay.languages import Lang, localized
from specreplay.scale import on_scale

ALPHAS = [i / 100 for i in range(101)]
GAMMAS = list(range(1, 17))
K_ARTICLES = 7  # DFlash2 K=7 in 000 and 001: the draft length their acceptance lengths come from
C_MAX = 2.0  # the page's c slider: a 0.5B drafter on a 1.5B 4-bit CPU target costs more than half a step
PAPER = "https://arxiv.org/abs/2211.17192"
NAME_MAX = 40  # legend names, as on the pages
# The controls' names: the app's URL (and session state) keys, so a link's state opens the chart in it.
STATE = ("alpha", "gamma", "c")


def _short(text: str) -> str:
    return text if len(text) <= NAME_MAX else text[:NAME_MAX - 1] + "…"


def _cell(c: acceptance_measured.AcceptanceCell) -> dict[str, Any]:
    """A measured cell as live_chart.js draws it, with the texts of the readout under the sliders."""
    return {"id": c.id, "alpha": c.alpha, "gamma": c.gamma, "length": c.acceptance_length,
            "rates": list(c.position_rates), "label": _short(f"{c.prompt} · {c.arm} · {Path(c.file).stem}"),
            "hover": f"{c.file} · {c.engine} · {c.machine}", "length_text": f"{c.acceptance_length:.2f}",
            "alpha_text": f"{c.alpha:.3f}"}


def _references(T: Any, lang: Lang) -> tuple[list[dict[str, Any]], list[dict[str, Any]], str]:
    """The articles' acceptance lengths as bands, the E[τ] curve at the articles' K with each one's α marked, and
    the α each implies at K, in words."""
    bands, marks, implied = [], [], []
    for r in article_tables.acceptance_references():
        value = f"{r.low:g}" if r.low == r.high else f"{r.low:g}–{r.high:g}"
        name = f"{localized(r, 'label', lang)} {value} ({r.source[:3]})"
        bands.append({"y0": r.low, "y1": r.high, "color": palette.MARKS["band"], "label": name + T("band_quoted_suffix")})
        lo, hi = (theory.implied_alpha(x, K_ARTICLES) for x in (r.low, r.high))
        xs = sorted({lo, hi, *(a for a in ALPHAS if lo < a < hi)})
        implied.append(f"{name} → α {lo:.2f}" + ("" if round(lo, 2) == round(hi, 2) else f"–{hi:.2f}"))
        marks.append({"name": name, "color": palette.MARKS["band"], "width": 6, "legend": False, "markers": lo == hi,
                      "points": [[a, theory.expected_tokens(a, K_ARTICLES)] for a in xs]})
    curve = {"name": T("curve_article_k", K_ARTICLES=K_ARTICLES), "color": palette.baseline(2), "dash": "dash",
             "width": 1, "points": [[a, theory.expected_tokens(a, K_ARTICLES)] for a in ALPHAS]}
    return bands, [curve, *marks], "; ".join(implied) + "."


def chart(lang: Lang) -> Chart:
    T, W = say("acceptance", lang), say("embeds", lang)
    cells, _ = acceptance_measured.recorded_cells()
    bands, fixed, implied = _references(T, lang)
    etau = {"title": T("expected_title"), "height": 330, "x": {"title": "α", "range": [0, 1]},
            # a cell far above the rest is drawn off scale at the top, as on the page
            "y": {"title": T("expected_y"), "cells_cap": on_scale(c.acceptance_length for c in cells)}, "grid": ALPHAS, "hlines": [], "bands": bands,
            "fixed": fixed, "curve": {"name": T("expected_curve"), "color": palette.MARKS["formula"]},
            "current_name": T("expected_current"), "cells": [_cell(c) for c in cells], "cell_color": palette.KINDS["measured"],
            "live": {"model": "etau"}}
    gamma = {"title": T("gamma_title"), "height": 300, "x": {"title": "γ", "ticks": [1, 2, 4, 6, 8, 10, 12, 14, 16]},
             "y": {"title": "×"}, "grid": GAMMAS, "hlines": [{"y": 1, "color": "gray", "dash": "dot"}],
             "curves": [{"name": T("col_speedup"), "color": palette.MARKS["formula"], "markers": True, "unit": "×"},
                        {"name": T("gamma_compute"), "color": palette.MARKS["formula_alt"], "markers": True, "unit": "×"}],
             "current_name": T("gamma_current"), "live": {"model": "gamma"}}
    controls: list[dict[str, Any]] = [{"name": "alpha", "label": T("slider_alpha"), "kind": "range", "min": 0, "max": 1, "step": 0.01},
                {"name": "gamma", "label": T("slider_gamma"), "kind": "range", "min": 1, "max": 16, "step": 1},
                {"name": "c", "label": T("slider_c"), "kind": "range", "min": 0, "max": C_MAX,
                 "step": 0.01}]
    words = {"expected_tokens": T("metric_expected_tokens"), "speedup": T("metric_speedup"), "compute": T("metric_compute"),
             "nearest": W("nearest"), "nearest_text": W("nearest_text")}
    sources = [("computed", f"{T('metric_source')}: E[τ] = (1 − α^(γ+1)) / (1 − α) · E[τ] / (1 + γc) · "
                            "(γc + γ + 1) / E[τ]")]
    sources += [("quoted", f"{localized(c, 'series', lang)} — {cite(c, lang)}")  # type: ignore[arg-type]
                for c in article_tables.table_cells("acceptance_length")]
    arms: dict[tuple[str, str], list[str]] = {}  # one line per recording and kind: its arms × prompts, engine, machine
    for c in cells:
        arms.setdefault((c.number_kind, f"{c.file} · {c.engine} · {c.machine}"), []).append(f"{c.arm}/{c.prompt}")
    sources += [(kind, f"{where} · {', '.join(dict.fromkeys(cs))}") for (kind, where), cs in arms.items()]
    return Chart("acceptance", T("expected_title"), T("intro"), controls,
                 {"alpha": 0.8, "gamma": 5, "c": 0.05}, {"etau": etau, "gamma": gamma, "words": words}, sources,
                 [(W("formula_link"), PAPER)],
                 [("computed", T("formula_curves_note") + T("formula_assumption")),
                  ("quoted", T("expected_bands_note", K_ARTICLES=K_ARTICLES) + implied),
                  *([("measured", T("expected_cells_note"))] if cells else [])])

