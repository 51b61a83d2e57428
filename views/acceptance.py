"""Acceptance rate α, draft length γ and cost ratio c → tokens per step, speedup, compute (Leviathan et al. 2023)."""

from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

from specreplay import acceptance_measured, article_tables, llamacpp_files, theory
from specreplay.token_strip import expected_taus, stream, token_strip_html
from specreplay.views import url_state
from specreplay.views.acceptance_fit import cost_section, fit_section, kind_section
from specreplay.views.live_chart import live_chart, slider
from specreplay.views.ui import kind_badge, kind_markdown, lang, page_intro, source_line, times, tr

SIM_TOKENS = 60
SIM_STEP_S = 0.25  # slowed display clock: one plain decoding step takes a quarter second on screen
ALPHAS = [i / 100 for i in range(0, 101)]
GAMMAS = list(range(1, 17))
BLUE, ORANGE, GREEN, GRAY = "#4c78a8", "#f58518", "#2ca02c", "#b8b8b8"
TEAL, DARK = "#72b7b2", "#555555"
C_MAX = 2.0  # a 0.5B drafter on a 1.5B 4-bit CPU target costs more than half a target step (measured c)
CONTROLS = [url_state.number("alpha", 0.8, 0.0, 1.0), url_state.whole("gamma", 5, 1, 16),
            url_state.number("c", 0.05, 0.0, C_MAX), url_state.choice("fit_engine", "llamacpp" if llamacpp_files.landed(llamacpp_files.LADDER) else "vllm",
                                             ("llamacpp", "vllm"))]
K_ARTICLES = 7  # DFlash2 K=7 in 000 and 001: the draft length their measured acceptance lengths come from


def cell_label(c: acceptance_measured.AcceptanceCell) -> str:
    return f"{c.prompt} · {c.arm} · {Path(c.file).stem}"


def rates_text(c: acceptance_measured.AcceptanceCell) -> str:
    return " / ".join(f"{r:.2f}" for r in c.position_rates)


def cell_hover(c: acceptance_measured.AcceptanceCell) -> str:
    temp = "—" if c.temperature is None else f"{c.temperature:g}"
    where = f"{c.engine} · {c.machine} · {c.created[:10]}"
    return tr(f"{c.file} · {c.arm} · {c.prompt} (온도 {temp}, γ={c.gamma}) · 위치별 {rates_text(c)} · 실측 속도 배수 "
              f"{c.measured_speedup:.2f}× · {where}",
              f"{c.file} · {c.arm} · {c.prompt} (temperature {temp}, γ={c.gamma}) · per position {rates_text(c)} · "
              f"measured speedup {c.measured_speedup:.2f}× · {where}")


def cell_spec(c: acceptance_measured.AcceptanceCell) -> dict:
    """A measured cell as the live chart draws it (assets/explainer/live_chart.js: etau and positions models)."""
    return {"id": c.id, "alpha": c.alpha, "gamma": c.gamma, "length": c.acceptance_length,
            "rates": list(c.position_rates), "label": cell_label(c), "hover": cell_hover(c)}


def ref_label(r: article_tables.Reference) -> str:
    name = r.label_en if lang() == "en" else r.label
    value = f"{r.low:g}" if r.low == r.high else f"{r.low:g}–{r.high:g}"
    return f"{name} {value} ({r.source[:3]})"


def implied_range(r: article_tables.Reference) -> tuple[float, float]:
    """The α range the reference's acceptance length implies at the articles' draft length K = 7."""
    return theory.implied_alpha(r.low, K_ARTICLES), theory.implied_alpha(r.high, K_ARTICLES)


def alpha_text(lo: float, hi: float) -> str:
    return f"{lo:.2f}" if round(lo, 2) == round(hi, 2) else f"{lo:.2f}–{hi:.2f}"


def reference_layers(refs: list[article_tables.Reference]) -> tuple[list[dict], list[dict]]:
    """The articles' acceptance lengths as bands (a range from low to high; a single value as a thin band), and
    the E[τ] curve at γ = K = 7 with each reference's stretch of it marked: the comparison the articles allow."""
    bands = [{"y0": r.low, "y1": r.high, "color": TEAL, "label": ref_label(r) + tr(" 실측", " measured")} for r in refs]
    k_curve = {"name": tr(f"E[τ], γ={K_ARTICLES} = 기사의 K (계산)", f"E[τ] at γ={K_ARTICLES}, the articles' K (computed)"),
               "color": DARK, "dash": "dash", "width": 1,
               "points": [[a, theory.expected_tokens(a, K_ARTICLES)] for a in ALPHAS]}
    marks = []
    for r in refs:
        lo, hi = implied_range(r)
        xs = sorted({lo, hi, *(a for a in ALPHAS if lo < a < hi)})
        marks.append({"name": ref_label(r), "color": TEAL, "width": 6, "legend": False, "markers": lo == hi,
                      "hover": tr(f"K={K_ARTICLES}에서 α {alpha_text(lo, hi)}", f"α {alpha_text(lo, hi)} at K={K_ARTICLES}"),
                      "points": [[a, theory.expected_tokens(a, K_ARTICLES)] for a in xs]})
    return bands, [k_curve, *marks]


def reference_text(refs: list[article_tables.Reference]) -> str:
    parts = []
    for r in refs:
        lo, hi = implied_range(r)
        parts.append(f"{ref_label(r)} → α {alpha_text(lo, hi)}")
    return "; ".join(parts)


page_intro(tr("수용률과 드래프트 길이", "Acceptance rate & draft length"), tr(
    "드래프터가 γ개를 제안하고 큰 모델이 한 번에 검증합니다. 토큰 하나가 채택될 확률이 α이면, 검증 1회당 "
    "평균 E[τ]개가 나옵니다. 드래프트 비용 c(드래프터 1회 ÷ 검증 1회)를 빼면 실제 배수가 됩니다.",
    "A drafter proposes γ tokens and the big model verifies them in one pass. If each draft token is accepted "
    "with probability α, one verification yields E[τ] tokens on average. Subtract the drafting cost c "
    "(one draft step ÷ one verification) and you get the real speedup."))


def nearest_readout(c: acceptance_measured.AcceptanceCell) -> None:
    """What the nearest measured cell says, in one line (the chart rings the same cell at once)."""
    st.markdown(f"{kind_markdown('measured')} " + tr(
        f"가장 가까운 실측 셀: **{cell_label(c)}** — 수용 길이 {c.acceptance_length:.2f}, α {c.alpha:.3f} (γ={c.gamma}), "
        f"위치별 {rates_text(c)}, 속도 배수 실측 {c.measured_speedup:.2f}× · ",
        f"Nearest measured cell: **{cell_label(c)}** — acceptance length {c.acceptance_length:.2f}, α {c.alpha:.3f} "
        f"(γ={c.gamma}), per position {rates_text(c)}, speedup measured {c.measured_speedup:.2f}× · ") +
        f"{kind_markdown('computed')} " + tr(f"공식 {c.predicted:.2f}× (잰 c={c.cost_ratio:.2f})",
                                             f"formula {c.predicted:.2f}× (measured c={c.cost_ratio:.2f})"))


def positions_chart(cells: list[acceptance_measured.AcceptanceCell], alpha: float, gamma: int, sliders: dict) -> None:
    live_chart({
        "title": tr("위치별 수용률: 처음 i개가 모두 채택된 초안의 비율", "Per-position acceptance: drafts whose first i tokens were all accepted"),
        "height": 300, "x": {"title": tr("초안 위치 i", "draft position i"), "ticks": GAMMAS}, "y": {"title": tr("비율", "share"), "range": [0, 1]},
        "hlines": [], "cells": [cell_spec(c) for c in cells], "cell_color": GREEN, "others_color": GRAY,
        "others_name": tr("다른 실측 셀", "other measured cells"),
        "implied_name": tr("α^i, 그 셀의 α={alpha} (계산)", "α^i at its α={alpha} (computed)"),
        "curve": {"name": tr("α^i, α={alpha} (계산)", "α^i, α={alpha} (computed)"), "color": BLUE},
        "current_name": tr("현재 α", "current α"),
        "live": {"model": "positions", "values": {"alpha": alpha, "gamma": gamma}, "sliders": sliders}}, key="positions_chart")
    st.caption(f"{kind_markdown('measured')} " + tr(
        "점은 vLLM 카운터에서 잰 위치 i의 채택 수 ÷ 초안 수, ",
        "Dots are vLLM's accepted-at-position-i counter ÷ drafts, ") + f"{kind_markdown('computed')} " + tr(
        "선은 토큰마다 독립적으로 α로 채택된다는 공식의 α^i입니다. 둘이 어긋나면 그 가정이 그 셀에서 맞지 않는 것입니다.",
        "lines are the formula's α^i, which assumes every token is accepted independently with probability α. Where "
        "they part, that assumption does not hold for the cell."))


@st.fragment
def explorer() -> None:
    """Sliders, readouts, charts and the simulated stream: a fragment, so a slider move reruns only this part."""
    left, right = st.columns([1, 2])
    with left:
        labels = {"alpha": tr("수용률 α", "Acceptance rate α"), "gamma": tr("드래프트 길이 γ", "Draft length γ"),
                  "c": tr("드래프트/검증 비용 비 c", "Draft/verify cost ratio c")}
        alpha = st.slider(labels["alpha"], 0.0, 1.0, step=0.01, key="alpha")
        gamma = st.slider(labels["gamma"], 1, 16, key="gamma")
        c = st.slider(labels["c"], 0.0, C_MAX, step=0.01, key="c")
        url_state.publish(CONTROLS)
        e_tau = theory.expected_tokens(alpha, gamma)
        gain = theory.speedup(alpha, gamma, c)
        compute = theory.compute_overhead(alpha, gamma, c)
        st.metric(tr("검증 1회당 토큰 E[τ]", "Tokens per verification E[τ]"), f"{e_tau:.2f}",
                  help="E[τ] = (1 − α^(γ+1)) / (1 − α)")
        st.metric(tr("속도 배수", "Speedup"), f"{gain:.2f}×", help="E[τ] / (1 + γc) — Leviathan et al. 2023, thm 3.8")
        st.metric(tr("연산량 배수", "Compute"), f"{compute:.2f}×",
                  help="(1 − α)(γc + γ + 1) / (1 − α^(γ+1)) — Leviathan et al. 2023, thm 3.11 (ĉ = c)")
        kind_badge("computed", tr("공식, Leviathan 외 2023", "formula, Leviathan et al. 2023"))

    refs = article_tables.acceptance_references()
    cells, _ = acceptance_measured.recorded_cells()
    sliders = {name: slider(label) for name, label in labels.items()}
    bands, k_layers = reference_layers(refs)
    with right:
        live_chart({
            "title": tr("수용률 α에 따른 E[τ]", "E[τ] against acceptance rate α"), "height": 330,
            "x": {"title": "α", "range": [0, 1]}, "y": {"title": tr("검증 1회당 토큰", "tokens per verification")},
            "grid": ALPHAS, "curve": {"name": tr("E[τ], γ={gamma} (계산)", "E[τ], γ={gamma} (computed)"), "color": BLUE},
            "hlines": [], "bands": bands, "fixed": k_layers,
            "current_name": tr("현재 값", "current"), "cells": [cell_spec(c) for c in cells], "cell_color": GREEN,
            "live": {"model": "etau", "values": {"alpha": alpha, "gamma": gamma}, "sliders": sliders}}, key="etau_chart")
        st.caption(f"{kind_markdown('computed')} " + tr("곡선은 공식입니다. ", "The curves are the formula. ") +
                   f"{kind_markdown('measured')} " + tr(
                       f"띠는 기사들이 잰 평균 수용 길이입니다(000: B200·Qwen3.8-27B·DFlash2 K={K_ARTICLES}, vLLM 지표; "
                       f"001: B200·vLLM 0.28.0·DFlash2 K={K_ARTICLES}). 수용 길이는 γ에 따라 달라지므로 기사들이 쓴 "
                       f"γ = K = {K_ARTICLES}의 점선 곡선과 비교합니다: 띠가 그 곡선과 만나는 구간(굵게)이 그 측정이 뜻하는 α입니다 — ",
                       f"Bands are the mean acceptance lengths the articles measured (000: B200 · Qwen3.8-27B · DFlash2 "
                       f"K={K_ARTICLES}, vLLM metric; 001: B200 · vLLM 0.28.0 · DFlash2 K={K_ARTICLES}). Acceptance length "
                       f"depends on γ, so compare them with the dashed curve at the articles' γ = K = {K_ARTICLES}: where a "
                       f"band meets it (thick) is the α that measurement implies — ") + reference_text(refs) + "." + (" " + tr(
                       "초록 점은 우리 녹화의 셀입니다(가로: 그 수용 길이가 팔의 γ에서 뜻하는 α). 슬라이더에 가장 가까운 "
                       "셀에 테두리가 그려집니다.",
                       "Green dots are cells of our own recordings (across: the α their acceptance length implies at "
                       "the arm's γ); the one nearest the sliders is ringed.") if cells else ""))
        near = acceptance_measured.nearest(cells, alpha, gamma)
        if near:
            nearest_readout(near)

        live_chart({
            "title": tr("γ를 늘리면: α={alpha}, c={c}", "Growing γ at α={alpha}, c={c}"), "height": 300,
            "x": {"title": "γ", "ticks": [1, 2, 4, 6, 8, 10, 12, 14, 16]}, "y": {"title": "×"}, "grid": GAMMAS,
            "curves": [{"name": tr("속도 배수", "speedup"), "color": BLUE, "markers": True, "unit": "×"},
                       {"name": tr("연산량 배수", "compute"), "color": ORANGE, "markers": True, "unit": "×"}],
            "hlines": [{"y": 1, "color": "gray", "dash": "dot"}], "current_name": tr("현재 γ", "current γ"),
            "live": {"model": "gamma", "values": {"alpha": alpha, "gamma": gamma, "c": c}, "sliders": sliders}},
            key="gamma_chart")
        st.caption(kind_markdown("computed") + " " + tr(
            "이론값입니다: 큰 모델이 γ+1개 위치를 한 번에 보는 데 추가 시간이 없다고 가정하므로 실측은 보통 더 낮습니다.",
            "Theory: it assumes verifying γ+1 positions costs no more than one, so measured speedups are usually lower."))
        if cells:  # after the γ chart, which pages and benches find as the second live chart
            positions_chart(cells, alpha, gamma, sliders)

    st.subheader(tr("토큰이 나오는 모습", "What it looks like"))
    taus = expected_taus(alpha, gamma, SIM_TOKENS)
    spec_step = (1 + gamma * c) * SIM_STEP_S  # one verification, drafting included
    after_first = sum(taus)
    plain, spec = stream([1] * after_first, SIM_STEP_S), stream(taus, spec_step)
    st.html(token_strip_html(plain, spec, gamma, {
        "plain": tr("드래프터 없음: 검증 1회에 1토큰", "No drafter: 1 token per pass"),
        "spec": tr(f"추측 디코딩 α={alpha:.2f} γ={gamma}", f"Speculative α={alpha:.2f} γ={gamma}"),
        "accepted": tr("채택된 초안 토큰", "accepted draft tokens"),
        "own": tr("큰 모델이 직접 낸 토큰", "the big model's own token"),
        "strip": tr("검증 1회당 나온 토큰 수 (막대 하나 = 검증 1회)", "Tokens per verification (one bar = one pass)"),
        "replay": tr("다시 재생", "Replay"),
    }), unsafe_allow_javascript=True)  # our own markup (labels escaped); the script is the replay button
    per_step = after_first / len(taus)
    on_screen = (after_first * SIM_STEP_S) / (len(taus) * spec_step)
    st.markdown(f"{kind_markdown('simulated')} " + tr(
        f"이 스트림: 첫 토큰 뒤 {after_first}토큰을 검증 {len(taus)}회에 = 검증 1회당 **{per_step:.2f}** (공식 E[τ] "
        f"{e_tau:.2f}) → 화면에서 드래프터 없음보다 **{on_screen:.2f}×** 빠름 (공식 {gain:.2f}×).",
        f"This stream: {after_first} tokens after the first in {len(taus)} verifications = **{per_step:.2f}** per "
        f"verification (formula E[τ] {e_tau:.2f}) → on screen **{on_screen:.2f}×** as fast as no drafter (formula "
        f"{gain:.2f}×)."))
    st.caption(f"{kind_markdown('simulated')} " + tr(
        f"시뮬레이션입니다: 스텝마다 채택되는 초안 수는 공식의 분포(확률 α로 하나씩 채택, 첫 거절에서 멈춤, 최대 γ)를 따르고, "
        f"검증 1회당 토큰이 E[τ]와 같도록(스텝 수의 0.5 이내) 개수를 맞춘 뒤 흩어 놓은 순서입니다 — 운 좋은 시드가 아닙니다. "
        f"화면 시간은 느리게 했습니다 (드래프터 없는 1스텝 = {SIM_STEP_S} s, 추측 스텝은 (1+γc)배 길게). 텍스트 없이 토큰을 "
        "블록으로 그립니다.",
        f"Simulated: how many drafts each step accepts follows the formula's distribution (each accepted with "
        f"probability α until the first rejection, at most γ), with the counts set so the tokens per verification "
        f"equal E[τ] (to within 0.5 ÷ steps), in a scattered order — not a lucky seed. Screen time is slowed (one "
        f"plain step = {SIM_STEP_S} s; a speculative step is (1+γc) times longer). Tokens are drawn as blocks, no text."))


def temperature_of(c: article_tables.TableCell) -> float:
    """The cell's temperature as a number (the table prints e.g. '0 (논문 관행)'): a stable key, not a display string."""
    return float(c.conditions["temperature"].split()[0])


def pct(x: float) -> str:
    return "0%" if abs(x) < 0.005 else f"{x:+.0%}"


def measured_section(cells: list[acceptance_measured.AcceptanceCell], problems: list[str]) -> None:
    """Our recordings' acceptance per cell, then the formula's speedup from it next to the measured one."""
    st.subheader(tr("우리 녹화에서 잰 수용률", "Acceptance measured in our recordings"))
    for p in problems:
        st.warning(tr(f"읽을 수 없는 녹화: {p}", f"Recording not read: {p}"))
    if not cells:
        st.info(tr("추측 디코딩 카운터가 있는 녹화가 없습니다 (recordings/*.jsonl).",
                   "No recording with speculative-decoding counters (recordings/*.jsonl)."))
        return
    rows = [{tr("녹화", "recording"): c.file, tr("팔", "arm"): c.arm, tr("프롬프트", "prompt"): c.prompt,
             tr("온도", "temperature"): c.temperature, "γ": c.gamma, tr("반복", "repeats"): c.repeats,
             tr("초안", "drafts"): c.counts.drafts, tr("채택", "accepted"): c.counts.accepted,
             tr("위치별 채택 ÷ 초안", "accepted at position ÷ drafts"): rates_text(c),
             tr("수용 길이", "acceptance length"): round(c.acceptance_length, 2),
             tr("함축 α", "implied α"): round(c.alpha, 3)} for c in cells]
    st.dataframe(rows, hide_index=True)
    st.caption(f"{kind_markdown('measured')} " + tr(
        "반복(워밍업 제외)을 합친 vLLM 카운터: 위치 i = 그 위치까지 채택된 초안 수 ÷ 초안 수, 수용 길이 = 1 + 채택 ÷ 초안. ",
        "vLLM's counters summed over the repeats (warm-ups left out): position i = drafts accepted up to that position ÷ "
        "drafts, acceptance length = 1 + accepted ÷ drafts. ") + f"{kind_markdown('computed')} " + tr(
        "함축 α는 E[τ] = 수용 길이가 되는 α입니다(그 팔의 γ).", "Implied α: the α at which E[τ] equals the acceptance length (the arm's γ)."))


def temperature_section(cells: list[acceptance_measured.AcceptanceCell]) -> None:
    """Measured acceptance length and speedup against temperature, one line per prompt recorded at several."""
    sweeps = acceptance_measured.temperature_sweeps(cells)
    if not sweeps:
        return
    st.subheader(tr("온도를 올리면: 우리 녹화", "Raising the temperature: our recordings"))
    figs = {"length": go.Figure(), "speedup": go.Figure()}
    for (file, arm, _prompt), group in sweeps.items():
        name = f"{group[0].kind} · {arm} · {Path(file).stem}"
        xs = [c.temperature for c in group]
        hover = [cell_hover(c) for c in group]
        figs["length"].add_trace(go.Scatter(x=xs, y=[c.acceptance_length for c in group], name=name, mode="lines+markers",
                                            hovertext=hover))
        figs["speedup"].add_trace(go.Scatter(x=xs, y=[c.measured_speedup for c in group], name=name, mode="lines+markers",
                                             hovertext=hover, hovertemplate="%{x}: %{y:.2f}×<br>%{hovertext}<extra></extra>"))
    figs["speedup"].add_hline(y=1, line_dash="dot", line_color="gray")
    titles = {"length": (tr("수용 길이 (실측)", "Acceptance length (measured)"), tr("토큰 / 검증", "tokens / verification")),
              "speedup": (tr("속도 배수 (실측)", "Speedup (measured)"), "×")}
    cols = st.columns(2)
    for col, (name, fig) in zip(cols, figs.items()):
        fig.update_layout(title=titles[name][0], xaxis_title=tr("온도", "temperature"), yaxis_title=titles[name][1],
                          height=340, margin={"l": 50, "r": 10, "t": 50, "b": 40}, legend={"orientation": "h", "y": -0.25})
        with col:
            st.plotly_chart(fig, key=f"temperature_{name}")
    rows = [{tr("녹화", "recording"): c.file, tr("프롬프트", "prompt"): c.prompt, tr("온도", "temperature"): c.temperature,
             tr("수용 길이", "acceptance length"): round(c.acceptance_length, 2), tr("함축 α", "implied α"): round(c.alpha, 3),
             tr("위치별", "per position"): rates_text(c), tr("속도 배수", "speedup"): round(c.measured_speedup, 2),
             tr("같은 토큰 수", "same token count"): "✓" if c.like_for_like else "✗",
             tr("프롬프트에서 온 단어 3개 묶음: 기준 / 추측", "word triples from the prompt: baseline / spec"):
                 f"{c.base_copied:.0%} / {c.spec_copied:.0%}"}
            for group in sweeps.values() for c in group]
    st.dataframe(rows, hide_index=True)
    sampled = [c for group in sweeps.values() for c in group if c.temperature]
    worst = max(sampled, key=lambda c: c.base_copied - c.spec_copied, default=None)
    if worst and worst.base_copied - worst.spec_copied >= 0.5:  # not noise: most of one output, almost none of the other
        st.warning(tr(
            f"{cell_label(worst)}, 온도 {worst.temperature:g}: 기준 팔 출력의 단어 3개 묶음 {worst.base_copied:.0%}가 "
            f"프롬프트에 있는데 추측 팔은 {worst.spec_copied:.0%}입니다(초안 {worst.counts.drafts}개 중 {worst.counts.accepted}개 "
            "채택). 추측 샘플링은 큰 모델의 분포를 바꾸지 않아야 하므로 두 팔이 비슷하게 베껴야 합니다: 이 엔진의 샘플링 검증 "
            "경로가 다른 분포를 내고 있고, 온도 > 0에서 수용이 무너지는 것은 온도만의 효과가 아닙니다.",
            f"{cell_label(worst)}, temperature {worst.temperature:g}: {worst.base_copied:.0%} of the baseline's word triples "
            f"are in the prompt, {worst.spec_copied:.0%} of the speculative arm's ({worst.counts.accepted} of "
            f"{worst.counts.drafts} drafts accepted). Speculative sampling must leave the big model's distribution "
            "unchanged, so both arms should copy about as much: this engine's sampled verification produces a different "
            "distribution, and the collapse of acceptance above temperature 0 is not temperature's effect alone."))
    st.caption(f"{kind_markdown('measured')} " + tr(
        "같은 조건 비교 규칙: 온도 > 0에서 샘플링된 텍스트는 팔마다, 반복마다 다르므로 텍스트는 비교하지 않습니다. 비교하는 것은 "
        "강제 길이로 같아진 토큰 수(✓ = 모든 반복에서 두 팔이 같은 토큰 수)와 카운터(초안, 채택)입니다. 시드 없이 반복 3회는 "
        "서로 다른 표본 3개입니다. 텍스트에서 확인할 수 있는 것은 그 종류입니다: 마지막 열은 각 팔 출력의 단어 3개 묶음 중 "
        "프롬프트에 있는 비율의 중앙값입니다.",
        "Like-for-like rule: at temperature > 0 the sampled text differs between arms and repeats, so texts are not "
        "compared. What is compared is the token count, made equal by the forced length (✓ = both arms produced the "
        "same count on every repeat), and the counters (drafts, accepted). Without a seed the 3 repeats are 3 "
        "different samples. What can be checked of the text is its kind: the last column is the median share of each "
        "arm's word triples found in the prompt."))


url_state.restore(CONTROLS)
explorer()
measured_cells, measured_problems = acceptance_measured.recorded_cells()
fit_section(measured_cells, measured_problems)
cost_section(measured_cells)
kind_section(measured_cells)
url_state.publish(CONTROLS[3:])
with st.expander(tr("셀마다 잰 값 전부 (표)", "Every measured cell (tables)")):
    measured_section(measured_cells, [])  # problems are named once, above the fit chart

t0, t1 = sorted(article_tables.table_cells("temperature_eagle3", "speedup"), key=temperature_of)
ng = {(temperature_of(c), c.metric): c.value for c in article_tables.table_cells("temperature_ngram")}
greedy_ng = f"{ng[(0.0, 'speedup_min')]:.1f}–{ng[(0.0, 'speedup_max')]:.1f}×"
hot_ng = f"{ng[(1.0, 'speedup_min')]:.1f}–{ng[(1.0, 'speedup_max')]:.1f}×"
st.caption(kind_markdown("quoted") + " " + tr(
    f"온도가 높으면 드래프터가 지목한 토큰이 덜 채택되어 α가 내려갑니다. EAGLE-3(Llama 3.1 8B): 온도 0에서 {times(t0.value)}, "
    f"1에서 {times(t1.value)} (004, EAGLE-3 논문 표 1). ",
    f"Higher temperature means fewer draft tokens accepted: α drops. EAGLE-3 (Llama 3.1 8B): {times(t0.value)} at "
    f"temperature 0, {times(t1.value)} at 1 (004, EAGLE-3 paper table 1). ") + kind_markdown("measured") + " " + tr(
    f"n-gram 방식의 수학 문제: {greedy_ng} → 온도 1.0에서 {hot_ng} (001).",
    f"n-gram drafting on maths: {greedy_ng} → {hot_ng} at temperature 1.0 (001)."))

temperature_section(measured_cells)

with st.expander(tr("기사 004의 계산표와 대조", "Check against article 004's worked table")):
    rows = [{"α": m.alpha, "c": m.c, "γ": m.gamma,
             tr("E[τ] 기사", "E[τ] article"): m.expected_tokens,
             tr("E[τ] 계산", "E[τ] computed"): round(theory.expected_tokens(m.alpha, m.gamma), 2),
             tr("배수 기사", "speedup article"): m.speedup,
             tr("배수 계산", "speedup computed"): round(theory.speedup(m.alpha, m.gamma, m.c), 2),
             tr("연산량 기사", "compute article"): m.compute,
             tr("연산량 계산", "compute computed"): round(theory.compute_overhead(m.alpha, m.gamma, m.c), 2)}
            for m in article_tables.speculative_math()]
    st.dataframe(rows, hide_index=True)
    src = article_tables.speculative_math()[0]
    st.caption(f"{kind_markdown(src.kind)} {source_line(src)} — {kind_markdown('computed')} " +
               tr("이 앱이 같은 식으로 다시 계산 (Leviathan 외 2023, 정리 3.8·3.11)",
                  "recomputed by this app from the same formulas (Leviathan et al. 2023, theorems 3.8 and 3.11)"))
