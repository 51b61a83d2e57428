"""Why 4-bit can lose at large batch: the roofline, our H200 measurement of it, and NVIDIA's quoted table."""

from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

from specreplay.explain import axis_series, panels
from specreplay.explain import roofline as rl
from specreplay.explain import timing_sweep as ts
from specreplay.explain.derived import first_below
from specreplay.recording import wanted
from specreplay.recording.format import Recording
from specreplay.views import url_state
from specreplay.views.chart_parts import opened, page_sources, plotly
from specreplay.views.full_scale import roofline_panel
from specreplay.views.tables import table
from specreplay.views.texts import Texts
from specreplay.views.ui import FORMAT_COLOR as COLOR
from specreplay.views.ui import kind_badge, kind_label, kind_markdown, localized, page_intro, plain, source_line, times

T = Texts("roofline")
BATCHES = [1, 2, 4, 8, 16, 32, 64, 128, 256]
FORMATS = ["bf16", "int4", "fp8"]
FORMAT_NAME = {"bf16": "BF16", "int4": "int4 W4A16", "fp8": "FP8 W8A8"}
QUOTED_TABLE = "h200_relative_throughput"

data = rl.load_measured()
ceil = data["ceilings"]
bandwidth = ceil["copy_bandwidth_bytes_per_s"]
peaks = rl.measured_peaks(data)
prov = data["provenance"]
SOURCE = f"assets/{rl.MEASURED_FILE.name} · {prov['gpu']} · {prov['date_utc'][:10]}"


def log_x(fig: go.Figure, title: str, y_title: str, batch: int) -> go.Figure:
    fig.add_vline(x=batch, line=dict(color="#888", dash="dot"))
    fig.update_xaxes(type="log", tickvals=BATCHES, title=T("batch_axis_log"))
    fig.update_layout(title=title, yaxis_title=y_title, height=420, margin=dict(t=50, b=40, l=10, r=10),
                      legend=dict(orientation="h", y=-0.25))
    return fig


def level(fig: go.Figure, y: float, name: str, color: str, dash: str) -> None:
    """A horizontal reference line as a trace: layout shapes and their labels misplace on log axes."""
    fig.add_trace(go.Scatter(x=[BATCHES[0], BATCHES[-1]], y=[y, y], mode="lines", name=name, hoverinfo="name",
                             line=dict(color=color, dash=dash, width=1.5)))


def shape_label(s: rl.LayerShape) -> str:
    return f"{s.model} · {s.layer} ({s.k}→{s.n})"


# What the intro says is read off the measured file, so it cannot disagree with the sections below.
INT4_RIDGE_B = rl.ridge_batch(rl.measured_ridge(data, "int4"), rl.BYTES_PER_WEIGHT["int4"])
INT4_LOSES_AT = min(b for b in (first_below(rl.speedup(data, s.name, "int4")) for s in rl.shapes(data)) if b)
page_intro(T("title"), T("intro", INT4_RIDGE_B=INT4_RIDGE_B, INT4_LOSES_AT=INT4_LOSES_AT))
page_sources(["nvidia_modelopt", "vllm"])

BATCH = url_state.whole("roofline_batch", 8, min(BATCHES), max(BATCHES), BATCHES)
url_state.restore([BATCH])
batch = st.select_slider(T("input_batch"), BATCHES, key="roofline_batch")
url_state.publish([BATCH])

# ---------- 1. computed: intensity against the ridge ----------
st.subheader(T("ridge_title"))
kind_badge("computed", T("ridge_formula"))
st.latex(r"I(B) \approx \frac{2B}{b_w}\ \text{FLOP/byte},\qquad I_{\text{ridge}} = "
         r"\frac{\text{Peak FLOP/s}}{\text{BW}_{\text{HBM}}}")
cols = st.columns(3)
for col, fmt in zip(cols, FORMATS):
    b_w = rl.BYTES_PER_WEIGHT[fmt]
    value, ridge = rl.intensity(batch, b_w), rl.measured_ridge(data, fmt)
    bound = T("memory_bound") if value < ridge else T("compute_bound")
    col.metric(f"{FORMAT_NAME[fmt]} · I({batch}) · b_w = {b_w:g} B", f"{value:,.0f} FLOP/B",
               delta=f"{bound} · {T('ridge')} {ridge:,.0f}", delta_color="off", delta_arrow="off",
               help=T("ridge_batch", rl_ridge_batch_ridge_b_w=rl.ridge_batch(ridge, b_w)))
st.caption(T("ridge_note"))

fig = go.Figure()
xs = [2 ** (i / 8) for i in range(0, 8 * 8 + 1)]
for fmt in FORMATS:
    fig.add_trace(go.Scatter(x=xs, y=[rl.intensity(x, rl.BYTES_PER_WEIGHT[fmt]) for x in xs], mode="lines",
                             name=f"I(B) · {FORMAT_NAME[fmt]}", line=dict(color=COLOR[fmt])))
for fmt, dash in (("bf16", "dash"), ("fp8", "dashdot")):
    which = "BF16·int4" if fmt == "bf16" else "FP8"
    level(fig, rl.measured_ridge(data, fmt), T("ridge_line", which=which),
          COLOR[fmt], dash)
fig.update_yaxes(type="log", dtick=1)  # 1, 10, 100 …: no minor labels between the powers of ten
plotly(log_x(fig, T("ridge_chart_title"), "FLOP/byte", batch))

# ---------- 2. measured: our H200 ----------
st.subheader(T("measured_title"))
kind_badge("measured", SOURCE)
c1, c2, c3 = st.columns(3)
c1.metric(T("metric_bandwidth"), f"{bandwidth / 1e12:.2f} TB/s")
c2.metric(T("metric_bf16_peak"), f"{peaks['bf16'] / 1e12:,.0f} TFLOP/s")
c3.metric(T("metric_fp8_peak"), f"{peaks['fp8'] / 1e12:,.0f} TFLOP/s")

layer_shapes = rl.shapes(data)
by_name = {s.name: s for s in layer_shapes}
SHAPE = url_state.choice("roofline_shape", "70b_up", [s.name for s in layer_shapes])
url_state.restore([SHAPE])
chosen = by_name[st.selectbox(T("input_layer_shape"), [s.name for s in layer_shapes],
                              format_func=lambda n: shape_label(by_name[n]), key="roofline_shape")]
url_state.publish([SHAPE])
sp = {fmt: rl.speedup(data, chosen.name, fmt) for fmt in ("int4", "fp8")}
m1, m2 = st.columns(2)
for col, fmt in ((m1, "int4"), (m2, "fp8")):
    ideal = rl.ideal_speedup(batch, chosen.k, chosen.n, fmt, peaks, bandwidth)
    col.metric(T("metric_format_vs_bf16", FORMAT_NAME_fmt=FORMAT_NAME[fmt], batch=batch),
               f"{sp[fmt][batch]:.2f}×", delta=T("metric_ideal_delta", ideal=ideal),
               delta_color="off", delta_arrow="off")  # a neutral note, not a change: no arrow

fig = go.Figure()
for fmt in ("int4", "fp8"):
    pts = sp[fmt]
    fig.add_trace(go.Scatter(x=list(pts), y=list(pts.values()), mode="lines+markers", line=dict(color=COLOR[fmt]),
                             name=T("trace_measured", FORMAT_NAME_fmt=FORMAT_NAME[fmt]) + (
                                 T("trace_tinygemm_suffix") if fmt == "int4" else ""),
                             text=[times(v) for v in pts.values()], hovertemplate="B=%{x}: %{text}<extra></extra>"))
    ideal_curve = [rl.ideal_speedup(x, chosen.k, chosen.n, fmt, peaks, bandwidth) for x in xs]
    fig.add_trace(go.Scatter(x=xs, y=ideal_curve, mode="lines", line=dict(color=COLOR[fmt], dash="dot", width=1),
                             text=[times(v) for v in ideal_curve], hovertemplate="B=%{x:.0f}: %{text}<extra></extra>",
                             name=T("trace_ideal", FORMAT_NAME_fmt=FORMAT_NAME[fmt])))
level(fig, 1.0, "BF16 = 1.0", "#444", "solid")
fig.update_yaxes(type="log", tickvals=[0.05, 0.1, 0.25, 0.5, 1, 2, 4])
plotly(log_x(fig, T("measured_chart_title", shape_label_chosen=shape_label(chosen)),
             T("measured_y"), batch))
st.caption(T("measured_caption", kind_markdown_measured=kind_markdown('measured'), kind_markdown_computed=kind_markdown('computed')))

rows = []
for s in layer_shapes:
    i4, f8 = rl.speedup(data, s.name, "int4"), rl.speedup(data, s.name, "fp8")
    cross = first_below(i4)
    rows.append({T("col_layer"): shape_label(s),
                 **{f"int4 B={m}": f"{i4[m]:.2f}×" for m in (1, 8, 64)},
                 **{f"FP8 B={m}": f"{f8[m]:.2f}×" for m in (1, 8, 64)},
                 T("col_int4_below_1"): f"B = {cross}" if cross else T("never")})
table(rows)

t4, t16 = rl.median_us(data, chosen.name, "int4"), rl.median_us(data, chosen.name, "bf16")
int4_times = " → ".join(f"{t4[m]:,.0f}" for m in (1, 8, 64))
base = " → ".join(f"{t16[m]:,.0f}" for m in (1, 8, 64))
with st.expander(T("kernels_expander")):
    st.warning(T("int4_kernel_note"), icon=":material/memory:")
    st.markdown(T("kernels_text", times=int4_times, base=base))

# ---------- 3. quoted: NVIDIA's table from article 002 ----------
st.subheader(T("quoted_title"))
# 002's rows by their stable keys (assets/quoted_h200_relative_throughput.csv `key`); the BF16 rows are the 1.00 baseline.
QUOTED_ROWS = ["llama_3_1_70b_int4_awq_w4a16", "llama_3_1_70b_fp8_w8a8_plus_fp8_kv", "llama_3_1_8b_int4_awq_w4a16",
               "llama_3_1_8b_fp8_w8a8_plus_fp8_kv"]
by_key = {s.key.split("/", 1)[1]: s for s in axis_series.series(QUOTED_TABLE, "relative_throughput")}
quoted = [by_key[k] for k in QUOTED_ROWS]
kind_badge("quoted", source_line(quoted[0], markdown=False, conditions=False))
fig = go.Figure()
for row in quoted:
    measured = row.measured()
    fmt = "int4" if "int4" in row.key else "fp8"
    fig.add_trace(go.Scatter(x=[x for x, _ in measured], y=[y for _, y in measured], mode="lines+markers",
                             name=localized(row, "label"),
                             line=dict(color=COLOR[fmt], dash="solid" if "70b" in row.key else "dash"),
                             text=[times(y) for _, y in measured], hovertemplate="B=%{x}: %{text}<extra></extra>"))
level(fig, 1.0, "BF16 = 1.0", "#444", "solid")
plotly(log_x(fig, T("quoted_chart_title"), T("quoted_y"), batch))
table([{T("col_row"): localized(s, "label"),
               **{f"B={m}": (f"{s.value_at(m):.2f}×" if s.value_at(m) is not None else "") for m in BATCHES}}
              for s in quoted])
st.caption(T("quoted_caption", kind_markdown_quoted=kind_markdown('quoted')))

# ---------- 4. measured: a serving engine on our H200, timing only ----------
TIMING = T("timing_dummy_weights")
st.subheader(T("serving_title", TIMING=TIMING))
got = wanted.read(panels.QUANT_TIMING_SWEEP)
if isinstance(got, str):
    st.error(plain(got, 500), icon=":material/error:")
trec = got if isinstance(got, Recording) else None
if trec is not None:
    curves = ts.quant_curves(trec)
    engine = trec.arms[0].engine.line
    kind_badge(trec.kind(), f"recordings/{Path(trec.path).name} · {TIMING} · {engine} · {trec.machine_line}")
    st.warning(T("serving_timing_note", TIMING=TIMING, engine=engine), icon=":material/timer:")
    fig = go.Figure()
    for c in curves:
        dash = "dash" if "AWQ" in c.label else "solid"
        fig.add_trace(go.Scatter(x=list(c.points), y=list(c.points.values()), mode="lines+markers",
                                 name=f"{c.label} · {T('timing_short')}", line=dict(color=COLOR[c.weight_format], dash=dash),
                                 text=[times(v) for v in c.points.values()],
                                 hovertemplate=T("serving_hover") + "<extra></extra>"))
    level(fig, 1.0, "BF16 = 1.0", "#444", "solid")
    log_x(fig, T("serving_chart_title", TIMING=TIMING),
          T("serving_y"), batch)
    fig.update_xaxes(title=T("serving_x"))
    plotly(fig)
    quoted_rows = [{T("col_row"): f"{kind_label('quoted')} · " + localized(s, "label"),
                    **{f"B={m}": (f"{s.value_at(m):.2f}×" if s.value_at(m) is not None else "") for m in BATCHES[:7]}}
                   for s in quoted]
    ours = [{T("col_row"): f"{kind_label(trec.kind())} · Qwen2.5-7B-shape · {c.label} · {TIMING}",
             **{f"B={m}": (f"{c.points[m]:.2f}×" if c.points.get(m) is not None else "") for m in BATCHES[:7]}}
            for c in curves]
    table(quoted_rows + ours)
    by = {c.arm: c for c in curves}

    fp8, gptq, awq = by.get("fp8"), by.get("w4a16-gptq"), by.get("w4a16-awq")
    n8, n70 = by_key["llama_3_1_8b_int4_awq_w4a16"], by_key["llama_3_1_70b_int4_awq_w4a16"]
    nf8, f70 = by_key["llama_3_1_8b_fp8_w8a8_plus_fp8_kv"], by_key["llama_3_1_70b_fp8_w8a8_plus_fp8_kv"]
    if fp8 and gptq and awq:
        with st.expander(T("agreement_expander")):
            st.markdown(T("agreement_text", gptq_points_1=gptq.points[1], gptq_points_64=gptq.points[64], awq_points_1=awq.points[1], awq_points_64=awq.points[64], n8_value_at_1=n8.value_at(1), n8_value_at_64=n8.value_at(64), n70_value_at_1=n70.value_at(1), n70_value_at_64=n70.value_at(64), min_v_for_v_in_fp8_point=min(v for v in fp8.points.values() if v is not None), max_v_for_v_in_fp8_point=max(v for v in fp8.points.values() if v is not None), n8_value_at_8=n8.value_at(8), n70_value_at_16=n70.value_at(16), min_gptq_points_32_or_0_=min(gptq.points[32] or 0.0, awq.points[32] or 0.0), nf8_value_at_1=nf8.value_at(1), nf8_value_at_64=nf8.value_at(64), f70_value_at_1=f70.value_at(1), f70_value_at_64=f70.value_at(64), fp8_points_1=fp8.points[1], fp8_points_64=fp8.points[64]))
    st.caption(T("serving_caption", kind_markdown_measured=kind_markdown(trec.kind()), TIMING=TIMING))

roofline_panel()  # 4-bit and fp8 ÷ bf16 at 27B-class on the H200 (issue #25)

# ---------- provenance ----------
if provenance := opened(T("provenance_expander"), "roofline_provenance_open"):
    with provenance:
        st.markdown(T("provenance_line", rl_MEASURED_FILE_name=rl.MEASURED_FILE.name, prov_gpu=prov['gpu'], prov_driver=prov['driver'], prov_torch=prov['torch'], prov_cuda=prov['cuda'], prov_date_utc=prov['date_utc'], prov_command=prov['command']))
        st.json({"provenance": prov, "ceilings": ceil, "checks": data["checks"], "kernel_names": data["kernel_names"]},
                expanded=False)
