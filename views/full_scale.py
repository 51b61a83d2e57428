"""The 27B-class H200 recordings on three pages (issue #25): one panel each for the ladder, concurrency and
roofline pages, called at the end of the page. Numbers come from specreplay.full_scale; a drafter arm's
acceptance was set to an article's figure, so its numbers are badged "measured timing, quoted acceptance"."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from specreplay import article_tables
from specreplay import full_scale as fs
from specreplay.format import Recording
from specreplay.views.ui import FORMAT_COLOR, kind_badge, kind_markdown, lang, plain, source_line, times, tr

TIMING = ("타이밍 전용 — 더미 가중치", "timing only — dummy weights")
LEVELS_SHOWN = (2.2, 2.5, 3.1, 5.3, 5.6)  # the articles' figures; the chart keeps to six series with 1.0


def _get(name: str) -> Recording | None:
    got = fs.read(name)
    if isinstance(got, str):
        st.warning(plain(got, 500), icon=":material/warning:")
        return None
    if got is None:
        st.info(tr(f"`recordings/{name}`이 없습니다 (docs/gpu.md).", f"`recordings/{name}` is not here (docs/gpu.md)."))
    return got


def _badges(name: str, rec: Recording) -> None:
    kind_badge("measured", f"recordings/{name} · {tr(*TIMING)} · vLLM 0.23.0 · {rec.machine_line}")
    st.caption(f"{kind_markdown('measured')} {kind_markdown('quoted')} **{tr(*fs.BADGE)}**: "
               + tr("속도는 우리 recorder가 H200에서 잰 값, 수용 길이는 기사의 수치를 vLLM의 합성 거절 샘플링으로 "
                    "정한 값입니다(드래프터 자신의 수용이 아님). ",
                    "the speed is what our recorder measured on the H200; the acceptance length is an article's figure, "
                    "set with vLLM's synthetic rejection sampling (not the drafter's own). ") + tr(*fs.SHAPE_NOTE))


def ladder_panel() -> None:
    st.subheader(tr("H200 · 27B급 · 우리 엔진의 계단, 기사의 수용 길이에서 (타이밍 전용)",
                    "H200 · 27B-class · our engine's ladder at the articles' acceptance (timing only)"))
    rec = _get(fs.LADDER)
    if rec is None:
        return
    _badges(fs.LADDER, rec)
    rows = []
    for q in fs.quoted_ladders(rec):
        bf16, w4, drafted = q.ladder.steps
        rows.append({tr("기사 행", "article row"): f"{q.source[:3]} · {q.label if lang() == 'en' else q.label_ko}",
                     tr("정한 수용 길이", "set acceptance"): f"{q.ladder.acceptance:g}",
                     tr("기록된 수용 길이", "recorded acceptance"): f"{q.ladder.measured_acceptance:.2f}"
                     if q.ladder.measured_acceptance else "—",
                     "bf16 tok/s": round(bf16.rate or 0, 1),
                     tr("4비트 tok/s", "4-bit tok/s"): round(w4.rate or 0, 1), tr("×4비트", "×4-bit"): times(w4.vs_previous),
                     tr("+ 드래프터 tok/s", "+ drafter tok/s"): round(drafted.rate or 0, 1),
                     tr("×드래프터", "×drafter"): times(drafted.vs_previous), tr("곱", "product"): times(q.ladder.product),
                     tr("c (드래프트 비용, 계산)", "c (draft cost, computed)"): f"{fs.draft_cost(q.ladder):.2f}"
                     if fs.draft_cost(q.ladder) is not None else "—"})
    st.dataframe(rows, hide_index=True)
    article = [c.value for c in article_tables.table_cells("ladder_overall", "decode_rate")]
    st.caption(tr(
        f"기사 000(B200, NVFP4, 드래프터 자신의 수용): {' → '.join(f'{v:g}' for v in article if v)} tok/s. 요청 하나씩, 디코드 "
        "tok/s(첫 토큰 제외) 3회 중앙값, 256토큰 강제. 우리 4비트는 가중치만 4비트(W4A16, Marlin)이고 어휘가 작아 "
        "lm_head가 가볍습니다(docs/gpu.md). c = 드래프터가 있는 스텝 ÷ 없는 스텝 − 1(속도와 기록된 수용 길이로 계산); "
        "×드래프터 = 수용 길이 ÷ (1 + c).",
        f"Article 000 (B200, NVFP4, the drafter's own acceptance): {' → '.join(f'{v:g}' for v in article if v)} tok/s. "
        "One request at a time, decode tok/s (first token excluded), median of 3, 256 forced tokens. Our 4-bit is "
        "weight-only (W4A16, Marlin) with a smaller vocabulary, so a lighter lm_head (docs/gpu.md). c = a step with "
        "the drafter ÷ a step without − 1, from the rates and the recorded acceptance; ×drafter = acceptance ÷ "
        "(1 + c)."))
    pair = _get(fs.DRAFTER)
    if pair is None:
        return
    cells = {c.key: c for c in article_tables.table_cells("quant_vs_drafter", "decode_rate")}
    rows = []
    for length in LEVELS_SHOWN:
        off, on = fs.pair_rates(pair, length)
        steps = fs.ladder(rec, length)
        rows.append({tr("정한 수용 길이", "set acceptance"): f"{length:g}",
                     tr("bf16 → + 드래프터", "bf16 → + drafter"): f"{off:.1f} → {on:.1f} ({times(on / off)})"
                     if off and on else "—",
                     tr("4비트 → + 드래프터", "4-bit → + drafter"):
                     f"{steps.steps[1].rate:.1f} → {steps.steps[2].rate:.1f} ({times(steps.steps[2].vs_previous)})"
                     if steps and steps.steps[1].rate and steps.steps[2].rate else "—"})
    st.dataframe(rows, hide_index=True)
    b0, b1, q0, q1 = (cells[k].value for k in ("bf16_no_drafter", "bf16_drafter", "4_bit_no_drafter", "4_bit_drafter"))
    st.caption(tr(f"기사 001(B200): bf16 {b0:g} → {b1:g}, 4비트 {q0:g} → {q1:g} tok/s — 드래프터의 이득은 bf16 위에서 더 큽니다. ",
                  f"Article 001 (B200): bf16 {b0:g} → {b1:g}, 4-bit {q0:g} → {q1:g} tok/s — the drafter gains more on "
                  "bf16. ") + source_line(cells["bf16_drafter"]))


def concurrency_panel() -> None:
    st.subheader(tr("H200 · 27B급 · 드래프터 켬 ÷ 끔, 1–64 스트림 (타이밍 전용)",
                    "H200 · 27B-class · drafter on ÷ off at 1–64 streams (timing only)"))
    rec = _get(fs.LADDER_SWEEP)
    if rec is None:
        return
    _badges(fs.LADDER_SWEEP, rec)
    curves = [c for c in fs.drafter_curves(rec, "w4") if c.acceptance in LEVELS_SHOWN]
    fig = go.Figure()
    for c in curves:
        fig.add_trace(go.Scatter(x=list(c.throughput), y=list(c.throughput.values()), mode="lines+markers",
                                 name=tr(f"4비트 + 드래프터 · 수용 {c.acceptance:g}", f"4-bit + drafter · L {c.acceptance:g}"),
                                 hovertemplate=tr("동시 %{x}: %{y:.2f}×", "%{x} streams: %{y:.2f}×") + "<extra></extra>"))
    fig.add_hline(y=1.0, line={"color": "#444", "dash": "dot"}, annotation_text=tr("드래프터 끔 = 1.0", "drafter off = 1.0"))
    fig.update_layout(title=tr("드래프터를 켜면 시스템 처리량이 몇 배인가? (27B급, 4비트 대상)",
                               "How many times the system throughput with the drafter on? (27B-class, 4-bit target)"),
                      height=400, margin={"l": 10, "r": 10, "t": 50, "b": 10}, legend={"orientation": "h", "y": -0.25},
                      xaxis={"title": tr("동시 스트림 수 (로그 눈금)", "concurrent streams (log scale)"), "type": "log"},
                      yaxis={"title": tr("켬 ÷ 끔", "on ÷ off"), "rangemode": "tozero"})
    st.plotly_chart(fig, key="full_scale_drafter")
    st.markdown("\n".join(
        "- " + (tr(f"수용 {c.acceptance:g}: 동시 {c.crossing}부터 1.0 아래", f"L {c.acceptance:g}: below 1.0 from "
                   f"{c.crossing} streams on") if c.crossing else
                tr(f"수용 {c.acceptance:g}: 64까지 이득 ({times(c.throughput[max(c.throughput)])} at 64)",
                   f"L {c.acceptance:g}: pays up to 64 ({times(c.throughput[max(c.throughput)])} at 64)"))
        for c in curves))
    bf16 = fs.read(fs.DRAFTER_SWEEP)
    if isinstance(bf16, Recording):
        where = {c.acceptance: c.crossing for c in fs.drafter_curves(bf16, "bf16") if c.acceptance in LEVELS_SHOWN}
        st.caption(tr("같은 드래프터를 bf16 대상에 붙이면(같은 H200, recordings/" + fs.DRAFTER_SWEEP + "): ",
                      "The same drafter on the bf16 target (same H200, recordings/" + fs.DRAFTER_SWEEP + "): ")
                   + " · ".join(f"L {L:g}: " + (tr(f"{x}부터 1.0 아래", f"below 1.0 from {x}") if x else
                                                 tr("64까지 이득", "pays up to 64")) for L, x in where.items())
                   + tr(" — 4비트 대상이 더 일찍 손해로 넘어갑니다(드래프터 비용이 더 짧은 스텝에 더해짐).",
                        " — the 4-bit target turns a loss sooner (the drafter's cost is added to a shorter step)."))
    grid = fs.drafter_curves(rec, "w4")
    levels = sorted({lv for c in grid for lv in c.throughput})
    z = [[c.throughput.get(lv) for lv in levels] for c in grid]
    heat = go.Figure(go.Heatmap(x=[str(lv) for lv in levels], y=[f"{c.acceptance:g}" for c in grid], z=z, zmid=1.0,
                                colorscale="RdBu", texttemplate="%{z:.2f}×",
                                colorbar={"title": tr("켬 ÷ 끔", "on ÷ off")}))
    heat.update_layout(title=tr("손익분기 지도: 정한 수용 길이 × 동시 스트림 (27B급, 4비트 대상)",
                                "Break-even map: set acceptance length × streams (27B-class, 4-bit target)"),
                       height=420, margin={"l": 10, "r": 10, "t": 50, "b": 10},
                       xaxis={"title": tr("동시 스트림 수", "concurrent streams")},
                       yaxis={"title": tr("정한 수용 길이", "set acceptance length")})
    st.plotly_chart(heat, key="full_scale_breakeven")
    edge = fs.break_even(rec, "w4")
    st.caption(tr("드래프터가 이득이 되기 시작하는 수용 길이(측정한 길이 사이를 읽음): ",
                  "The acceptance length from which the drafter pays (read between measured lengths): ")
               + " · ".join(f"{lv}: {v:.2f}" if v else f"{lv}: —" for lv, v in edge.items())
               + tr(". 시스템 처리량 = 단계의 모든 출력 토큰 ÷ (첫 요청 → 마지막 청크), 요청당 64토큰. 수용 1.5의 2스트림 "
                    "값은 vLLM이 새 배치 모양의 Triton 커널을 컴파일한 한 번의 정지입니다(docs/gpu.md).",
                    ". System throughput = all of a level's output tokens ÷ (first request → last chunk), 64 tokens a "
                    "request. L 1.5 at 2 streams is a one-off stall while vLLM compiled a Triton kernel for a new batch "
                    "shape (docs/gpu.md)."))


def roofline_panel() -> None:
    st.subheader(tr("5. 27B급 서빙: vLLM · H200 · 타이밍 전용", "5. 27B-class serving: vLLM · H200 · timing only"))
    rec = _get(fs.LADDER_SWEEP)
    if rec is None:
        return
    kind_badge("measured", f"recordings/{fs.LADDER_SWEEP} · {tr(*TIMING)} · vLLM 0.23.0 · {rec.machine_line}")
    fig = go.Figure()
    for arm, fmt_name, label in (("w4", "int4", tr("4비트 GPTQ → Marlin", "4-bit GPTQ → Marlin")),
                                 ("fp8", "fp8", "fp8 (W8A8)")):
        curve = fs.quant_curve(rec, arm)
        fig.add_trace(go.Scatter(x=list(curve), y=list(curve.values()), mode="lines+markers", name=f"27B · {label}",
                                 line={"color": FORMAT_COLOR[fmt_name]},
                                 hovertemplate=tr("동시 %{x}: %{y:.2f}×", "%{x} streams: %{y:.2f}×") + "<extra></extra>"))
    fig.add_hline(y=1.0, line={"color": "#444"}, annotation_text="BF16 = 1.0")
    fig.update_layout(title=tr("27B급에서 4비트와 fp8은 bf16보다 몇 배인가? (시스템 처리량)",
                               "How many times bf16 are 4-bit and fp8 at 27B-class? (system throughput)"),
                      height=380, margin={"l": 10, "r": 10, "t": 50, "b": 10}, legend={"orientation": "h", "y": -0.25},
                      xaxis={"title": tr("동시 스트림 수 (로그 눈금)", "concurrent streams (log scale)"), "type": "log"},
                      yaxis={"title": tr("BF16 대비", "÷ BF16"), "rangemode": "tozero"})
    st.plotly_chart(fig, key="full_scale_quant")
    w4 = fs.quant_curve(rec, "w4")
    low, top = min(v for lv, v in w4.items() if lv <= 16 and v), w4[max(w4)]
    st.caption(tr(f"{kind_markdown('measured')} 가중치 읽기가 스텝의 대부분인 27B급에서 4비트는 동시 1–16에서 "
                  f"{times(low)} 이상, 64에서 {times(top)}입니다. " + fs.SHAPE_NOTE[0],
                  f"{kind_markdown('measured')} At 27B-class, where reading weights is most of a step, 4-bit gives at "
                  f"least {times(low)} at 1–16 streams and {times(top)} at 64. " + fs.SHAPE_NOTE[1]))
