"""The start page's replay: a drafter winning on real text (F16 vs F16 + 0.5B draft model on the non-copy prompt
where it gains most, specreplay.explain.story), its numbers with the reference named, and the same drafter on the 4-bit
target in one line, beside article 001's finding."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from specreplay.explain import panels, story
from specreplay.quoted import article_tables
from specreplay.recording import catalogue, wanted
from specreplay.recording.format import Recording
from specreplay.replay.panes import Pane, recorded_arm_pane
from specreplay.replay.payload import player_payload
from specreplay.replay.playback import default_speed
from specreplay.replay.source import provenance
from specreplay.replay.speedup import pane_rate
from specreplay.views.pages import link
from specreplay.views.player_frame import player_frame
from specreplay.views.texts import Texts
from specreplay.views.ui import kind_badge, kind_markdown, lang, plain, recorded_with, source_line, times
from specreplay.words import arm_label, word

T = Texts("home")
PAIRS_001 = ["bf16_no_drafter", "bf16_drafter", "4_bit_no_drafter", "4_bit_drafter"]


@st.cache_data(show_spinner=False, max_entries=2)
def _panes(path: str, mtime_ns: int) -> tuple[story.DrafterWin, list[Pane]] | None:
    """The winning pair's panes; the recording's mtime in the key so a changed file counts."""
    rec = catalogue.recording(path)
    win = story.drafter_wins(rec) if isinstance(rec, Recording) else None
    if win is None or not isinstance(rec, Recording):
        return None
    return win, [recorded_arm_pane(rec, a, win.prompt) for a in story.F16_PAIR]


def hero() -> None:
    rec = wanted.read(panels.CPU_LADDER)
    found = _panes(rec.path, Path(rec.path).stat().st_mtime_ns) if isinstance(rec, Recording) else None
    if found is None or not isinstance(rec, Recording):
        st.info(T("hero_none"), icon=":material/hourglass_empty:")
        return
    win, panes = found
    st.markdown(T("hero_title", prompt=win.prompt))
    speed = default_speed(max(p.track.end_us for p in panes))
    payload = {**player_payload(panes, speed=speed, lang=lang(), reference=0), "autoplay": True, "standalone": True}
    player_frame(payload, height=330, alt=T("hero_alt"))
    kind_badge(rec.kind(), provenance(rec.header).line())
    reference = plain(arm_label(rec.arm(story.F16_PAIR[0]).label.split(" · ")[-1], lang()), 60)  # "F16 (16-bit …)"
    cols = st.columns(len(panes))
    for col, pane, drawn in zip(cols, panes, payload["panes"]):
        rate, ratio = pane_rate(pane), drawn["ratio"]
        col.metric(plain(drawn["label"], 60), f"{rate:.1f} tok/s" if rate else "—",
                   delta=None if ratio is None else f"{times(ratio)} {T('vs', ref=reference)}",
                   delta_color="normal" if (ratio or 0) >= 1 else "inverse", delta_arrow="off",
                   help=T("hero_rate_help"))
    st.caption(T("f16_explained", note=word("f16_note", lang())))
    if win.q4_gain is not None and win.q4_rate and win.q4_draft_rate:
        q = {s.cell.key: s for s in article_tables.ladder("quant_vs_drafter", series_names=PAIRS_001)}
        b0, b1, q0, q1 = (q[k].value for k in PAIRS_001)
        st.markdown(f"{kind_markdown('measured')} {kind_markdown('quoted')} {kind_markdown('computed')} " + T(
            "hero_quant", q4=win.q4_rate, q4d=win.q4_draft_rate, gain=times(win.q4_gain), b0=b0, b1=b1,
            bg=times(b1 / b0), q0=q0, q1=q1, qg=times(q1 / q0)))
        # the replay's and the summary's caveats on that figure travel with it (not like-for-like text)
        for w in recorded_arm_pane(rec, story.Q4_PAIR[1], win.prompt, None).warnings:
            st.caption(f":material/warning: {plain(story.Q4_PAIR[1])} {times(win.q4_gain)}: {plain(w.text(lang()), 300)}")
        st.caption(source_line(q[PAIRS_001[0]].cell, conditions=False) + " · "
                   + recorded_with([rec.arm(a) for a in story.F16_PAIR + story.Q4_PAIR]))
    link("replay", T("hero_open"), query={"recording": Path(rec.path).stem,
                                          "prompt": win.prompt, "arms": ",".join(story.F16_PAIR), "lang": lang()})
