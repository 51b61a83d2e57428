"""The start page's GPU replay beside the CPU one (issue #38): the real 1.5B alone and with the EAGLE-3 head trained
here, on the prompt the start page's rule picks (specreplay.explain.trained_head), with its acceptance length, its
% of the physics ceiling and why a one-layer head pays where the 0.5B draft model did not."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from specreplay.explain import ceiling, panels, story, trained_head
from specreplay.explain.acceptance_measured import cells_of
from specreplay.recording import catalogue, wanted
from specreplay.recording.format import Recording
from specreplay.replay.panes import Pane, recorded_arm_pane
from specreplay.replay.payload import player_payload
from specreplay.replay.playback import default_speed
from specreplay.replay.source import provenance
from specreplay.views.pages import link
from specreplay.views.player_frame import player_frame
from specreplay.views.texts import Texts
from specreplay.views.ui import kind_badge, kind_markdown, lang, recorded_with, times
from specreplay.words import word

T = Texts("trained_head")


@st.cache_data(show_spinner=False, max_entries=2)
def _found(path: str, mtime_ns: int) -> tuple[story.DrafterWin, list[Pane], float | None] | None:
    """The winning prompt, its two panes and the head's c there; the file's mtime in the key so a new file counts."""
    rec = catalogue.recording(path)
    win = trained_head.start_win(rec) if isinstance(rec, Recording) else None
    if win is None or not isinstance(rec, Recording):
        return None
    cost = next((c.cost_ratio for c in cells_of(rec) if (c.arm, c.prompt) == (panels.HEAD_PAIR[1], win.prompt)), None)
    return win, [recorded_arm_pane(rec, a, win.prompt) for a in panels.HEAD_PAIR], cost


def hero() -> None:
    rec = wanted.read(panels.HEAD_CELLS)
    if isinstance(rec, str):
        st.warning(T("problem", problem=rec))
    found = _found(rec.path, Path(rec.path).stat().st_mtime_ns) if isinstance(rec, Recording) else None
    if found is None or not isinstance(rec, Recording):
        return  # the CPU replay above stands alone
    win, panes, cost = found
    head = rec.arm(panels.HEAD_PAIR[1])
    card = trained_head.card(rec.machine_line)
    st.markdown(f"{kind_markdown('measured')} " + T("hero_title", prompt=win.prompt, card=card,
                                                    engine=trained_head.engine(head.engine.line, head.engine.name)))
    speed = default_speed(max(p.track.end_us for p in panes))
    payload = {**player_payload(panes, speed=speed, lang=lang(), reference=0), "autoplay": True, "standalone": True}
    player_frame(payload, height=330, alt=T("hero_alt"))
    length = trained_head.acceptance_length(rec, head.id, win.prompt)
    share = ceiling.ceiling(rec, head.id, win.prompt)
    base, with_head, accepted, physics = st.columns(4)
    base.metric(T("metric_base"), f"{win.f16_rate:.0f} tok/s", help=T("rate_help"))
    with_head.metric(T("metric_head", k=head.draft_length), f"{win.f16_draft_rate:.0f} tok/s",
                     delta=T("vs_base", gain=times(win.gain)), delta_arrow="off", help=T("rate_help"))
    accepted.metric(T("metric_length"), f"{length:.2f}" if length else "—", help=T("length_help"))
    physics.metric(T("metric_ceiling"), ceiling.percent(share), delta_color="off", delta_arrow="off",
                   delta=None if share or ceiling.bandwidth(rec) else T("ceiling_none", card=card))
    if cost is not None:
        st.markdown(f"{kind_markdown('computed')} " + T("why", c=cost))
    with st.expander(T("more")):
        kind_badge("measured", provenance(rec.header).line())
        step = "—" if cost is None else f"{1 + (head.draft_length or 0) * cost:.2f}"
        st.markdown(T("more_text", step=step) + " " + word("f16_note", lang()))
        st.caption(recorded_with([head]))
        link("replay", T("open_replay"), query={"recording": Path(rec.path).stem, "prompt": win.prompt,
                                                "arms": ",".join(panels.HEAD_PAIR), "lang": lang()})
        link("concurrency", T("open_concurrency"), query={"source": "gpu", "lang": lang()})
