"""Price per hour and decode rate → cost per 1M output tokens; KV bytes per token → sessions that fit."""

import streamlit as st

from specreplay import article_tables, axis_series, chooser, theory
from specreplay.views import url_state
from specreplay.views.ui import kind_badge, kind_markdown, lang, page_intro, source_line, tr

COST_TABLE = "cost_h100"
KV_TABLE = "kv_example"
KV = "llama_3_3_70b_fp16_kv"  # rows are looked up by their stable key, never by a printed label
BATCH_TABLE = "batch_speedup"


def num(table: str, series: str, metric: str) -> float:
    value = article_tables.cell(table, series, metric).value
    assert value is not None, f"{table}/{series}/{metric} is empty"
    return value


page_intro(tr("토큰당 비용과 KV 캐시", "Cost per token & KV cache"), tr(
    "같은 GPU에서 초당 토큰이 늘면 토큰 하나에 드는 GPU 시간이 줄어듭니다. 반대로 드래프터와 긴 컨텍스트는 "
    "메모리를 차지해 동시에 담을 수 있는 대화 수를 줄입니다.",
    "More tokens per second on the same GPU means less GPU time per token. A drafter and long contexts, "
    "in turn, take memory and cut how many conversations fit at once."))

CONTROLS = [
    url_state.number("usd_per_hour", float(article_tables.table_cells(COST_TABLE, "price_per_hour")[0].value or 0), 0,
                     1000),
    url_state.number("tok_s", num(COST_TABLE, "eagle_3", "throughput"), 0.01, 100000),
    url_state.whole("answer_tokens", 500, 1, 100000), url_state.whole("layers", int(num(KV_TABLE, KV, "layers")), 1, 1000),
    url_state.whole("kv_heads", int(num(KV_TABLE, KV, "kv_heads")), 1, 1000),
    url_state.whole("head_dim", int(num(KV_TABLE, KV, "head_dim")), 1, 4096),
    url_state.choice("kv_dtype", list(theory.KV_DTYPE_BYTES)[2], list(theory.KV_DTYPE_BYTES)),
    url_state.number("budget_gib", num(KV_TABLE, KV, "kv_budget"), 0, 10000),
    url_state.whole("context", int(num(KV_TABLE, KV, "tokens_per_request")), 1, 10_000_000),
    url_state.whole("reserved", 0, 0, 90)]
url_state.restore(CONTROLS)

# --- cost per token
st.subheader(tr("100만 출력 토큰당 비용", "Cost per 1M output tokens"))
arms = [c.key for c in article_tables.table_cells(COST_TABLE, "throughput")]
price_cell = article_tables.cell(COST_TABLE, arms[0], "price_per_hour")
left, right = st.columns([1, 2])
with left:
    usd_h = st.number_input(tr("GPU 시간당 요금 ($/h)", "GPU price ($/h)"), min_value=0.0, max_value=1000.0,
                            step=0.01, key="usd_per_hour")
    tok_s = st.number_input(tr("초당 출력 토큰 (tok/s)", "Output tokens per second (tok/s)"), min_value=0.01,
                            max_value=100000.0, step=1.0, key="tok_s")
    answer = st.number_input(tr("답 길이 (토큰)", "Answer length (tokens)"), min_value=1, max_value=100000,
                             step=50, key="answer_tokens")
    st.caption(kind_markdown("quoted") + " " + tr(
        f"기본값: H100 SXM 80GB 1장 ${price_cell.value:g}/h, EAGLE-3 {num(COST_TABLE, 'eagle_3', 'throughput'):g} tok/s "
        "(배치 1, Llama 3.1 8B). 출처는 표 아래에 있습니다.",
        f"Defaults: 1× H100 SXM 80GB at ${price_cell.value:g}/h, EAGLE-3 {num(COST_TABLE, 'eagle_3', 'throughput'):g} "
        "tok/s (batch 1, Llama 3.1 8B). Sources are under the table."))
with right:
    a, b = st.columns(2)
    a.metric(tr("100만 토큰당", "per 1M tokens"), f"${theory.cost_per_million(usd_h, tok_s):.2f}",
             help="$/h × 1,000,000 ÷ (3,600 × tok/s)")
    b.metric(tr(f"{answer}토큰 답 하나", f"one {answer}-token answer"), f"{theory.seconds_per_answer(answer, tok_s):.2f} s",
             help=tr("토큰 수 ÷ tok/s (첫 토큰 지연 제외)", "tokens ÷ tok/s (time to first token not included)"))
    kind_badge("computed", tr("100만 토큰당 $ = $/h × 1,000,000 ÷ (3,600 × tok/s); 답 시간 = 토큰 ÷ tok/s",
                              "$ per 1M = $/h × 1,000,000 ÷ (3,600 × tok/s); answer time = tokens ÷ tok/s"))
    rows = []
    for arm in arms:
        cell = article_tables.cell(COST_TABLE, arm, "throughput")
        rate = num(COST_TABLE, arm, "throughput")
        rows.append({tr("설정 (H100 1장, 배치 1)", "setup (1× H100, batch 1)"): cell.series if lang() == "ko" else cell.series_en,
                     tr("tok/s (인용)", "tok/s (quoted)"): f"{rate:.2f}",  # as printed: 244.10
                     tr(f"${usd_h:g}/h에서 100만 토큰당 (계산)", f"per 1M at ${usd_h:g}/h (computed)"):
                         f"${theory.cost_per_million(usd_h, rate):.2f}",
                     tr(f"{answer}토큰 답 (계산)", f"{answer}-token answer (computed)"):
                         f"{theory.seconds_per_answer(answer, rate):.2f} s",
                     tr("기사 값 ($4.29/h, 500토큰)", "article's figures ($4.29/h, 500 tokens)"):
                         f"${num(COST_TABLE, arm, 'cost_per_1m_output_stated'):g} · "
                         f"{num(COST_TABLE, arm, 'seconds_per_500_tokens_stated'):g} s"})
    st.table(rows, hide_index=True)  # a static table: long headers and the article's figures wrap, never cut
    rate_cell = article_tables.cell(COST_TABLE, "eagle_3", "throughput")
    stated = article_tables.cell(COST_TABLE, "eagle_3", "cost_per_1m_output_stated")
    st.caption(f"{kind_markdown('quoted')} tok/s — {source_line(rate_cell)}")
    st.caption(f"{kind_markdown('quoted')} $/h — {source_line(price_cell, conditions=False)}")
    st.caption(f"{kind_markdown('computed')} " + tr("기사 값 — ", "the article's figures — ") +
               source_line(stated, conditions=False))

# --- batch size → cost per token (article 004's translation of the EAGLE-3 paper's batch table)
st.subheader(tr("배치를 키우면 절감이 줄어듭니다", "A larger batch shrinks the saving"))
sglang = [s for s in axis_series.series(BATCH_TABLE, "speedup") if s.conditions["engine"].startswith("SGLang")]
batches = sorted({x for s in sglang for x, _ in s.points})


def cost_change(speedup: float | None) -> str:
    """Cost per token with speculative decoding on ÷ off, minus one: the inverse of the throughput gain."""
    if not speedup:
        return ""
    change = 1 / speedup - 1
    return "0%" if abs(change) < 0.005 else f"{change:+.0%}"


st.table([{tr("배치", "batch"): b, **{col: val for s in sglang for col, val in (
    (f"{s.label_en if lang() == 'en' else s.label} " + tr("처리량 배수 (인용)", "throughput × (quoted)"),
     f"{s.value_at(b):g}×" if s.value_at(b) is not None else ""),
    (f"{s.label_en if lang() == 'en' else s.label} " + tr("토큰당 비용 (계산)", "cost per token (computed)"),
     cost_change(s.value_at(b))))}} for b in batches], hide_index=True)
st.caption(kind_markdown("quoted") + " " + source_line(sglang[0]))
st.caption(kind_markdown("computed") + " " + tr(
    "토큰당 비용 = 1 ÷ 처리량 배수 − 1 (같은 GPU, 같은 시간당 요금). 표의 배수는 소수 한 자리라 기사 본문의 계산과 조금 "
    "다를 수 있습니다. 기사 자신의 계산:",
    "Cost per token = 1 ÷ throughput multiplier − 1 (same GPU, same hourly price). The table's multipliers have one "
    "decimal, so this can differ slightly from the article's own arithmetic:"))
for text, fig in chooser.describe(tuple(article_tables.table_cells("batch_cost")), lang()):
    st.markdown(f"- {kind_markdown(fig.kind)} **{text}** — {source_line(fig, conditions=False)}")
batch1 = chooser.caveats()["batch1_costliest"]
st.info(tr(batch1.text_ko, batch1.text_en) + " — " + source_line(batch1), icon=":material/info:")

# --- KV cache budget
st.subheader(tr("KV 캐시: 토큰당 바이트와 들어가는 세션 수", "KV cache: bytes per token and sessions that fit"))
left, right = st.columns([1, 2])
with left:
    layers = st.number_input(tr("레이어 수 L", "Layers L"), 1, 1000, key="layers")
    kv_heads = st.number_input(tr("KV 헤드 수 H_kv", "KV heads H_kv"), 1, 1000, key="kv_heads")
    head_dim = st.number_input(tr("헤드 차원 d_h", "Head dim d_h"), 1, 4096, key="head_dim")
    dtype = st.selectbox(tr("KV 데이터 타입", "KV dtype"), list(theory.KV_DTYPE_BYTES), key="kv_dtype")
    budget_gib = st.number_input(tr("KV 캐시 예산 (GiB)", "KV-cache budget (GiB)"), 0.0, 10000.0, step=1.0,
                                 key="budget_gib")
    context = st.number_input(tr("세션당 컨텍스트 (토큰)", "Context per session (tokens)"), 1, 10_000_000, key="context")
    reserved = st.slider(tr("드래프터 등이 가져가는 KV 풀 (%)", "KV pool taken by a drafter etc. (%)"), 0, 90, key="reserved")
url_state.publish(CONTROLS)
per_token = theory.kv_bytes_per_token(layers, kv_heads, head_dim, theory.KV_DTYPE_BYTES[dtype])
with right:
    a, b, c = st.columns(3)
    a.metric(tr("토큰당 KV (바이트)", "KV per token (bytes)"), f"{per_token:,.0f}", help="2 × L × H_kv × d_h × bytes")
    b.metric(tr("예산의 토큰 수용량", "budget in tokens"), f"{theory.tokens_fitting(budget_gib * theory.GIB, per_token):,.0f}")
    c.metric(tr("동시 세션", "concurrent sessions"),
             f"{theory.sessions_fitting(budget_gib * theory.GIB, context, per_token, reserved / 100):,.1f}")
    kind_badge("computed", tr("KV 바이트/토큰 = 2 × L × H_kv × d_h × 바이트; 세션 = 예산 × (1 − 드래프터 몫) ÷ (컨텍스트 × "
                              "바이트/토큰) (기사 002의 식)",
                              "KV bytes per token = 2 × L × H_kv × d_h × bytes; sessions = budget × (1 − drafter share) ÷ "
                              "(context × bytes per token) (article 002's formula)"))
    kv = article_tables.cell(KV_TABLE, KV, "kv_bytes_per_token")
    st.caption(kind_markdown("quoted") + " " + tr(
        f"기본값은 기사 002의 예: Llama 3.3 70B (L=80, H_kv=8, d_h=128), FP16 KV → 토큰당 {kv.value:,.0f} B, "
        f"H100 80GB에서 남는 약 10GB에 약 {num(KV_TABLE, KV, 'max_tokens'):,.0f} 토큰, "
        f"요청 100개면 요청당 약 {num(KV_TABLE, KV, 'tokens_per_request'):g} 토큰. "
        "10GB는 GiB로 읽었습니다(그래야 32,768).",
        f"Defaults are article 002's example: Llama 3.3 70B (L=80, H_kv=8, d_h=128), FP16 KV → {kv.value:,.0f} B per "
        f"token; the ~10 GB left on an H100 80GB holds about "
        f"{num(KV_TABLE, KV, 'max_tokens'):,.0f} tokens, so 100 requests get about "
        f"{num(KV_TABLE, KV, 'tokens_per_request'):g} tokens each. 10 GB is read as GiB "
        "(which gives 32,768).") + f" — {source_line(kv, conditions=False)}")
    pool = article_tables.cell("memory", "drafter_on", "kv_pool_change")
    off = article_tables.cell("memory", "drafter_off", "sessions")
    on = article_tables.cell("memory", "drafter_on", "sessions")
    st.caption(kind_markdown("measured") + " / " + kind_markdown("computed") + " " + tr(
        f"기사 001: 드래프터를 붙이자 KV 풀이 약 {abs(pool.value or 0):g}% 줄어, 256k 컨텍스트 세션이 "
        f"{off.value:g}개에서 {on.value:g}개가 됐습니다(B200, Edge 예산 조건). 위 슬라이더를 {abs(pool.value or 0):g}%로 "
        "두면 같은 비율을 볼 수 있습니다.",
        f"Article 001: with the drafter the KV pool shrank by about {abs(pool.value or 0):g}%, and 256k-context "
        f"sessions went from {off.value:g} to {on.value:g} (B200, Edge-budget setup). Set the slider to "
        f"{abs(pool.value or 0):g}% to see the same ratio.") + f" — {source_line(pool)}")
    st.caption(kind_markdown("computed") + " " + tr("별도 초안 모델의 가중치 (bf16, 파라미터당 2바이트): ",
                                                    "A separate draft model's weights (bf16, 2 bytes per parameter): ") +
               "; ".join(text for text, _ in chooser.describe(tuple(article_tables.table_cells("drafter_memory")), lang())) +
               " — " + source_line(article_tables.table_cells("drafter_memory")[0], conditions=False))
