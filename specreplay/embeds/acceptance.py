"""The acceptance calculator as an exported chart: α, γ and c sliders over the formulas, the E[τ] curve with the
articles' acceptance lengths as bands and our recordings' cells as dots, and speedup and compute against γ — the
acceptance page's two live charts, their caveats and its three numbers, from the one spec both draw
(specreplay.charts.acceptance)."""

from __future__ import annotations

from typing import Any

from specreplay.charts import acceptance
from specreplay.embeds.document import Chart
from specreplay.embeds.words import say
from specreplay.languages import Lang, localized
from specreplay.quoted import article_tables
from specreplay.quoted.articles import cite

# The controls' names: the app's URL (and session state) keys, so a link's state opens the chart in it.
STATE = ("alpha", "gamma", "c")


def chart(lang: Lang) -> Chart:
    T, W = say("acceptance", lang), say("embeds", lang)
    spec = acceptance.calculator(lang)
    etau = {**spec.etau, "live": {"model": "etau"}}
    gamma = {**spec.gamma, "live": {"model": "gamma"}}
    controls: list[dict[str, Any]] = [
        {"name": "alpha", "label": T("slider_alpha"), "kind": "range", "min": 0, "max": 1, "step": 0.01},
        {"name": "gamma", "label": T("slider_gamma"), "kind": "range", "min": acceptance.GAMMAS[0],
         "max": acceptance.GAMMAS[-1], "step": 1},
        {"name": "c", "label": T("slider_c"), "kind": "range", "min": 0, "max": acceptance.C_MAX, "step": 0.01}]
    words = {"expected_tokens": T("metric_expected_tokens"), "speedup": T("metric_speedup"), "compute": T("metric_compute"),
             "nearest": W("nearest"), "nearest_text": W("nearest_text")}
    sources = [("computed", f"{T('metric_source')}: E[τ] = (1 − α^(γ+1)) / (1 − α) · E[τ] / (1 + γc) · "
                            "(γc + γ + 1) / E[τ]")]
    sources += [("quoted", f"{localized(c, 'series', lang)} — {cite(c, lang)}")  # type: ignore[arg-type]
                for c in article_tables.table_cells("acceptance_length")]
    arms: dict[tuple[str, str], list[str]] = {}  # one line per recording and kind: its arms × prompts, engine, machine
    for c in spec.cells:
        arms.setdefault((c.number_kind, f"{c.file} · {c.engine} · {c.machine}"), []).append(f"{c.arm}/{c.prompt}")
    sources += [(kind, f"{where} · {', '.join(dict.fromkeys(cs))}") for (kind, where), cs in arms.items()]
    return Chart("acceptance", T("expected_title"), T("intro"), controls, dict(acceptance.DEFAULTS),
                 {"etau": etau, "gamma": gamma, "words": words}, sources, [(W("formula_link"), acceptance.PAPER)],
                 [(kind, text.strip()) for kind, text in (*spec.etau_caveats, *spec.gamma_caveats)],
                 [W("skipped_read", problem=p) for p in spec.unread])
