"""Acceptance rate α, draft length γ and cost ratio c → tokens per step, speedup, compute (Leviathan et al. 2023)."""

import streamlit as st

from specreplay import measured, theory
from specreplay.live_chart import live_chart, slider
from specreplay.panes import simulate_events
from specreplay.token_strip import token_strip_html
from specreplay.ui import kind_badge, kind_markdown, lang, page_intro, tr

SIM_TOKENS = 60
SIM_STEP_S = 0.25  # slowed display clock: one plain decoding step takes a quarter second on screen
ALPHAS = [i / 100 for i in range(0, 101)]
GAMMAS = list(range(1, 17))
BLUE, ORANGE = "#4c78a8", "#f58518"


def ref_label(r: measured.Reference) -> str:
    name = r.label_en if lang() == "en" else r.label
    value = f"{r.low:g}" if r.low == r.high else f"{r.low:g}–{r.high:g}"
    return f"{name} {value} ({r.source[:3]})"


page_intro(tr("수용률과 드래프트 길이", "Acceptance rate & draft length"), tr(
    "드래프터가 γ개를 제안하고 큰 모델이 한 번에 검증합니다. 토큰 하나가 채택될 확률이 α이면, 검증 1회당 "
    "평균 E[τ]개가 나옵니다. 드래프트 비용 c(드래프터 1회 ÷ 검증 1회)를 빼면 실제 배수가 됩니다.",
    "A drafter proposes γ tokens and the big model verifies them in one pass. If each draft token is accepted "
    "with probability α, one verification yields E[τ] tokens on average. Subtract the drafting cost c "
    "(one draft step ÷ one verification) and you get the real speedup."))


@st.fragment
def explorer() -> None:
    """Sliders, readouts, charts and the simulated stream: a fragment, so a slider move reruns only this part."""
    left, right = st.columns([1, 2])
    with left:
        labels = {"alpha": tr("수용률 α", "Acceptance rate α"), "gamma": tr("드래프트 길이 γ", "Draft length γ"),
                  "c": tr("드래프트/검증 비용 비 c", "Draft/verify cost ratio c")}
        alpha = st.slider(labels["alpha"], 0.0, 1.0, 0.8, 0.01, key="alpha")
        gamma = st.slider(labels["gamma"], 1, 16, 5, key="gamma")
        c = st.slider(labels["c"], 0.0, 0.5, 0.05, 0.01, key="c")
        e_tau = theory.expected_tokens(alpha, gamma)
        gain = theory.speedup(alpha, gamma, c)
        compute = theory.compute_overhead(alpha, gamma, c)
        st.metric(tr("검증 1회당 토큰 E[τ]", "Tokens per verification E[τ]"), f"{e_tau:.2f}",
                  help="E[τ] = (1 − α^(γ+1)) / (1 − α)")
        st.metric(tr("속도 배수", "Speedup"), f"{gain:.2f}×", help="E[τ] / (1 + γc) — Leviathan et al. 2023, thm 3.8")
        st.metric(tr("연산량 배수", "Compute"), f"{compute:.2f}×",
                  help="(1 − α)(γc + γ + 1) / (1 − α^(γ+1)) — Leviathan et al. 2023, thm 3.11 (ĉ = c)")
        kind_badge("computed", tr("공식, Leviathan 외 2023", "formula, Leviathan et al. 2023"))

    refs = measured.acceptance_references()
    sliders = {name: slider(label) for name, label in labels.items()}
    with right:
        live_chart({
            "title": tr("수용률 α에 따른 E[τ]", "E[τ] against acceptance rate α"), "height": 330,
            "x": {"title": "α", "range": [0, 1]}, "y": {"title": tr("검증 1회당 토큰", "tokens per verification")},
            "grid": ALPHAS, "curve": {"name": tr("E[τ], γ={gamma} (계산)", "E[τ], γ={gamma} (computed)"), "color": BLUE},
            "hlines": [{"y": (r.low + r.high) / 2, "label": ref_label(r) + tr(" 실측", " measured"), "color": "green",
                        "dash": "dash"} for r in refs],
            "current_name": tr("현재 값", "current"),
            "live": {"model": "etau", "values": {"alpha": alpha, "gamma": gamma}, "sliders": sliders}}, key="etau_chart")
        st.caption(f"{kind_markdown('computed')} " + tr("곡선은 공식입니다. ", "The curve is the formula. ") +
                   f"{kind_markdown('measured')} " + tr(
                       "점선은 기사들이 잰 평균 수용 길이입니다(000: B200·Qwen3.8-27B·DFlash2 K=7, vLLM 지표; "
                       "001: B200·vLLM 0.28.0·DFlash2). 수용 길이는 γ에 따라 달라지므로 곡선과의 비교는 대략적입니다.",
                       "Dashed lines are the mean acceptance lengths the articles measured (000: B200 · Qwen3.8-27B · "
                       "DFlash2 K=7, vLLM metric; 001: B200 · vLLM 0.28.0 · DFlash2). Acceptance length depends on γ, "
                       "so compare with the curve only roughly."))

        live_chart({
            "title": tr("γ를 늘리면: α={alpha}, c={c}", "Growing γ at α={alpha}, c={c}"), "height": 300,
            "x": {"title": "γ", "ticks": [1, 2, 4, 6, 8, 10, 12, 14, 16]}, "y": {"title": "×"}, "grid": GAMMAS,
            "curves": [{"name": tr("속도 배수", "speedup"), "color": BLUE, "markers": True},
                       {"name": tr("연산량 배수", "compute"), "color": ORANGE, "markers": True}],
            "hlines": [{"y": 1, "color": "gray", "dash": "dot"}], "current_name": tr("현재 γ", "current γ"),
            "live": {"model": "gamma", "values": {"alpha": alpha, "gamma": gamma, "c": c}, "sliders": sliders}},
            key="gamma_chart")
        st.caption(kind_markdown("computed") + " " + tr(
            "이론값입니다: 큰 모델이 γ+1개 위치를 한 번에 보는 데 추가 시간이 없다고 가정하므로 실측은 보통 더 낮습니다.",
            "Theory: it assumes verifying γ+1 positions costs no more than one, so measured speedups are usually lower."))

    st.subheader(tr("토큰이 나오는 모습", "What it looks like"))
    plain = simulate_events(1 / SIM_STEP_S, 0.0, 0.0, 0, SIM_TOKENS)
    spec = simulate_events(gain / SIM_STEP_S, 0.0, alpha, gamma, SIM_TOKENS, seed=7)
    st.html(token_strip_html(plain, spec, gamma, {
        "plain": tr("드래프터 없음: 검증 1회에 1토큰", "No drafter: 1 token per pass"),
        "spec": tr(f"추측 디코딩 α={alpha:.2f} γ={gamma}", f"Speculative α={alpha:.2f} γ={gamma}"),
        "accepted": tr("채택된 초안 토큰", "accepted draft tokens"),
        "own": tr("큰 모델이 직접 낸 토큰", "the big model's own token"),
        "strip": tr("검증 1회당 나온 토큰 수 (막대 하나 = 검증 1회)", "Tokens per verification (one bar = one pass)"),
        "replay": tr("다시 재생", "Replay"),
    }), unsafe_allow_javascript=True)  # our own markup (labels escaped); the script is the replay button
    st.caption(f"{kind_markdown('simulated')} " + tr(
        f"시뮬레이션입니다: 초안마다 확률 α로 채택, 첫 거절에서 멈춤(최대 γ), 고정 시드. 화면 시간은 느리게 했습니다 "
        f"(드래프터 없는 1스텝 = {SIM_STEP_S} s, 추측 스텝은 (1+γc)배 길게). 텍스트 없이 토큰 {SIM_TOKENS}개를 블록으로 그립니다.",
        f"Simulated: each draft accepted with probability α until the first rejection (at most γ), fixed seed. "
        f"Screen time is slowed (one plain step = {SIM_STEP_S} s; a speculative step is (1+γc) times longer). "
        f"{SIM_TOKENS} tokens drawn as blocks, no text."))


explorer()

t0, t1 = sorted(measured.table_cells("temperature_eagle3", "speedup"), key=lambda c: c.conditions["temperature"])
ng = {(c.conditions["temperature"], c.metric): c.value for c in measured.table_cells("temperature_ngram")}
st.caption(kind_markdown("quoted") + " " + tr(
    f"온도가 높으면 드래프터가 지목한 토큰이 덜 채택되어 α가 내려갑니다. EAGLE-3(Llama 3.1 8B): 온도 0에서 {t0.value:g}×, "
    f"1에서 {t1.value:g}× (004, EAGLE-3 논문 표 1). ",
    f"Higher temperature means fewer draft tokens accepted: α drops. EAGLE-3 (Llama 3.1 8B): {t0.value:g}× at "
    f"temperature 0, {t1.value:g}× at 1 (004, EAGLE-3 paper table 1). ") + kind_markdown("measured") + " " + tr(
    f"n-gram 방식의 수학 문제: {ng[('0 (논문 관행)', 'speedup_min')]:.1f}–{ng[('0 (논문 관행)', 'speedup_max')]:.1f}× → "
    f"온도 1.0에서 {ng[('1.0', 'speedup_min')]:.1f}–{ng[('1.0', 'speedup_max')]:.1f}× (001).",
    f"n-gram drafting on maths: {ng[('0 (논문 관행)', 'speedup_min')]:.1f}–{ng[('0 (논문 관행)', 'speedup_max')]:.1f}× → "
    f"{ng[('1.0', 'speedup_min')]:.1f}–{ng[('1.0', 'speedup_max')]:.1f}× at temperature 1.0 (001)."))

with st.expander(tr("기사 004의 계산표와 대조", "Check against article 004's worked table")):
    rows = [{"α": m.alpha, "c": m.c, "γ": m.gamma,
             tr("E[τ] 인용", "E[τ] quoted"): m.expected_tokens,
             tr("E[τ] 계산", "E[τ] computed"): round(theory.expected_tokens(m.alpha, m.gamma), 2),
             tr("배수 인용", "speedup quoted"): m.speedup,
             tr("배수 계산", "speedup computed"): round(theory.speedup(m.alpha, m.gamma, m.c), 2),
             tr("연산량 인용", "compute quoted"): m.compute,
             tr("연산량 계산", "compute computed"): round(theory.compute_overhead(m.alpha, m.gamma, m.c), 2)}
            for m in measured.speculative_math()]
    st.dataframe(rows, hide_index=True)
    src = measured.speculative_math()[0]
    st.caption(f"{kind_markdown('quoted')} {src.source} · {src.section} — {kind_markdown('computed')} theory.py")
