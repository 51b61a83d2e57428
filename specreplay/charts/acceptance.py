"""The acceptance calculator: α, γ and c over the formulas (run in the browser by assets/explainer/formulas.js), the
E[τ] curve with the articles' acceptance lengths as bands and our recordings' cells as dots, and speedup and
compute against γ — built once for the acceptance page and its exported chart.

    spec = calculator("en")
    spec.etau, spec.gamma              # the two live charts' specs (each drawer adds its slider wiring)
    spec.etau_caveats, spec.gamma_caveats   # (kind, text) under each chart, on the page and in the file
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from specreplay import palette, theory
from specreplay.charts import on_scale, short
from specreplay.embeds.words import say
from specreplay.explain import acceptance_measured
from specreplay.explain.acceptance_measured import AcceptanceCell
from specreplay.languages import Lang, localized
from specreplay.quoted import article_tables
from specreplay.recording.kinds import Kind

ALPHAS = [i / 100 for i in range(101)]
GAMMAS = list(range(1, 17))
GAMMA_TICKS = [1, 2, 4, 6, 8, 10, 12, 14, 16]
K_ARTICLES = 7  # DFlash2 K=7 in 000 and 001: the draft length their measured acceptance lengths come from
C_MAX = 2.0  # the c slider: a 0.5B drafter on a 1.5B 4-bit CPU target costs more than half a target step (measured c)
DEFAULTS = {"alpha": 0.8, "gamma": 5, "c": 0.05}  # where the sliders open
PAPER = "https://arxiv.org/abs/2211.17192"
# The one palette (assets/palette.json): formula curves slate and amber, measured cells the measured green.
BLUE, ORANGE, GREEN = palette.MARKS["formula"], palette.MARKS["formula_alt"], palette.KINDS["measured"]
TEAL, DARK = palette.MARKS["band"], palette.baseline(2)


def cell_label(c: AcceptanceCell) -> str:
    return f"{c.prompt} · {c.arm} · {Path(c.file).stem}"


def rates_text(c: AcceptanceCell) -> str:
    return " / ".join(f"{r:.2f}" for r in c.position_rates)


def cell_hover(c: AcceptanceCell, lang: Lang) -> str:
    T = say("acceptance", lang)
    temp = "—" if c.temperature is None else f"{c.temperature:g}"
    where = f"{c.engine} · {c.machine} · {c.created[:10]}"
    return T("cell_detail", c_file=c.file, c_arm=c.arm, c_prompt=c.prompt, temp=temp, c_gamma=c.gamma,
             rates_text_c=rates_text(c), c_measured_speedup=c.measured_speedup, where=where) \
        + (f" · ⚠ {c.defect.text(lang)}" if c.defect else "")


def cell_spec(c: AcceptanceCell, lang: Lang) -> dict[str, Any]:
    """A measured cell as the live chart draws it (assets/explainer/live_chart.js: etau and positions models), with
    the texts of the file's nearest-cell readout."""
    return {"id": c.id, "alpha": c.alpha, "gamma": c.gamma, "length": c.acceptance_length,
            "color": palette.KINDS[c.number_kind],  # measured green; timing-only (a set acceptance) its own colour
            "rates": list(c.position_rates), "label": short(cell_label(c)), "hover": cell_hover(c, lang),
            "length_text": f"{c.acceptance_length:.2f}", "alpha_text": f"{c.alpha:.3f}"}


def ref_value(r: article_tables.Reference) -> str:
    return f"{r.low:g}" if r.low == r.high else f"{r.low:g}–{r.high:g}"


def ref_label(r: article_tables.Reference, lang: Lang) -> str:
    return f"{localized(r, 'label', lang)} {ref_value(r)} ({r.source[:3]})"


def implied_range(r: article_tables.Reference) -> tuple[float, float]:
    """The α range the reference's acceptance length implies at the articles' draft length K = 7."""
    return theory.implied_alpha(r.low, K_ARTICLES), theory.implied_alpha(r.high, K_ARTICLES)


def alpha_text(lo: float, hi: float) -> str:
    return f"{lo:.2f}" if round(lo, 2) == round(hi, 2) else f"{lo:.2f}–{hi:.2f}"


@dataclass(frozen=True)
class Calculator:
    etau: dict[str, Any]  # E[τ] against α: formula curve, the articles' bands and K-curve, our cells
    gamma: dict[str, Any]  # speedup and compute against γ
    etau_caveats: tuple[tuple[Kind, str], ...]
    gamma_caveats: tuple[tuple[Kind, str], ...]
    cells: tuple[AcceptanceCell, ...]
    unread: tuple[str, ...]  # one line per recording that could not be read: its cells are missing


def _references(refs: list[article_tables.Reference], lang: Lang) -> tuple[list[dict], list[dict], str]:
    """The articles' acceptance lengths as bands (a range from low to high; a single value as a thin band), the
    E[τ] curve at γ = K = 7 with each reference's stretch of it marked (the comparison the articles allow), and
    the α each implies at K, in words."""
    T = say("acceptance", lang)
    # `value`: what a narrow chart writes at the band (its label then goes in the legend)
    bands = [{"y0": r.low, "y1": r.high, "color": TEAL, "label": ref_label(r, lang) + T("band_quoted_suffix"),
              "value": ref_value(r)} for r in refs]
    k_curve = {"name": T("curve_article_k", K_ARTICLES=K_ARTICLES), "color": DARK, "dash": "dash", "width": 1,
               "points": [[a, theory.expected_tokens(a, K_ARTICLES)] for a in ALPHAS]}
    marks, implied = [], []
    for r in refs:
        lo, hi = implied_range(r)
        xs = sorted({lo, hi, *(a for a in ALPHAS if lo < a < hi)})
        marks.append({"name": ref_label(r, lang), "color": TEAL, "width": 6, "legend": False, "markers": lo == hi,
                      "hover": T("band_hover", K_ARTICLES=K_ARTICLES, alpha_text_lo_hi=alpha_text(lo, hi)),
                      "points": [[a, theory.expected_tokens(a, K_ARTICLES)] for a in xs]})
        implied.append(f"{ref_label(r, lang)} → α {alpha_text(lo, hi)}")
    return bands, [k_curve, *marks], "; ".join(implied)


def calculator(lang: Lang) -> Calculator:
    T = say("acceptance", lang)
    cells, unread = acceptance_measured.recorded_cells()
    bands, fixed, implied = _references(article_tables.acceptance_references(), lang)
    etau = {"title": T("expected_title"), "height": 330, "x": {"title": "α", "range": [0, 1]},
            # a cell far above the rest (a copy prompt's acceptance length of 36) is drawn off scale at the top
            "y": {"title": T("expected_y"), "cells_cap": on_scale(c.acceptance_length for c in cells)},
            "grid": ALPHAS, "curve": {"name": T("expected_curve"), "color": BLUE}, "hlines": [], "bands": bands,
            "fixed": fixed, "current_name": T("expected_current"), "cells": [cell_spec(c, lang) for c in cells],
            "cell_color": GREEN}
    gamma = {"title": T("gamma_title"), "height": 300, "x": {"title": "γ", "ticks": GAMMA_TICKS}, "y": {"title": "×"},
             "grid": GAMMAS, "curves": [{"name": T("col_speedup"), "color": BLUE, "markers": True, "unit": "×"},
                                        {"name": T("gamma_compute"), "color": ORANGE, "markers": True, "unit": "×"}],
             "hlines": [{"y": 1, "color": "gray", "dash": "dot"}], "current_name": T("gamma_current")}
    etau_caveats: list[tuple[Kind, str]] = [("computed", T("formula_curves_note")),
                                            ("quoted", T("expected_bands_note", K_ARTICLES=K_ARTICLES) + implied + ".")]
    # one line, with its own badge, per kind of number the dots are (measured here; timing only: a set acceptance)
    etau_caveats += [(kind, T(f"expected_cells_note_{kind}")) for kind in dict.fromkeys(c.number_kind for c in cells)]
    return Calculator(etau, gamma, tuple(etau_caveats), (("computed", T("formula_assumption")),), tuple(cells),
                      tuple(unread))
