"""Speedup against concurrency (or batch size): where each measured series first drops below 1.0."""

import streamlit as st

from specreplay import article_tables, axis_series, sweep_series
from specreplay.format import RecordingError, load
from specreplay.locations import recording_file
from specreplay.sweeps import PairRow, pair_rows
from specreplay.views.live_chart import live_chart, slider
from specreplay.views.ui import kind_badge, kind_label, kind_markdown, lang, page_intro, tr

LEVELS = [1, 2, 4, 8, 16, 32, 64]
COLORS = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6", "#9d755d"]


def name(s: axis_series.Series) -> str:
    return s.label_en if lang() == "en" else s.label


def crossing(s: axis_series.Series) -> str:
    at = axis_series.first_below(s.points)
    unit = tr("동시", "concurrency") if s.axis == "concurrency" else tr("배치", "batch")
    if at is None:
        top = max((x for x, _ in s.measured()), default=None)
        if top is None:
            return tr("비교할 수 있는 수준 없음 (아래 제외 목록)", "no like-for-like level (see the excluded list)")
        return tr(f"{unit} {top}까지 1.0 아래로 내려가지 않음", f"not below 1.0 up to {unit} {top}")
    return tr(f"{unit} {at}에서 처음 1.0 아래 ({s.value_at(at):g}×)", f"first below 1.0 at {unit} {at} ({s.value_at(at):g}×)")


def lines(s: axis_series.Series, color: str) -> list[dict]:
    """Measured points joined only where neighbouring table cells are both measured (None breaks the line); a
    thin dotted line, marked interpolated, bridges an unmeasured cell."""
    hover = f"{kind_label(s.kind)} · {s.provenance()}"
    out = [{"name": name(s), "color": color, "markers": True, "unit": "×", "hover": hover, "points": list(s.points)}]
    for (x0, x1), (y0, y1), bridges in axis_series.segments(s.points):
        if bridges:
            out.append({"name": name(s) + tr(" (보간)", " (interpolated)"), "color": color, "dash": "dot", "width": 1,
                        "legend": False, "interpolated": True, "points": [[x0, y0], [x1, y1]]})
    return out


page_intro(tr("동시 접속과 배수", "Concurrency vs speedup"), tr(
    "추측 디코딩은 GPU가 메모리를 기다리며 노는 연산을 검증에 씁니다. 동시 요청이 늘어 그 여유가 사라지면 "
    "배수는 1.0 아래로 내려갑니다. 아래 점은 모두 기사에 실린 측정값이고, 측정하지 않은 칸은 비워 둡니다.",
    "Speculative decoding spends compute the GPU leaves idle while it waits on memory. As concurrent requests "
    "fill that slack, the speedup falls below 1.0. Every point below is a measurement printed in an article or "
    "recorded here with the recorder; cells nobody measured stay empty."))


@st.cache_data(show_spinner=False, max_entries=8)
def recorded_rows(path: str, mtime_ns: int) -> list[PairRow] | str:
    """The paired levels of one sweep recording (cached on its path and mtime), or why it could not be read."""
    try:
        return pair_rows(load(path))
    except (RecordingError, OSError) as e:
        return str(e)


def level_table(files: list[str]) -> list[dict]:
    """One row per recorded (speculative arm, mix, level): both speedups, acceptance, text check, badge and file."""
    rows = []
    for name in files:
        path = recording_file(name)
        got = recorded_rows(str(path), path.stat().st_mtime_ns) if path.exists() else []
        for r in got if isinstance(got, list) else []:
            s = r.stats
            if not r.checkable:
                text = tr("텍스트 확인 불가 (샘플링)", "text not checkable (sampled)")
            else:
                b = r.base
                text = tr(f"greedy {s.greedy_matches}/{s.greedy_runs}이 기준 팔과 같음",
                          f"greedy {s.greedy_matches}/{s.greedy_runs} = baseline")
                if s.greedy_own:
                    text += tr(f", {s.greedy_own}은 자기 단일 스트림 글과 같음",
                               f", {s.greedy_own} = its own single-stream text")
                if s.greedy_diverged or b.greedy_diverged:
                    text += tr(f", 배치로 바뀜 {s.greedy_diverged} (기준 팔 {b.greedy_diverged}/{b.greedy_runs})",
                               f", changed by batching {s.greedy_diverged} (baseline {b.greedy_diverged}/"
                               f"{b.greedy_runs})")
            kind = kind_label("measured") + ("" if r.like_for_like else tr(", 제외: 같은 조건 아님",
                                                                            ", excluded: not like-for-like"))
            rows.append({tr("팔", "arms"): f"{r.speedup.arm} ÷ {r.speedup.baseline}", tr("믹스", "mix"): r.speedup.mix or "—", tr("동시", "concurrency"): r.speedup.concurrency,
                         tr("요청당 디코드 배수", "per-request decode"): _x(r.speedup.decode),
                         tr("시스템 처리량 배수", "system throughput"): _x(r.speedup.throughput),
                         tr("수락 길이", "acceptance length"): f"{s.acceptance_length:.2f}" if s.acceptance_length else "—",
                         tr("텍스트", "text"): text,
                         tr("호스트 CPU (시작 전)", "host CPU before"): f"{s.host_busy:.0%}" if s.host_busy is not None else "—",
                         tr("종류", "kind"): kind, tr("파일", "file"): name})
    return rows


def _x(v: float | None) -> str:
    return f"{v:.2f}×" if v is not None else "—"


@st.fragment
def explorer() -> None:
    """Controls, chart and readouts: a fragment, so a slider move reruns only this part, not the app shell."""
    SPEC = tr("추측 디코딩: 켬 ÷ 끔", "Speculative decoding: on ÷ off")
    QUANT = tr("4비트·FP8 ÷ BF16 (H200)", "4-bit / FP8 ÷ BF16 (H200)")
    spec_family = st.radio(tr("무엇의 배수인가", "Which multiplier"), [SPEC, QUANT], horizontal=True, key="family") == SPEC
    level_label = tr("동시 접속 수 (로그 눈금)", "Concurrency (log scale)")
    level = st.select_slider(level_label, LEVELS, value=8, key="level")

    if spec_family:
        recorded, problems, excluded = sweep_series.recorded_sweeps()
        shown = axis_series.series("concurrency_speedup", "speedup") + axis_series.series("batch_speedup", "speedup") + recorded
    else:
        recorded, problems, excluded = [], [], []
        shown = [s for s in axis_series.series("h200_relative_throughput", "relative_throughput")
                 if "BF16" not in s.label]  # the BF16 rows are the 1.00 baseline itself

    values = [y for s in shown for _, y in s.measured()]
    live_chart({
        "title": tr("동시 접속에 따른 배수", "Speedup against concurrency"), "height": 430, "series": [ln for i, s in enumerate(shown) for ln in lines(s, COLORS[i % len(COLORS)])],
        "x": {"title": tr("동시 접속 수 (001) · 배치 크기 (002·004)", "concurrency (001) · batch size (002, 004)"),
              "log": True, "ticks": [1, 2, 4, 8, 16, 24, 32, 48, 64, 100]},
        "y": {"title": "×", "range": [0, max(values + [1.0]) * 1.08]},
        "hlines": [{"y": 1, "color": "black", "label": tr("1.0 = 이득 없음", "1.0 = no gain")}],
        "current_label": tr("선택: {level}", "selected: {level}"),
        "live": {"model": "level", "values": {"level": level}, "sliders": {"level": slider(level_label, LEVELS)}}},
        key="concurrency_chart")
    st.caption(f"{kind_markdown('measured')} / {kind_markdown('quoted')} " + tr(
        "점은 측정값, 실선은 이웃한 측정 칸 사이, 점선은 측정하지 않은 칸을 건너뛴 보간입니다. 계열마다 서빙 설정"
        "(하드웨어·모델·엔진·배치 설정)이 달라 계열 간 절댓값은 비교하지 않습니다. 001은 동시 접속 수, 002·004는 배치 크기입니다.",
        "Dots are measurements; solid lines join neighbouring measured cells, dotted lines skip an unmeasured cell "
        "(interpolated). The series come from different serving setups (hardware, model, engine, batching), so do not "
        "compare them in absolute terms. 001 is concurrency; 002 and 004 are batch size."))

    st.subheader(tr(f"{level}에서 읽은 값과 1.0 교차점", f"Read at {level}, and where each crosses 1.0"))
    rows = []
    for s in shown:
        v = s.value_at(level)
        rows.append({tr("계열", "series"): name(s), tr("종류", "kind"): kind_label(s.kind),
                     tr(f"{level}에서", f"at {level}"): f"{v:g}×" if v is not None else tr("미측정", "not measured"),
                     tr("1.0 아래로", "below 1.0"): crossing(s), tr("출처", "source"): s.provenance()})
    st.dataframe(rows, hide_index=True, key="readout")
    for s in shown:
        st.markdown(f"- **{name(s)}** — {crossing(s)}")

    if spec_family:
        st.subheader(tr("녹화한 동시성 스윕", "Recorded concurrency sweeps"))
        kind_badge("measured", tr("recordings/ 의 스윕 녹화", "sweep recordings in recordings/"))
        if recorded:
            st.caption(tr("위 차트에 함께 그렸습니다: 프롬프트 믹스마다 두 계열, 추측 팔 ÷ 기준 팔 — 시스템 처리량(tok/s) 비와 "
                          "요청당 디코드 속도(중앙값) 비. 한 수준의 요청은 모두 같은 믹스입니다(greedy끼리, 샘플링끼리). "
                          "샘플링 믹스는 텍스트를 확인할 수 없어 토큰 수와 수락 길이로만 비교합니다. 출처: ",
                          "Drawn in the chart above: two series per prompt mix, speculative arm ÷ baseline arm — the "
                          "system throughput (tok/s) ratio and the per-request decode (median tok/s) ratio. Every "
                          "request of a level is from one mix (greedy with greedy, sampled with sampled). Sampled "
                          "mixes' text cannot be checked; they are compared by token counts and acceptance length. "
                          "Provenance: ") + "; ".join(sorted({s.provenance() for s in recorded})))
            st.dataframe(level_table(sorted({s.source for s in recorded})), hide_index=True, key="recorded_levels")
        else:
            st.info(tr("아직 녹화된 동시성 스윕이 없습니다. recorder로 동시성 스윕을 녹화해 recordings/ 에 두면 "
                       "같은 차트에 실측 계열로 나타납니다.",
                       "No recorded concurrency sweep yet. Record one with the recorder into recordings/ and it appears "
                       "in the same chart as a measured series."))
        if excluded:
            st.warning(tr(
                "실측, 제외: 같은 조건 아님. 같은 일을 한 칸만 비교합니다. 아래 수준에서는 배치가 추측 팔의 greedy "
                "출력을 기준 팔보다 더 자주 바꿨으므로(예: vLLM CPU 0.32.0은 greedy 요청을 샘플링 요청과 함께 배치하면 "
                "greedy 출력이 깨짐, docs/recorder.md) 차트에 그리지 않았습니다. 측정값은 그대로 적습니다:",
                "Measured, excluded: not like-for-like. Only cells where both arms did the same work are compared. "
                "At these levels batching changed the speculative arm's greedy output more often than the "
                "baseline's (e.g. vLLM CPU 0.32.0 garbles a greedy request batched with sampled ones, see "
                "docs/recorder.md), so they are not drawn; their measured "
                "values are:") + "\n" + "\n".join(f"- {e}" for e in excluded))
        for p in problems:
            st.warning(tr("읽지 못한 녹화: ", "Recording skipped: ") + p)


explorer()

with st.expander(tr("같은 축의 다른 측정값", "More measurements along this axis")):
    base, drafted = (article_tables.cell("collapse_64", s, "throughput") for s in ("기준선", "드래프터 켬"))
    copy, prose = (article_tables.cell("copy_vs_prose", s, "speedup") for s in ("복사형", "자유 서술"))
    st.markdown(kind_markdown("measured") + " " + tr(
        f"기사 001: 프로덕션 체크포인트를 동시 64명으로 밀면 기준선 {base.value:,.0f} tok/s, 드래프터를 켜면 "
        f"{drafted.value:,.0f} tok/s. 같은 조건 동시 8명에서 복사형은 {copy.value:g}×, 자유 서술은 {prose.value:g}×.",
        f"Article 001: the production checkpoint at 64 concurrent users does {base.value:,.0f} tok/s, "
        f"{drafted.value:,.0f} tok/s with the drafter on. At 8 concurrent users copy-style prompts keep "
        f"{copy.value:g}×, free prose drops to {prose.value:g}×."))
    h100 = article_tables.table_cells("h100_concurrency")
    levels = sorted({c.level for c in h100 if c.level is not None})
    val = {(c.level, c.metric): c.value for c in h100}
    st.dataframe([{tr("동시 요청", "concurrent requests"): lv,
                   tr("총 처리량 (tok/s)", "total throughput (tok/s)"): val[(lv, "throughput")],
                   tr("TTFT p50 (ms)", "TTFT p50 (ms)"): val[(lv, "ttft_p50")]} for lv in levels], hide_index=True)
    st.caption(kind_markdown("quoted") + " " + tr(
        "배치를 키우면 처리량은 늘지만 요청마다 첫 토큰이 늦어집니다. ",
        "Batching more raises total throughput but delays every request's first token. ") +
        f"{h100[0].source} · {h100[0].section} · {h100[0].conditions['hardware']} · {h100[0].conditions['model']}")
