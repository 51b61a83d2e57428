"""The bf16 → 4-bit → drafter ladder: one change per rung, each multiplier read off measured rates. The article's
ladder (000) beside ours (llama.cpp on this CPU), then 001's pairs and 003's two ladders."""

from __future__ import annotations

from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

from specreplay import palette
from specreplay.charts import ladder as chart
from specreplay.explain import ceiling, panels, real_ladder
from specreplay.quoted import article_tables
from specreplay.recording import wanted
from specreplay.recording.format import Recording
from specreplay.replay.speedup import arm_rate, arm_speedup
from specreplay.views import ui, url_state
from specreplay.views.chart_download import download_chart
from specreplay.views.chart_parts import opened, plotly, sources
from specreplay.views.full_scale import ladder_panel
from specreplay.views.tables import table
from specreplay.views.texts import Texts
from specreplay.views.ui import (
    kind_badge,
    kind_label,
    kind_markdown,
    lang,
    localized,
    page_intro,
    plain,
    recorded_with,
    shown_kind,
    times,
)
from specreplay.words import arm_label

T = Texts("ladder")
# Rows of the article tables by their stable keys (assets/articles_measured.csv `key`).
PAIRS_001 = ["bf16_no_drafter", "bf16_drafter", "4_bit_no_drafter", "4_bit_drafter"]
RTX_GENERAL = ["baseline", "mtp_tuned", "plus_dflash2_plus_lookup_drafter"]
RTX_QUOTING = ["before_16_token_verify_document_quoting", "16_token_verify_document_quoting"]
RTX_CHAT = "16_token_verify_general_chat"
MACHINES = tuple(real_ladder.MACHINE_LADDERS)  # this CPU first: the default, the headline's larger real gain


def source_line(c: article_tables.TableCell) -> str:
    return f"{kind_markdown(shown_kind(c))} {ui.source_line(c)}"


def bars(names: list[str], values: list[float | None], notes: list[str], colours: list[str], key: str, title: str,
         hover: str) -> None:
    """Bars of measured rates, each value with its note under it (the ratio to the rung before, on a ladder)."""
    top = max([v for v in values if v is not None] + [1.0])
    fig = go.Figure(go.Bar(
        x=names, y=values, marker_color=colours, textposition="outside",
        text=["—" if v is None else f"{v:g}" + (f"<br>{n}" if n else "") for v, n in zip(values, notes)],
        hovertemplate="%{x}: %{y} tok/s<br>" + hover + "<extra></extra>"))
    fig.update_layout(height=320, margin={"l": 10, "r": 10, "t": 40, "b": 10}, yaxis_title="tok/s", title=title,
                      yaxis_range=[0, top * 1.25])
    plotly(fig, key=key)


def ladder_chart(steps: list[article_tables.Step], key: str, title: str, notes: list[str] | None = None) -> None:
    """An article's rungs; bars that are not one change apart pass their own notes, so no ratio joins unlike bars."""
    notes = notes if notes is not None else ["" if s.vs_previous is None else times(s.vs_previous) for s in steps]
    c = steps[0].cell
    bars([localized(s, "label") for s in steps], [s.value for s in steps], notes, chart.colours(len(steps)), key, title,
         f"{kind_label(shown_kind(c))} · {ui.source_line(c, markdown=False, conditions=False)}")


def steps_table(steps: list[article_tables.Step]) -> None:
    table([{T("col_rung"): localized(s, "label"), T("col_prev"): times(s.vs_previous),
            T("col_first"): times(s.vs_first), "tok/s": s.value} for s in steps])  # multipliers beside the rung


CONTROLS = [url_state.Control("prompt", str, chart.OVERALL), url_state.Control("our_prompt", str, ""),
            url_state.choice("our_drafter", "draft", chart.DRAFTERS), url_state.choice("our_machine", "cpu", MACHINES)]
url_state.restore(CONTROLS)
page_intro(T("title"), T("intro"))
st.info(T("rule"), icon=":material/rule:")


def article_000() -> str:
    """000's ladder for the chosen prompt; returns the chosen prompt's kind of text (for our ladder's default)."""
    headline = st.empty()  # filled once the prompt is chosen: the headline reads the chosen prompt's rates
    names = chart.prompts_000(lang())
    if st.session_state.get("prompt") not in names:
        st.session_state["prompt"] = chart.OVERALL
    choice = str(st.selectbox(T("prompt"), list(names), key="prompt", format_func=lambda k: names[k]))
    which, steps = chart.article_ladder(choice, lang())
    headline.subheader(T("headline", which=which, first=steps[0].value, last=steps[-1].value))
    cols = st.columns(3)
    cols[0].metric(T("step_quant"), times(steps[1].vs_previous))
    cols[1].metric(T("step_drafter"), times(steps[2].vs_previous))
    cols[2].metric(T("product"), times(steps[2].vs_first))
    kind_badge("computed", T("ratio_badge"))
    ladder_chart(steps, "ladder_000", T("chart_000"))
    lfl = all(s.cell.like_for_like for s in steps)
    st.caption(source_line(steps[0].cell) + " · " + T("median3") + " · " + (T("lfl_yes") if lfl else T("lfl_unstated")))
    if choice == chart.OVERALL:
        stated = {s.cell.key: (article_tables.cell("ladder_overall", s.cell.key, "step_ratio_stated").value,
                               article_tables.cell("ladder_overall", s.cell.key, "total_ratio_stated").value)
                  for s in steps}
        st.caption(kind_markdown("computed") + " " + T("stated") + ", ".join(
            f"{localized(s, 'label')} {times(stated[s.cell.key][0])} / {times(stated[s.cell.key][1])}"
            for s in steps))
    return chart.KIND_OF_PROMPT.get(choice, "code")


def by_prompt_000() -> None:
    prompts = article_tables.workloads("ladder_by_prompt")
    fig = go.Figure()
    for i, rung in enumerate(chart.RUNGS_000):
        cs = [article_tables.cell("ladder_by_prompt", rung, "decode_rate", w["workload"]) for w in prompts]
        fig.add_trace(go.Bar(name=localized(cs[0], "series"), x=[localized(w, "workload") for w in prompts],
                             y=[c.value for c in cs],
                             marker_color=palette.baseline(0) if i == 0 else palette.series(i - 1),
                             hovertemplate="%{x}: %{y} tok/s<extra>" + kind_label(shown_kind(cs[0])) + " · 000</extra>"))
    fig.update_layout(barmode="group", height=300, margin={"l": 10, "r": 10, "t": 40, "b": 10}, yaxis_title="tok/s",
                      title=T("by_prompt"))
    plotly(fig, key="by_prompt")
    st.caption(source_line(article_tables.cell("ladder_by_prompt", chart.RUNGS_000[0], "decode_rate", prompts[0]["workload"])))
    ttft = {c.key: c for c in article_tables.table_cells("ttft")}
    st.caption(kind_markdown(shown_kind(ttft["original"])) + " " + T(
        "ttft", a=ttft["original"].value, b=ttft["quantized"].value, c=ttft["drafter_off"].value,
        d=ttft["drafter_on"].value))


def rung_name(arm: str) -> str:
    return chart.rung_name(arm, lang())


def our_ladder(kind: str) -> None:
    """Our ladder recordings (this CPU or the H200): one prompt's rungs as bars, then every prompt's multipliers
    and product."""
    if st.session_state.get("our_machine") not in MACHINES:
        st.session_state["our_machine"] = MACHINES[0]
    st.subheader(T("ours_title" if st.session_state["our_machine"] == "cpu" else "ours_title_h200"))
    machine_names = {"cpu": T("machine_cpu"), "h200": T("machine_h200")}
    machine = str(st.radio(T("ours_machine"), MACHINES, format_func=lambda m: machine_names[m], horizontal=True,
                           key="our_machine"))
    ladders_of = real_ladder.MACHINE_LADDERS[machine]
    read = {d: wanted.read(what) for d, (what, _) in ladders_of.items()}
    for problem in dict.fromkeys(g for g in read.values() if isinstance(g, str)):
        st.warning(plain(problem, 500), icon=":material/error:")
    names = {"draft": T("drafter_draft"), "ngram": T("drafter_ngram"), "draft_first": T("drafter_first")}
    offered = [d for d, g in read.items() if isinstance(g, Recording) and real_ladder.has_arms(g, ladders_of[d][1])] \
        or list(ladders_of)
    if st.session_state.get("our_drafter") not in offered:
        st.session_state["our_drafter"] = offered[0]
    drafter = st.radio(T("ours_drafter"), offered, format_func=lambda d: names[d], horizontal=True,
                       key="our_drafter")
    arms = ladders_of[drafter][1]
    got = read[drafter]
    if not isinstance(got, Recording):
        st.info(T("ours_empty" if machine == "cpu" else "ours_empty_h200"), icon=":material/hourglass_empty:")
        return
    file = Path(got.path).name
    ladders = real_ladder.prompt_ladders(got, arms)
    if not ladders:
        st.info(T("ours_missing_arms", arms=", ".join(arms)))
        return
    by_prompt = {pl.prompt: pl for pl in ladders}
    if st.session_state.get("our_prompt") not in by_prompt:
        st.session_state["our_prompt"] = next((pl.prompt for pl in ladders if pl.kind == kind and pl.greedy),
                                              ladders[0].prompt)
    pick = st.selectbox(T("ours_prompt"), list(by_prompt), key="our_prompt",
                        format_func=lambda p: p + (T("sampled") if p in by_prompt and not by_prompt[p].greedy else ""))
    pl = by_prompt[pick]
    first, last = pl.rungs[0].rate, pl.rungs[-1].rate
    if first and last:
        st.markdown(f"**{T('ours_headline', prompt=pick, first=first, last=last, product=times(pl.product))}**")
    cols = st.columns(len(pl.rungs) - 1)
    for col, (a, b) in zip(cols, zip(pl.rungs, pl.rungs[1:])):
        col.metric(T("ours_step", a=rung_name(a.arm), b=rung_name(b.arm)), times(b.vs_previous))
    caveats = chart.our_caveats(got, machine, arms, pick, lang())
    for c in caveats:  # a rung whose figures measure the engine's defect, not a draft model's cost
        if not c.kind:
            st.caption(":material/bug_report: " + c.page)
    arm_of = {a.id: a for a in got.arms}
    bars([rung_name(r.arm) for r in pl.rungs], [None if r.rate is None else round(r.rate, 1) for r in pl.rungs],
         ["" if r.vs_previous is None else times(r.vs_previous) for r in pl.rungs], chart.colours(len(pl.rungs)),
         "ladder_ours", T("ours_question"), f"{kind_label('measured')} · {file}")
    for c in caveats:  # what was measured links its engines and models (the file names them unlinked, in its sources)
        if c.kind:
            links = " " + recorded_with([arm_of[a] for a in arms]) if c.kind == "measured" else ""
            st.caption(f"{kind_markdown(c.kind)} {c.page}{links}")
    st.markdown(f"**{T('ours_table_title')}**")
    rows = []
    for x in ladders:
        # the multipliers first, beside the pinned prompt: at a phone's width they are what shows
        row: dict[str, object] = {T("col_prompt"): x.prompt}
        row |= {f"→ {rung_name(r.arm)}": times(r.vs_previous) for r in x.rungs[1:]}
        row[T("col_product")] = times(x.product)
        for r in x.rungs:
            row[T("col_ceiling", rung=rung_name(r.arm))] = ceiling.percent(ceiling.ceiling(got, r.arm, x.prompt))
        row[T("col_lfl")] = "✓" if x.like_for_like else "✗"
        rows.append(row)
    table(rows, key="ours_table")
    st.caption(T("ours_read" if machine == "cpu" else "ours_read_h200"))
    band = ceiling.bandwidth(got)
    if band:
        st.caption(f"{kind_markdown('computed')} " + T(f"ceiling_{machine}", bandwidth=band.bytes_per_s / 1e9,
                                                       where=band.where, recorded=got.machine_line))
    sources([f"{kind_label(got.kind(a))} · recordings/{file} · {a} · {arm_label(arm_of[a].label, lang()) or a} · "
             f"{arm_of[a].engine.line} · {arm_of[a].model} · {got.machine_line} · "
             f"{got.header.date}" for a in arms])


def article_001() -> None:
    st.subheader(T("h_001"))
    q = article_tables.ladder("quant_vs_drafter", series_names=PAIRS_001)
    rate = {s.cell.key: s.value for s in q}
    bf16_gain = rate["bf16_drafter"] / rate["bf16_no_drafter"]
    int4_gain = rate["4_bit_drafter"] / rate["4_bit_no_drafter"]
    quant_step = rate["4_bit_no_drafter"] / rate["bf16_no_drafter"]
    cols = st.columns(4)
    cols[0].metric(T("m_bf16"), times(bf16_gain), help=T("m_bf16_help"))
    cols[1].metric(T("m_4bit"), times(int4_gain), help=T("m_4bit_help"))
    cols[2].metric(T("m_quant"), times(quant_step))
    cols[3].metric(T("m_both"), times(rate["4_bit_drafter"] / rate["bf16_no_drafter"]))
    kind_badge("computed", T("ratio_badge"))
    ladder_chart(q, "ladder_001", T("chart_001"), notes=["", T("on_off", v=times(bf16_gain)),
                                                         T("quant_note", v=times(quant_step)),
                                                         T("on_off", v=times(int4_gain))])
    st.caption(source_line(q[0].cell) + " · " + T("cap_001"))


def article_003() -> None:
    general = article_tables.ladder("rtx3090_steps", series_names=RTX_GENERAL)
    quoting = article_tables.ladder("rtx3090_steps", series_names=RTX_QUOTING)
    chat = article_tables.cell("rtx3090_steps", RTX_CHAT, "decode_rate")
    accepted = article_tables.cell("rtx3090_steps", RTX_QUOTING[1], "accepted_per_step")
    st.markdown(T("general", a=general[0].value, b=general[-1].value))
    steps_table(general)
    st.caption(kind_markdown(shown_kind(chat)) + " " + T("chat_after", chat=chat.value, base=general[0].value,
                                                  ratio=times((chat.value or 0.0) / general[0].value)))
    st.markdown(T("quoting", a=quoting[0].value, b=quoting[-1].value))
    steps_table(quoting)
    st.caption(source_line(general[0].cell) + " · " + T("cap_003", acc=accepted.value, a=general[0].value,
                                                        b=quoting[-1].value))


def earlier_h200() -> None:
    """SmolLM2-135M on an H200: 4-bit and ngram each against the same bf16 baseline (not a ladder)."""
    box = opened(T("h200_title"), "ladder_h200_open")
    if box is None:
        return
    with box:
        got = wanted.read(panels.SMOLLM2_GPU)
        if not isinstance(got, Recording):
            if got is not None:
                st.error(plain(got, 500), icon=":material/error:")
            return
        h200 = got
        kind_badge("measured", f"recordings/{Path(h200.path).name} · {h200.arm('baseline').engine.line} · {h200.machine_line}")
        rows = []
        for p in h200.prompts:
            # the replay's own figures for these pairs (specreplay.replay.speedup: median repeat, decode rate ÷ the reference's)
            rate = {a: arm_rate(h200, a, p.id) for a in ("baseline", "gguf-q4_1", "ngram")}
            base = rate["baseline"]
            rows.append({T("col_prompt"): p.id + ("" if p.greedy else T("sampled")),
                         T("h200_bf16"): round(base) if base else None,
                         T("h200_q4"): round(rate["gguf-q4_1"] or 0) or None,
                         T("h200_q4_ratio"): times(arm_speedup(h200, "gguf-q4_1", "baseline", p.id)),
                         T("h200_ngram"): round(rate["ngram"] or 0) or None,
                         T("h200_ngram_ratio"): times(arm_speedup(h200, "ngram", "baseline", p.id))})
        table(rows)
        st.caption(f"{kind_markdown('measured')} " + T("h200_caption"))


left, right = st.columns(2, gap="large")
with left:
    kind = article_000()
with right:
    our_ladder(kind)
download_chart("ladder")
with st.expander(T("by_prompt")):
    by_prompt_000()
article_001()
with st.expander(T("h_003")):
    article_003()
earlier_h200()
ladder_panel()  # the 27B-class H200 ladder at the articles' acceptance (issue #25)
url_state.publish(CONTROLS)
