"""Speedup against concurrency (or batch size): where each measured series first drops below 1.0."""

import streamlit as st

from specreplay import article_tables, axis_series, sweep_series
from specreplay.format import RecordingError, load
from specreplay.locations import recording_file
from specreplay.sweeps import PairRow, pair_rows
from specreplay.views.full_scale import concurrency_panel
from specreplay.views.live_chart import live_chart, slider
from specreplay.views.ui import (FORMAT_COLOR, kind_badge, kind_label, kind_markdown, lang, page_intro, source_line,
                                 times, tr)

LEVELS = [1, 2, 4, 8, 16, 32, 64]
COLORS = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6", "#9d755d"]
GAP_GRAY = "#888888"
# Row names of 001's tables (assets/articles_measured.csv `series`): data keys, named once; shown through label_en.
COLLAPSE_ROWS = ("기준선", "드래프터 켬")
COPY_PROSE_ROWS = ("복사형", "자유 서술")


def name(s: axis_series.Series) -> str:
    return s.label_en if lang() == "en" else s.label


def axis_grid(shown: list[axis_series.Series]) -> list[int]:
    """Every level on the chart's axis: the slider's and every shown series' (measured or not). A series' line
    is solid only between levels with none of these in between that it did not measure."""
    return sorted(set(LEVELS) | {x for s in shown for x, _ in s.points})


def levels_text(levels: tuple[int, ...] | list[int]) -> str:
    return ", ".join(str(lv) for lv in levels)


def between(s: axis_series.Series, a: int, b: int) -> str:
    """'between 4 and 8 streams' / 'between batch 4 and 8'."""
    if s.axis == "concurrency":
        return tr(f"동시 {a}–{b} 사이", f"between {a} and {b} streams")
    return tr(f"배치 {a}–{b} 사이", f"between batch {a} and {b}")


def at_level(s: axis_series.Series, level: int) -> str:
    if s.axis == "concurrency":
        return tr(f"동시 {level}", f"{level} stream" + ("" if level == 1 else "s"))
    return tr(f"배치 {level}", f"batch {level}")


def excluded_note(s: axis_series.Series) -> str:
    """The levels measured but left out (not like-for-like), with their values: said wherever the series is read."""
    if not s.excluded:
        return ""
    got = ", ".join(f"{at_level(s, lv)} {times(v)}" for lv, v in s.excluded)
    return tr(f"; 실측, 제외: 같은 조건 아님 — {got}", f"; measured, excluded: not like-for-like — {got}")


def crossing(s: axis_series.Series, grid: list[int]) -> str:
    """Where the series crosses 1.0, from measured points only: between two measured levels, never interpolated."""
    c = axis_series.crossing(s.points, grid)
    if c is None:
        top = max((x for x, _ in s.measured()), default=None)
        if top is None:
            return tr("비교할 수 있는 수준 없음", "no like-for-like level") + excluded_note(s)
        if len(s.measured()) == 1:
            return tr(f"한 점뿐: {at_level(s, top)}에서 {times(s.value_at(top))}",
                      f"one point only: {times(s.value_at(top))} at {at_level(s, top)}") + excluded_note(s)
        which = tr("같은 조건인 측정 수준", "like-for-like measured levels") if s.excluded else \
            tr("측정한 수준", "measured levels")
        return tr(f"{which}에서는 1.0 아래로 내려가지 않음 ({at_level(s, top)}까지)",
                  f"not below 1.0 at its {which} (up to {at_level(s, top)})") + excluded_note(s)
    if len(s.measured()) == 1:
        return tr(f"한 점뿐: {at_level(s, c.below)}에서 {times(c.value)}", f"one point only: {times(c.value)} at "
                  f"{at_level(s, c.below)}") + excluded_note(s)
    if c.above is None:
        return tr(f"첫 측정 수준 {at_level(s, c.below)}에서 이미 1.0 아래 ({times(c.value)})",
                  f"already below 1.0 at its first measured level, {at_level(s, c.below)} ({times(c.value)})") + \
            excluded_note(s)
    text = tr(f"{between(s, c.above, c.below)}에서 1.0 아래로 ({times(c.above_value)} → {times(c.value)})",
              f"falls below 1.0 {between(s, c.above, c.below)} ({times(c.above_value)} → {times(c.value)})")
    if c.unmeasured:
        text += tr(f"; 그 사이({levels_text(c.unmeasured)})는 재지 않아 어디서 내려가는지 모름",
                   f"; {levels_text(c.unmeasured)} in between not measured, so where is unknown")
    return text + excluded_note(s)


def reading(s: axis_series.Series, level: int) -> str:
    """The series at one level: its value; measured but excluded; an empty cell; or a level its source lacks."""
    v = s.value_at(level)
    if v is not None:
        return times(v)
    excluded, value = s.excluded_at(level)
    if excluded:
        return tr(f"실측, 제외: 같은 조건 아님 ({times(value)})", f"measured, excluded: not like-for-like ({times(value)})")
    if s.kind == "quoted" and level not in dict(s.points):
        return tr(f"{s.source[:3]}에 인용되지 않음", f"not quoted in {s.source[:3]}")
    return tr("미측정", "not measured")


def lines(s: axis_series.Series, color: str, grid: list[int], dash: str = "solid") -> list[dict]:
    """The series as the live chart draws it: solid only between consecutive measured levels with no level of the
    axis in between that it did not measure (the line breaks there); a thin dotted piece, labelled, bridges
    each such gap; levels measured but excluded are hollow dots, not joined."""
    hover = f"{kind_label(s.kind)} · {source_line(s, markdown=False)}"
    pieces = axis_series.segments(s.points, grid)
    gaps = {lv for _, _, skipped in pieces for lv in skipped}
    points = sorted([*s.points, *((lv, None) for lv in gaps if lv not in dict(s.points))])
    out = [{"name": name(s), "color": color, "markers": True, "unit": "×", "hover": hover, "dash": dash,
            "points": [[x, y] for x, y in points]}]
    for (x0, x1), (y0, y1), skipped in pieces:
        if skipped:
            note = tr(f"{x0}–{x1} 사이 미측정 ({levels_text(skipped)})",
                      f"not measured between {x0} and {x1} ({levels_text(skipped)})")
            out.append({"name": f"{name(s)} · {note}", "color": color, "dash": "dot", "width": 1, "legend": False,
                        "unmeasured": list(skipped), "hover": note, "points": [[x0, y0], [x1, y1]]})
    if s.excluded:
        note = tr("실측, 제외: 같은 조건 아님", "measured, excluded: not like-for-like")
        out.append({"name": f"{name(s)} · {note}", "color": color, "markers": True, "hollow": True, "line": False,
                    "legend": False, "unit": "×", "hover": note,
                    "points": [[x, y] for x, y in s.excluded if y is not None]})
    return out


def quant_style(s: axis_series.Series) -> tuple[str, str]:
    """002's H200 rows in the roofline page's colours: the format's colour, 70B solid, 8B dashed."""
    fmt = "int4" if "INT4" in s.label else "fp8"
    return FORMAT_COLOR[fmt], "solid" if "70B" in s.label else "dash"


page_intro(tr("동시 접속과 배수", "Concurrency vs speedup"), tr(
    "추측 디코딩은 GPU가 메모리를 기다리며 노는 연산을 검증에 씁니다. 동시 요청이 늘어 그 여유가 사라지면 "
    "배수는 1.0 아래로 내려갑니다. 점은 측정값입니다: 기사의 저자가 잰 값, 기사가 인용한 다른 곳의 측정값(인용), "
    "여기서 recorder로 녹화한 스윕이며, 각각 출처를 적었습니다. 측정하지 않은 칸은 비워 두고, 그 칸을 건너는 선은 점선입니다.",
    "Speculative decoding spends compute the GPU leaves idle while it waits on memory. As concurrent requests "
    "fill that slack, the speedup falls below 1.0. Points are measurements: the articles' own, other people's "
    "that the articles quote (badged quoted), and sweeps recorded here with the recorder, each with its source. "
    "Cells nobody measured stay empty, and a line across them is dotted."))


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
    families = {"spec": tr("추측 디코딩: 켬 ÷ 끔", "Speculative decoding: on ÷ off"),
                "quant": tr("4비트·FP8 ÷ BF16 (H200)", "4-bit / FP8 ÷ BF16 (H200)")}
    spec_family = st.radio(tr("무엇의 배수인가", "Which multiplier"), list(families), format_func=families.get,
                           horizontal=True, key="family") == "spec"
    level_label = tr("동시 접속 수 (로그 눈금)", "Concurrency (log scale)")
    level = st.select_slider(level_label, LEVELS, value=8, key="level")

    if spec_family:
        recorded, problems, excluded = sweep_series.recorded_sweeps()
        shown = axis_series.series("concurrency_speedup", "speedup") + axis_series.series("batch_speedup", "speedup") + recorded
        styles = [(COLORS[i % len(COLORS)], "solid") for i in range(len(shown))]
        title = tr("동시 접속·배치에 따른 추측 디코딩 배수", "Speculative decoding speedup against concurrency or batch")
        x_title = tr("동시 접속 수 (001, 녹화) · 배치 크기 (004)", "concurrency (001, recordings) · batch size (004)")
        y_title = tr("켬 ÷ 끔", "on ÷ off")
    else:
        recorded, problems, excluded = [], [], []
        shown = [s for s in axis_series.series("h200_relative_throughput", "relative_throughput")
                 if "BF16" not in s.label]  # the BF16 rows are the 1.00 baseline itself
        styles = [quant_style(s) for s in shown]
        title = tr("배치 크기별 처리량 ÷ BF16 (002, NVIDIA H200)", "Throughput ÷ BF16 by batch size (002, NVIDIA H200)")
        x_title = tr("배치 크기", "batch size")
        y_title = tr("처리량 ÷ BF16", "throughput ÷ BF16")

    grid = axis_grid(shown)
    values = [y for s in shown for _, y in [*s.measured(), *s.excluded] if y is not None]
    series = [ln for s, (color, dash) in zip(shown, styles) for ln in lines(s, color, grid, dash)]
    if any(ln.get("unmeasured") for ln in series):
        series.append({"name": tr("점선: 그 사이 미측정 (측정값 아님)", "dotted: not measured in between (not data)"),
                       "color": GAP_GRAY, "dash": "dot", "points": []})
    if any(ln.get("hollow") for ln in series):
        series.append({"name": tr("빈 점: 실측, 제외 (같은 조건 아님)", "hollow dot: measured, excluded (not like-for-like)"),
                       "color": GAP_GRAY, "dash": "solid", "points": []})
    live_chart({
        "title": title, "height": 430, "series": series,
        "x": {"title": x_title, "log": True, "ticks": [1, 2, 4, 8, 16, 24, 32, 48, 64, 100]},
        "y": {"title": y_title, "range": [0, max(values + [1.0]) * 1.08]},
        "hlines": [{"y": 1, "color": "black", "label": tr("1.0 = 이득 없음", "1.0 = no gain")}],
        "current_label": tr("선택: {level}", "selected: {level}"),
        "live": {"model": "level", "values": {"level": level}, "sliders": {"level": slider(level_label, LEVELS)}}},
        key="concurrency_chart")
    st.caption(f"{kind_markdown('measured')} / {kind_markdown('quoted')} " + tr(
        "점은 측정값, 실선은 그 계열이 잰 이웃 수준 사이입니다. 계열이 재지 않은 수준(이 축의 다른 계열이 잰 수준 포함)을 "
        "건너는 구간은 가는 점선이고, 그 구간의 값은 모릅니다. 계열마다 서빙 설정(하드웨어·모델·엔진·배치 설정)이 달라 계열 간 "
        "절댓값은 비교하지 않습니다. 001과 녹화는 동시 접속 수, 002·004는 배치 크기입니다.",
        "Dots are measurements; a solid line joins neighbouring levels the series measured. Where it skips a level it "
        "did not measure (including a level another series on this axis measured), the piece is thin and dotted: "
        "nobody measured in between. The series come from different serving setups (hardware, model, engine, "
        "batching), so do not compare them in absolute terms. 001 and the recordings are concurrency; 002 and 004 are "
        "batch size."))

    st.subheader(tr(f"{level}에서 읽은 값과 1.0 교차점", f"Read at {level}, and where each crosses 1.0"))
    rows = []
    for s in shown:
        rows.append({tr("계열", "series"): name(s), tr("종류", "kind"): kind_label(s.kind),
                     tr(f"{level}에서", f"at {level}"): reading(s, level),
                     tr("1.0 아래로", "below 1.0"): crossing(s, grid), tr("출처", "source"): source_line(s, markdown=False)})
    st.dataframe(rows, hide_index=True, key="readout", column_config={tr("출처", "source"): st.column_config.TextColumn(
        width="large")})
    for s in shown:  # the whole source line again here: a table cell cuts long text off
        st.markdown(f"- **{name(s)}** — {crossing(s, grid)} · {kind_markdown(s.kind)} {source_line(s)}")

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
    base, drafted = (article_tables.cell("collapse_64", s, "throughput") for s in COLLAPSE_ROWS)
    copy, prose = (article_tables.cell("copy_vs_prose", s, "speedup") for s in COPY_PROSE_ROWS)
    st.markdown(kind_markdown("measured") + " " + tr(
        f"기사 001: 프로덕션 체크포인트를 동시 64명으로 밀면 기준선 {base.value:,.0f} tok/s, 드래프터를 켜면 "
        f"{drafted.value:,.0f} tok/s. 같은 조건 동시 8명에서 복사형은 {times(copy.value)}, 자유 서술은 {times(prose.value)}.",
        f"Article 001: the production checkpoint at 64 concurrent users does {base.value:,.0f} tok/s, "
        f"{drafted.value:,.0f} tok/s with the drafter on. At 8 concurrent users copy-style prompts keep "
        f"{times(copy.value)}, free prose drops to {times(prose.value)}."))
    h100 = article_tables.table_cells("h100_concurrency")
    levels = sorted({c.level for c in h100 if c.level is not None})
    val = {(c.level, c.metric): c.value for c in h100}
    st.dataframe([{tr("동시 요청", "concurrent requests"): lv,
                   tr("총 처리량 (tok/s)", "total throughput (tok/s)"): val[(lv, "throughput")],
                   tr("TTFT p50 (ms)", "TTFT p50 (ms)"): val[(lv, "ttft_p50")]} for lv in levels], hide_index=True)
    st.caption(kind_markdown("quoted") + " " + tr(
        "배치를 키우면 처리량은 늘지만 요청마다 첫 토큰이 늦어집니다. ",
        "Batching more raises total throughput but delays every request's first token. ") +
        source_line(h100[0]))

concurrency_panel()  # drafter on ÷ off and the break-even map at 27B-class on the H200 (issue #25)
