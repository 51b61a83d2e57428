"""The start page's evidence beside the articles': article 000's ladder beside our full-scale H200 ladder (the same
two multiplier columns, ours with its % of the physics ceiling), and article 001's multiplier falling with
concurrency beside our measured crossing."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from specreplay.explain import ceiling, panels, story
from specreplay.explain import full_scale as fs
from specreplay.explain.derived import ratio
from specreplay.quoted import article_tables
from specreplay.recording import wanted
from specreplay.recording.format import Recording
from specreplay.views.texts import Texts
from specreplay.views.ui import kind_markdown, recorded_with, shown_kind, source_line, times

T = Texts("home")
INT4_ROW = "int4_256k_edge_budget"  # 001's row whose 1.4× → 0.8× the article's title quotes


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def code_acceptance() -> float:
    """The upper end of article 000's code acceptance range (5.6): our drafter rung's set acceptance."""
    return next(r.high for r in article_tables.acceptance_references() if r.label_en == "code")


def ladders() -> None:
    """One table, rung by rung: article 000's rates and multipliers, then ours at the same scale with % of ceiling."""
    steps = article_tables.ladder("ladder_overall")
    got = wanted.read(panels.FULL_LADDER)
    length = code_acceptance()
    ours = fs.ladder(got, length) if isinstance(got, Recording) else None
    ours_kind = got.kind() if isinstance(got, Recording) else "measured"
    # the physics first, then what each ladder is: one block, so both ladders and the replay fit the first screen
    st.markdown(T("why") + "\n\n" + f"{kind_markdown('quoted')} {T('article_ladder')} · {kind_markdown(ours_kind)} "
                + T("our_ladder", acceptance=length))
    header = [T("col_rung"), T("col_article"), T("col_prev"), T("col_first"), T("col_ours"), T("col_prev"),
              T("col_first"), T("col_ceiling")]
    rows = []
    for i, s in enumerate(steps):
        row = [T(f"rung_{i}"), f"{s.value:g}", times(s.vs_previous), times(s.vs_first)]
        mine = ours.steps[i] if ours and i < len(ours.steps) else None
        first = ours.steps[0].rate if ours else None
        if mine is None or not isinstance(got, Recording):
            row += ["—"] * 4
        else:
            row += [f"{mine.rate:.0f}" if mine.rate else "—", times(mine.vs_previous),
                    times(ratio(mine.rate, first) if i else None),
                    ceiling.percent(ceiling.ceiling(got, mine.arm, got.prompts[0].id))]
        rows.append(row)
    st.markdown(_table(header, rows))
    links = recorded_with([got.arm(ours.steps[0].arm)], models=False) if ours and isinstance(got, Recording) else ""
    st.caption(f"{kind_markdown(shown_kind(steps[0].cell))} {source_line(steps[0].cell, conditions=False)} · "
               f"{kind_markdown('computed')} {T('ceiling_note')} {T('ceiling_why')} {links}")


def crossing() -> None:
    """001's 1.4× → 0.8× beside the drafter on ÷ off per level in our llama.cpp sweep."""
    st.subheader(T("crossing_title"))
    left, right = st.columns(2)
    cells = [c for c in article_tables.table_cells("concurrency_speedup") if c.key == INT4_ROW]
    with left:
        st.markdown(f"{kind_markdown('quoted')} {T('crossing_article')}")
        st.markdown(_table([T("col_level")] + [str(c.level) for c in cells],
                           [["×"] + [times(c.value, T("not_measured")) for c in cells]]))
        st.caption(source_line(cells[0]) + " · " + T("articles_where"))
    sweep = wanted.read(panels.CPU_SWEEP)
    curve = story.drafter_by_level(sweep) if isinstance(sweep, Recording) else None
    with right:
        st.markdown(f"{kind_markdown('measured')} {T('crossing_ours')}")
        if curve is None:
            return
        st.markdown(_table([T("col_level")] + [str(lv) for lv in curve.decode],
                           [["×"] + [times(v) for v in curve.decode.values()]]))
        st.caption((T("crossing_at", level=curve.crossing) if curve.crossing else T("crossing_none")) + " · "
                   + recorded_with([sweep.arm(a) for a in story.F16_PAIR]))  # type: ignore[union-attr]
        _beside_the_replay(sweep, curve)  # type: ignore[arg-type]


def _beside_the_replay(sweep: Recording, curve: story.ByLevel) -> None:
    """The same pair at one stream reads another multiplier than the replay above: say why (recording, tokens)."""
    cells = wanted.read(panels.CPU_LADDER)
    win = story.drafter_wins(cells) if isinstance(cells, Recording) else None
    one = curve.decode.get(1)
    if win is None or one is None or not isinstance(cells, Recording):
        return
    st.caption(T("crossing_vs_replay", one=times(one), replay=times(win.gain), file=Path(sweep.path).name,
                 tokens=sweep.header.recorder.max_tokens, prompts=", ".join(p.id for p in sweep.prompts),
                 replay_tokens=cells.header.recorder.max_tokens, replay_prompt=win.prompt))
