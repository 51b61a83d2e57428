"""The concurrency page's two maps: the engineers' Pareto view (speed per user vs system throughput, one point per
level, a front per setup) for any sweep recording or an uploaded imported one, and the break-even map of
acceptance length × concurrency from llama-server's set acceptance lengths."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from specreplay import palette
from specreplay.charts import breakeven as breakeven_chart
from specreplay.charts import concurrency
from specreplay.explain import breakeven, panels, pareto
from specreplay.importers.imported import imported_info
from specreplay.recording import catalogue, wanted
from specreplay.recording.format import Recording, RecordingError
from specreplay.recording.header import Header
from specreplay.recording.locations import recording_file
from specreplay.views import url_state
from specreplay.views.chart_download import download_chart
from specreplay.views.chart_parts import MAX_SERIES, plotly, ratio_heatmap, short, sources
from specreplay.views.full_scale import marked_points
from specreplay.views.texts import Texts
from specreplay.views.ui import kind_badge, kind_markdown, lang, plain, times
from specreplay.views.uploaded import parsed_upload
from specreplay.words import arm_label, word

T = Texts("concurrency")
ALL = "all"
UPLOAD = "upload"


@st.cache_data(show_spinner=False, max_entries=16)
def _sweep_points(path: str, mtime_ns: int) -> tuple[dict[tuple[str, str | None], list[pareto.Point]], Header] | str:
    """A sweep recording's Pareto points per (arm, mix) and its header, or its one-line problem."""
    try:
        rec = catalogue.recording(path)
    except (RecordingError, OSError) as e:
        return str(e)
    return pareto.points(rec), rec.header


def sweep_files() -> list[str]:
    """The sweep recordings, found by their header lines (reading every file to find its levels would cost a page
    visit a second), llama.cpp's sweep first, then by name; the break-even sweeps have their own map."""
    own_map = wanted.matching(panels.CPU_BREAKEVEN)
    first = wanted.newest(panels.CPU_SWEEP)
    return sorted((n for n in wanted.matching(panels.SWEEPS) if n not in own_map), key=lambda n: (n != first, n))


def _uploaded() -> Recording | str | None:
    up = st.file_uploader(T("pareto_upload"), type=["jsonl"], key="pareto_file")
    if up is None:
        return None
    got = parsed_upload(up)  # as on the replay page: parsed once, held while its visitors are connected
    return str(got) if isinstance(got, RecordingError) else got


def _pairs(header: Header) -> list[tuple[str, str]]:
    return [(a.id, a.baseline) for a in header.arms if a.baseline and a.set_acceptance is None]


@st.fragment
def pareto_section() -> None:
    st.subheader(T("pareto_title"))
    st.markdown(T("pareto_intro"))
    files = sweep_files()
    if not files:
        st.info(T("pareto_empty"))
        return
    controls = [url_state.choice("pareto_recording", files[0], [*files, UPLOAD]), url_state.Control("pair", str, "")]
    url_state.restore(controls)
    # labels looked up in a dict built now: a format_func also runs outside the script (AppTest, reruns)
    names: dict[str, str] = {**{n: n for n in files}, UPLOAD: T("pareto_uploaded")}
    choice = st.selectbox(T("pareto_recording"), list(names), key="pareto_recording", format_func=names.__getitem__)
    imported = False
    if choice == UPLOAD:
        got = _uploaded()
        if got is None:
            url_state.publish(controls)
            return
        if isinstance(got, str):
            st.error(plain(got, 500), icon=":material/error:")
            return
        pts, header = pareto.points(got), got.header
        imported = imported_info(got) is not None
        file = header.title
    else:
        path = recording_file(choice)
        read = _sweep_points(str(path), path.stat().st_mtime_ns)
        if isinstance(read, str):
            st.warning(T("skipped", problem=read))
            return
        pts, header = read
        file = choice
    pairs = _pairs(header)
    keys = [ALL] + [f"{a}|{b}" for a, b in pairs]
    if st.session_state.get("pair") not in keys:  # default: the first pair with a drafter, else the first pair
        drafted = [f"{a}|{b}" for a, b in pairs if any(x.id == a and x.speculative for x in header.arms)]
        st.session_state["pair"] = (drafted or keys[1:] or [ALL])[0]
    pick = st.radio(T("pareto_pair"), keys, horizontal=True, key="pair",
                    format_func=lambda k: T("every_arm") if k == ALL else k.replace("|", " ÷ "))
    url_state.publish(controls)
    if not pairs:
        st.caption(T("pareto_no_pair"))
    arms_in = list(dict.fromkeys(arm for arm, _ in pts))
    spec, base = pick.split("|") if pick != ALL else ("", "")
    shown = [a for a in arms_in if pick == ALL or a in (spec, base)][:MAX_SERIES - 1]
    fig = go.Figure()
    if base and base in shown:
        base_front = pareto.front([p for (a, _), ps in pts.items() if a == base for p in ps])
        outline = pareto.staircase(base_front)
        fig.add_trace(go.Scatter(x=[x for x, _ in outline], y=[y for _, y in outline], fill="toself",
                                 fillcolor="rgba(156,163,175,0.25)", line={"width": 0}, hoverinfo="skip",
                                 name=short(T("pareto_region", base=base))))
    spec_arms = {a for a, _ in pairs}
    for i, arm in enumerate(shown):
        ps = [p for (a, _), xs in pts.items() if a == arm for p in xs]
        fr = pareto.front(ps)
        colour = palette.series(i) if arm in spec_arms else palette.baseline(i % 2)
        label = short(f"{arm} · {T('front')}")
        fig.add_trace(go.Scatter(x=[p.interactivity for p in fr], y=[p.throughput for p in fr], mode="lines+markers",
                                 name=label, legendgroup=arm, line={"color": colour, "width": 2},
                                 marker={"color": colour, "size": 9}, text=[str(p.concurrency) for p in fr],
                                 hovertemplate=f"{arm} · " + T("streams_word") +
                                 " %{text}<br>%{x:.1f} tok/s/user · %{y:.1f} tok/s<extra></extra>"))
        rest = [p for p in ps if p not in fr]
        fig.add_trace(go.Scatter(x=[p.interactivity for p in rest], y=[p.throughput for p in rest], mode="markers",
                                 showlegend=False, legendgroup=arm, text=[str(p.concurrency) for p in rest],
                                 marker={"color": "white", "size": 8, "line": {"color": colour, "width": 2}},
                                 hovertemplate=f"{arm} · " + T("streams_word") +
                                 " %{text}<br>%{x:.1f} tok/s/user · %{y:.1f} tok/s<extra></extra>"))
        fig.add_trace(go.Scatter(x=[p.interactivity for p in ps], y=[p.throughput for p in ps], mode="text",
                                 text=[str(p.concurrency) for p in ps], textposition="top center", showlegend=False,
                                 hoverinfo="skip", textfont={"color": colour, "size": 10}))
    title = T("pareto_q", pair=pick.replace("|", " ÷ ")) if pick != ALL else T("pareto_title")
    fig.update_layout(title=title, height=440, margin={"l": 10, "r": 10, "t": 50, "b": 10},
                      xaxis={"title": T("pareto_x"), "rangemode": "tozero"},
                      yaxis={"title": T("pareto_y"), "rangemode": "tozero"}, legend={"orientation": "h", "y": -0.2})
    plotly(fig, key="pareto_chart")
    kind_badge("imported" if imported else header.kind(), " · ".join(x for x in (file, header.machine.line) if x))
    st.caption(T("cav_throughput"))
    if note := concurrency.defect_caveat(header, shown, lang()):
        st.caption(f":material/bug_report: {note.page}")
    if imported:
        st.caption(T("pareto_imported"))
    if any(a.f16_of_4bit for a in header.arms if a.id in shown):
        st.caption(word("f16_note", lang()))
    if spec and base:
        base_front = pareto.front([p for (a, _), ps in pts.items() if a == base for p in ps])
        notes = []
        for p in [p for (a, _), ps in pts.items() if a == spec for p in ps]:
            by = pareto.beaten(p, base_front)
            if by:
                notes.append(T("pareto_beaten", arm=spec, level=p.concurrency, base=base, blevel=by.concurrency,
                               x=p.interactivity, bx=by.interactivity, y=p.throughput, by=by.throughput))
        st.markdown("\n".join(f"- {n}" for n in notes) if notes else T("pareto_none_beaten", arm=spec, base=base))
    sources([f"{file} · {a.id} · {arm_label(a.label, lang())} · {a.engine.line} · {header.machine.line} · {header.date}"
             for a in header.arms if a.id in shown])


@st.cache_data(show_spinner=False, max_entries=4)
def _grids(path: str, mtime_ns: int) -> list[breakeven.Grid]:
    return breakeven.breakeven_grids(catalogue.recording(path))


@st.fragment
def breakeven_section() -> None:
    st.subheader(T("be_title"))
    st.markdown(T("be_intro"))
    got, grids = breakeven_chart.recording()
    if isinstance(got, str):
        st.warning(T("skipped", problem=got))
    if not isinstance(got, Recording) or not grids:
        st.info(T("be_empty"), icon=":material/hourglass_empty:")
        return
    by_target = {g.target: g for g in grids}
    controls = [url_state.choice("be_target", grids[0].target, list(by_target))]
    url_state.restore(controls)
    target = st.radio(T("be_target"), list(by_target), horizontal=True, key="be_target")
    url_state.publish(controls)
    v = breakeven_chart.view(got, by_target[target], "throughput", lang())
    g = v.grid
    xs = list(range(len(g.levels)))
    # a cell an engine's artefact produced stays uncoloured, outlined with its ratio (specreplay.explain.artefacts)
    z = [[None if x is None else round(x, 2) for x in row] for row in v.z]
    hover = [[f"L {L:g} · {lv} · {times(t)} ({T('metric_throughput')}) · {times(d)} ({T('metric_decode')})"
              for lv, t, d in zip(g.levels, trow, drow)] for L, trow, drow in zip(g.lengths, g.throughput, g.decode)]
    fig = go.Figure(ratio_heatmap(z, x=xs, y=list(g.lengths), customdata=hover, hovertemplate="%{customdata}<extra></extra>",
                                  colorbar={"title": T("be_z")}, name=T("be_z")))
    fig.add_trace(go.Contour(x=xs, y=list(g.lengths), z=z, contours={"start": 1, "end": 1, "size": 1,
                                                                       "coloring": "lines"},
                             line={"color": "black", "width": 3}, showscale=False, name=T("be_contour"),
                             hoverinfo="skip", showlegend=True))
    marked_points(fig, [(g.levels.index(lv), L, why, ratio) for L, lv, why, ratio in v.marked], cells=True)
    fig.update_layout(title=v.title, height=420, margin={"l": 10, "r": 10, "t": 50, "b": 10},
                      xaxis={"title": T("be_x"), "tickvals": xs, "ticktext": [str(v) for v in g.levels]},
                      yaxis={"title": T("be_y")}, legend={"orientation": "h", "y": -0.2})
    plotly(fig, key="breakeven_chart")
    download_chart("breakeven")
    kind_badge(v.kind, v.badge)
    st.markdown("\n".join(f"- {r}" for r in v.rows.values()))
    st.caption(f"{kind_markdown(v.kind)} " + " ".join(c.page for c in v.caveats))
    sources(v.sources)
