"""The start page's evidence beside the articles': article 000's ladder beside our full-scale H200 ladder (the same
two multiplier columns, ours with its % of the physics ceiling), and article 001's multiplier falling with
concurrency beside our measured crossing."""

from __future__ import annotations

import streamlit as st
from specreplay.views.home_text import TEXT
from specreplay.views.texts import Texts
from specreplay.views.ui import kind_markdown, lang, recorded_with, shown_kind, source_line, times

from specreplay import article_tables, ceiling, llamacpp_files, story
from specreplay import full_scale as fs
from specreplay.format import Recording

T = Texts(TEXT)
INT4_ROW = "int4_256k_edge_budget"  # 001's row whose 1.4× → 0.8× the article's title quotes


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def article_ladder() -> None:
    steps = article_tables.ladder("ladder_overall")
    st.markdown(f"{kind_markdown('quoted')} **{T('article_ladder')}**")
    st.markdown(_table([T("col_rung"), "tok/s", T("col_prev"), T("col_first")],
                       [[s.label_en if lang() == "en" else s.label, f"{s.value:g}", times(s.vs_previous),
                         times(s.vs_first)] for s in steps]))
    st.caption(f"{kind_markdown(shown_kind(steps[0].cell))} {source_line(steps[0].cell, conditions=False)}")


def code_acceptance() -> float:
    """The upper end of article 000's code acceptance range (5.6): the drafter rung's set acceptance."""
    return next(r.high for r in article_tables.acceptance_references() if r.label_en == "code")


def our_ladder() -> None:
    got = fs.read(fs.LADDER)
    st.markdown(f"{kind_markdown('measured')} **{T('our_ladder')}**")
    if not isinstance(got, Recording):
        st.info(got or T("hero_none"))
        return
    length = code_acceptance()
    found = fs.ladder(got, length)
    if found is None:
        return
    prompt = got.prompts[0]["id"]
    first = found.steps[0].rate
    names = [T("rung_bf16"), T("rung_w4"), T("rung_drafter") + f" ({length:g})"]
    rows = [[name, f"{s.rate:.0f}" if s.rate else "—", times(s.vs_previous),
             times(s.rate / first if s.rate and first and s is not found.steps[0] else None),
             ceiling.percent(ceiling.ceiling(got, s.arm, prompt))] for name, s in zip(names, found.steps)]
    st.markdown(_table([T("col_rung"), "tok/s", T("col_prev"), T("col_first"), T("col_ceiling")], rows))
    st.caption(f"{kind_markdown('measured')} {kind_markdown('computed')} " + T("our_ladder_note", acceptance=length)
               + " " + recorded_with([got.arm(s.arm) for s in found.steps]))


def crossing() -> None:
    """001's 1.4× → 0.8× beside the drafter on ÷ off per level in our llama.cpp sweep."""
    st.subheader(T("crossing_title"))
    left, right = st.columns(2)
    cells = [c for c in article_tables.table_cells("concurrency_speedup") if c.key == INT4_ROW]
    with left:
        st.markdown(f"{kind_markdown('quoted')} {T('crossing_article')}")
        st.markdown(_table([T("col_level")] + [str(c.level) for c in cells],
                           [["×"] + [times(c.value, T("not_measured")) for c in cells]]))
        st.caption(source_line(cells[0]))
    sweep = llamacpp_files.read(llamacpp_files.SWEEP)
    curve = story.drafter_by_level(sweep) if isinstance(sweep, Recording) else None
    with right:
        st.markdown(f"{kind_markdown('measured')} {T('crossing_ours')}")
        if curve is None:
            return
        st.markdown(_table([T("col_level")] + [str(lv) for lv in curve.decode],
                           [["×"] + [times(v) for v in curve.decode.values()]]))
        st.caption((T("crossing_at", level=curve.crossing) if curve.crossing else T("crossing_none")) + " · "
                   + recorded_with([sweep.arm(a) for a in story.F16_PAIR]))  # type: ignore[union-attr]
