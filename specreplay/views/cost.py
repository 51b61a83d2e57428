"""Price per hour and decode rate → cost per 1M output tokens; KV bytes per token → sessions that fit."""

import math

import streamlit as st

from specreplay import theory
from specreplay.explain import axis_series, chooser
from specreplay.quoted import article_tables
from specreplay.views import url_state
from specreplay.views.chart_parts import page_sources
from specreplay.views.texts import Texts
from specreplay.views.ui import kind_markdown, lang, localized, page_intro, shown_kind, source_line

T = Texts("cost")
COST_TABLE = "cost_h100"
KV_TABLE = "kv_example"
KV = "llama_3_3_70b_fp16_kv"  # rows are looked up by their stable key, never by a printed label
BATCH_TABLE = "batch_speedup"


def num(table: str, series: str, metric: str) -> float:
    value = article_tables.cell(table, series, metric).value
    assert value is not None, f"{table}/{series}/{metric} is empty"
    return value


page_intro(T("title"), T("intro"))
page_sources(["eagle3_table3", "lambda_price"])

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
st.subheader(T("price_title"))
arms = [c.key for c in article_tables.table_cells(COST_TABLE, "throughput")]
price_cell = article_tables.cell(COST_TABLE, arms[0], "price_per_hour")
left, right = st.columns([1, 2])
with left:
    usd_h = st.number_input(T("input_price"), min_value=0.0, max_value=1000.0,
                            step=0.01, key="usd_per_hour")
    tok_s = st.number_input(T("input_tok_s"), min_value=0.01,
                            max_value=100000.0, step=1.0, key="tok_s")
    answer = st.number_input(T("input_answer_tokens"), min_value=1, max_value=100000,
                             step=50, key="answer_tokens")
    st.caption(kind_markdown("quoted") + " " + T("price_defaults", price_cell_value=price_cell.value, num_COST_TABLE_eagle_3_t=num(COST_TABLE, 'eagle_3', 'throughput')))
with right:
    a, b = st.columns(2)
    a.metric(T("metric_per_1m"), f"${theory.cost_per_million(usd_h, tok_s):.2f}",
             help="$/h × 1,000,000 ÷ (3,600 × tok/s)")
    b.metric(T("metric_answer", answer=answer), f"{theory.seconds_per_answer(answer, tok_s):.2f} s",
             help=T("answer_time_help"))
    # a caption wraps where a long badge is cut; its $ signs escaped, not read as LaTeX
    st.caption(f"{kind_markdown('computed')} " + T("price_formula").replace("$", "\\$"))
    rows = []
    for arm in arms:
        cell = article_tables.cell(COST_TABLE, arm, "throughput")
        rate = num(COST_TABLE, arm, "throughput")
        rows.append({T("col_setup"): localized(cell, "series"),
                     T("col_tok_s"): f"{rate:.2f}",  # as printed: 244.10
                     T("col_per_1m", usd_h=usd_h):
                         f"${theory.cost_per_million(usd_h, rate):.2f}",
                     T("col_answer_cost", answer=answer):
                         f"{theory.seconds_per_answer(answer, rate):.2f} s",
                     T("article_figures_title"):
                         f"${num(COST_TABLE, arm, 'cost_per_1m_output_stated'):g} · "
                         f"{num(COST_TABLE, arm, 'seconds_per_500_tokens_stated'):g} s"})
    st.table(rows, hide_index=True)  # a static table: long headers and the article's figures wrap, never cut
    rate_cell = article_tables.cell(COST_TABLE, "eagle_3", "throughput")
    stated = article_tables.cell(COST_TABLE, "eagle_3", "cost_per_1m_output_stated")
    st.caption(f"{kind_markdown('quoted')} tok/s — {source_line(rate_cell)}")
    st.caption(f"{kind_markdown('quoted')} $/h — {source_line(price_cell, conditions=False)}")
    st.caption(f"{kind_markdown('computed')} " + T("article_figures_prefix") +
               source_line(stated, conditions=False))

# --- batch size → cost per token (article 004's translation of the EAGLE-3 paper's batch table)
st.subheader(T("batch_title"))
sglang = [s for s in axis_series.series(BATCH_TABLE, "speedup") if s.conditions["engine"].startswith("SGLang")]
batches = sorted({x for s in sglang for x, _ in s.points})


def cost_change(speedup: float | None) -> str:
    """Cost per token with speculative decoding on ÷ off, minus one: the inverse of the throughput gain."""
    if not speedup:
        return ""
    change = 1 / speedup - 1
    return "0%" if abs(change) < 0.005 else f"{change:+.0%}"


st.table([{T("col_batch"): b, **{col: val for s in sglang for col, val in (
    (f"{localized(s, 'label')} " + T("batch_throughput_quoted"),
     f"{s.value_at(b):g}×" if s.value_at(b) is not None else ""),
    (f"{localized(s, 'label')} " + T("batch_cost_computed"),
     cost_change(s.value_at(b))))}} for b in batches], hide_index=True)
st.caption(kind_markdown("quoted") + " " + source_line(sglang[0]))
st.caption(kind_markdown("computed") + " " + T("batch_formula"))
for text, fig in chooser.describe(tuple(article_tables.table_cells("batch_cost")), lang()):
    st.markdown(f"- {kind_markdown(shown_kind(fig))} **{text}** — {source_line(fig, conditions=False)}")
batch1 = chooser.caveats()["batch1_costliest"]
st.info(localized(batch1, "text") + " — " + source_line(batch1), icon=":material/info:")

# --- KV cache budget
st.subheader(T("kv_title"))
left, right = st.columns([1, 2])
with left:
    layers = st.number_input(T("input_layers"), 1, 1000, key="layers")
    kv_heads = st.number_input(T("input_kv_heads"), 1, 1000, key="kv_heads")
    head_dim = st.number_input(T("input_head_dim"), 1, 4096, key="head_dim")
    dtype = st.selectbox(T("input_kv_dtype"), list(theory.KV_DTYPE_BYTES), key="kv_dtype")
    budget_gib = st.number_input(T("input_kv_budget"), 0.0, 10000.0, step=1.0,
                                 key="budget_gib")
    context = st.number_input(T("input_context"), 1, 10_000_000, key="context")
    reserved = st.slider(T("input_drafter_share"), 0, 90, key="reserved")
url_state.publish(CONTROLS)
per_token = theory.kv_bytes_per_token(layers, kv_heads, head_dim, theory.KV_DTYPE_BYTES[dtype])
with right:
    a, b, c = st.columns(3)
    a.metric(T("metric_kv_per_token"), f"{per_token:,.0f}", help="2 × L × H_kv × d_h × bytes")
    b.metric(T("metric_budget_tokens"), f"{theory.tokens_fitting(budget_gib * theory.GIB, per_token):,.0f}")
    sessions = theory.sessions_fitting(budget_gib * theory.GIB, context, per_token, reserved / 100)
    c.metric(T("metric_sessions"), f"{math.floor(sessions):,}", help=T("sessions_help", exact=sessions))  # whole ones
    st.caption(f"{kind_markdown('computed')} {T('kv_formula')}")
    kv = article_tables.cell(KV_TABLE, KV, "kv_bytes_per_token")
    st.caption(kind_markdown("quoted") + " " + T("kv_defaults", kv_value=kv.value, num_KV_TABLE_KV_max_toke=num(KV_TABLE, KV, 'max_tokens'), num_KV_TABLE_KV_tokens_p=num(KV_TABLE, KV, 'tokens_per_request')) + f" — {source_line(kv, conditions=False)}")
    pool = article_tables.cell("memory", "drafter_on", "kv_pool_change")
    off = article_tables.cell("memory", "drafter_off", "sessions")
    on = article_tables.cell("memory", "drafter_on", "sessions")
    st.caption(kind_markdown(shown_kind(pool)) + " / " + kind_markdown("computed") + " " + T("kv_article_001", abs_pool_value_or_0=abs(pool.value or 0), off_value=off.value, on_value=on.value) + f" — {source_line(pool)}")
    st.caption(kind_markdown("computed") + " " + T("kv_drafter_weights") +
               "; ".join(text for text, _ in chooser.describe(tuple(article_tables.table_cells("drafter_memory")), lang())) +
               " — " + source_line(article_tables.table_cells("drafter_memory")[0], conditions=False))
