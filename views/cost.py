"""Price per hour and decode rate → cost per 1M output tokens; KV bytes per token → sessions that fit."""

import streamlit as st

from specreplay import article_tables, theory
from specreplay.views.ui import kind_badge, kind_markdown, lang, page_intro, tr

COST_TABLE = "cost_h100"
KV_TABLE = "kv_example"


def num(table: str, series: str, metric: str) -> float:
    value = article_tables.cell(table, series, metric).value
    assert value is not None, f"{table}/{series}/{metric} is empty"
    return value


page_intro(tr("토큰당 비용과 KV 캐시", "Cost per token & KV cache"), tr(
    "같은 GPU에서 초당 토큰이 늘면 토큰 하나에 드는 GPU 시간이 줄어듭니다. 반대로 드래프터와 긴 컨텍스트는 "
    "메모리를 차지해 동시에 담을 수 있는 대화 수를 줄입니다.",
    "More tokens per second on the same GPU means less GPU time per token. A drafter and long contexts, "
    "in turn, take memory and cut how many conversations fit at once."))

# --- cost per token
st.subheader(tr("100만 출력 토큰당 비용", "Cost per 1M output tokens"))
arms = [c.series for c in article_tables.table_cells(COST_TABLE, "throughput")]
price_cell = article_tables.cell(COST_TABLE, arms[0], "price_per_hour")
left, right = st.columns([1, 2])
with left:
    usd_h = st.number_input(tr("GPU 시간당 요금 ($/h)", "GPU price ($/h)"), min_value=0.0, max_value=1000.0,
                            value=float(price_cell.value or 0), step=0.01, key="usd_per_hour")
    tok_s = st.number_input(tr("초당 출력 토큰 (tok/s)", "Output tokens per second (tok/s)"), min_value=0.01,
                            max_value=100000.0, value=num(COST_TABLE, "EAGLE-3", "throughput"), step=1.0, key="tok_s")
    answer = st.number_input(tr("답 길이 (토큰)", "Answer length (tokens)"), min_value=1, max_value=100000,
                             value=500, step=50, key="answer_tokens")
    st.caption(kind_markdown("quoted") + " " + tr(
        f"기본값: 기사 004 — Lambda H100 SXM 80GB 1장 ${price_cell.value:g}/h (2026-10-25, 세금 별도), "
        f"EAGLE-3 {num(COST_TABLE, 'EAGLE-3', 'throughput'):g} tok/s (EAGLE-3 논문 표 4, SGLang, 배치 1, Llama 3.1 8B).",
        f"Defaults: article 004 — Lambda 1× H100 SXM 80GB at ${price_cell.value:g}/h (2026-10-25, before tax), "
        f"EAGLE-3 {num(COST_TABLE, 'EAGLE-3', 'throughput'):g} tok/s (EAGLE-3 paper table 4, SGLang, batch 1, "
        f"Llama 3.1 8B)."))
with right:
    a, b = st.columns(2)
    a.metric(tr("100만 토큰당", "per 1M tokens"), f"${theory.cost_per_million(usd_h, tok_s):.2f}",
             help="$/h × 1,000,000 ÷ (3,600 × tok/s)")
    b.metric(tr(f"{answer}토큰 답 하나", f"one {answer}-token answer"), f"{theory.seconds_per_answer(answer, tok_s):.2f} s",
             help=tr("토큰 수 ÷ tok/s (첫 토큰 지연 제외)", "tokens ÷ tok/s (time to first token not included)"))
    kind_badge("computed", "theory.cost_per_million · theory.seconds_per_answer")
    rows = []
    for arm in arms:
        cell = article_tables.cell(COST_TABLE, arm, "throughput")
        rate = num(COST_TABLE, arm, "throughput")
        rows.append({tr("설정 (H100 1장, 배치 1)", "setup (1× H100, batch 1)"): arm if lang() == "ko" else cell.series_en,
                     tr("tok/s (인용)", "tok/s (quoted)"): f"{rate:.2f}",  # as printed: 244.10
                     tr(f"${usd_h:g}/h에서 100만 토큰당 (계산)", f"per 1M at ${usd_h:g}/h (computed)"):
                         f"${theory.cost_per_million(usd_h, rate):.2f}",
                     tr(f"{answer}토큰 답 (계산)", f"{answer}-token answer (computed)"):
                         f"{theory.seconds_per_answer(answer, rate):.2f} s",
                     tr("기사 값 ($4.29/h, 500토큰)", "article's figures ($4.29/h, 500 tokens)"):
                         f"${num(COST_TABLE, arm, 'cost_per_1m_output_stated'):g} · "
                         f"{num(COST_TABLE, arm, 'seconds_per_500_tokens_stated'):g} s"})
    st.dataframe(rows, hide_index=True, key="cost_table")
    st.caption(f"{kind_markdown('quoted')} {price_cell.source} · {price_cell.section}")

# --- KV cache budget
st.subheader(tr("KV 캐시: 토큰당 바이트와 들어가는 세션 수", "KV cache: bytes per token and sessions that fit"))
left, right = st.columns([1, 2])
with left:
    layers = st.number_input(tr("레이어 수 L", "Layers L"), 1, 1000, int(num(KV_TABLE, "Llama 3.3 70B · FP16 KV", "layers")),
                             key="layers")
    kv_heads = st.number_input(tr("KV 헤드 수 H_kv", "KV heads H_kv"), 1, 1000,
                               int(num(KV_TABLE, "Llama 3.3 70B · FP16 KV", "kv_heads")), key="kv_heads")
    head_dim = st.number_input(tr("헤드 차원 d_h", "Head dim d_h"), 1, 4096,
                               int(num(KV_TABLE, "Llama 3.3 70B · FP16 KV", "head_dim")), key="head_dim")
    dtype = st.selectbox(tr("KV 데이터 타입", "KV dtype"), list(theory.KV_DTYPE_BYTES), index=2, key="kv_dtype")
    budget_gib = st.number_input(tr("KV 캐시 예산 (GiB)", "KV-cache budget (GiB)"), 0.0, 10000.0,
                                 num(KV_TABLE, "Llama 3.3 70B · FP16 KV", "kv_budget"), step=1.0, key="budget_gib")
    context = st.number_input(tr("세션당 컨텍스트 (토큰)", "Context per session (tokens)"), 1, 10_000_000,
                              int(num(KV_TABLE, "Llama 3.3 70B · FP16 KV", "tokens_per_request")), key="context")
    reserved = st.slider(tr("드래프터 등이 가져가는 KV 풀 (%)", "KV pool taken by a drafter etc. (%)"), 0, 90, 0,
                         key="reserved")
per_token = theory.kv_bytes_per_token(layers, kv_heads, head_dim, theory.KV_DTYPE_BYTES[dtype])
with right:
    a, b, c = st.columns(3)
    a.metric(tr("토큰당 KV (바이트)", "KV per token (bytes)"), f"{per_token:,.0f}", help="2 × L × H_kv × d_h × bytes")
    b.metric(tr("예산의 토큰 수용량", "budget in tokens"), f"{theory.tokens_fitting(budget_gib * theory.GIB, per_token):,.0f}")
    c.metric(tr("동시 세션", "concurrent sessions"),
             f"{theory.sessions_fitting(budget_gib * theory.GIB, context, per_token, reserved / 100):,.1f}")
    kind_badge("computed", "theory.kv_bytes_per_token · theory.sessions_fitting")
    kv = article_tables.cell(KV_TABLE, "Llama 3.3 70B · FP16 KV", "kv_bytes_per_token")
    st.caption(kind_markdown("quoted") + " " + tr(
        f"기본값은 기사 002의 예: Llama 3.3 70B (L=80, H_kv=8, d_h=128), FP16 KV → 토큰당 {kv.value:,.0f} B, "
        f"H100 80GB에서 남는 약 10GB에 약 {num(KV_TABLE, 'Llama 3.3 70B · FP16 KV', 'max_tokens'):,.0f} 토큰, "
        f"요청 100개면 요청당 약 {num(KV_TABLE, 'Llama 3.3 70B · FP16 KV', 'tokens_per_request'):g} 토큰. "
        "10GB는 GiB로 읽었습니다(그래야 32,768).",
        f"Defaults are article 002's example: Llama 3.3 70B (L=80, H_kv=8, d_h=128), FP16 KV → {kv.value:,.0f} B per "
        f"token; the ~10 GB left on an H100 80GB holds about "
        f"{num(KV_TABLE, 'Llama 3.3 70B · FP16 KV', 'max_tokens'):,.0f} tokens, so 100 requests get about "
        f"{num(KV_TABLE, 'Llama 3.3 70B · FP16 KV', 'tokens_per_request'):g} tokens each. 10 GB is read as GiB "
        "(which gives 32,768).") + f" — {kv.source} · {kv.section}")
    pool = article_tables.cell("memory", "드래프터 켬", "kv_pool_change")
    off = article_tables.cell("memory", "드래프터 없음", "sessions")
    on = article_tables.cell("memory", "드래프터 켬", "sessions")
    st.caption(kind_markdown("measured") + " " + tr(
        f"기사 001: 드래프터를 붙이자 KV 풀이 약 {abs(pool.value or 0):g}% 줄어, 256k 컨텍스트 세션이 "
        f"{off.value:g}개에서 {on.value:g}개가 됐습니다(B200, Edge 예산 조건). 위 슬라이더를 {abs(pool.value or 0):g}%로 "
        "두면 같은 비율을 볼 수 있습니다.",
        f"Article 001: with the drafter the KV pool shrank by about {abs(pool.value or 0):g}%, and 256k-context "
        f"sessions went from {off.value:g} to {on.value:g} (B200, Edge-budget setup). Set the slider to "
        f"{abs(pool.value or 0):g}% to see the same ratio.") + f" — {pool.source} · {pool.section}")
