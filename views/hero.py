"""The start page's hero: the replay page's default replay playing, its numbers, and three ways on.

What plays is chosen by the replay's written rule (specreplay.replay.default: real weights, the story's rungs,
like-for-like): the real-model ladder when it is bundled, the best real pair until then.
"""

from pathlib import Path

import streamlit as st

from specreplay import article_tables
from specreplay.panes import Pane, recorded_arm_pane
from specreplay.playback import default_speed, speed_note
from specreplay.replay.default import Choice, choose
from specreplay.replay.payload import player_payload
from specreplay.recording import catalogue
from specreplay.replay.source import provenance
from specreplay.speedup import pane_rate, speedups
from specreplay.views.home_text import TEXT
from specreplay.views.pages import link
from specreplay.views.player_frame import player_frame
from specreplay.views.texts import Texts
from specreplay.views.ui import kind_badge, kind_markdown, lang, plain, times

T = Texts(TEXT)


@st.cache_data(show_spinner=False, max_entries=4)
def _hero(paths: tuple[str, ...], mtimes: tuple[float, ...]) -> tuple[Choice, list[Pane]] | None:
    """The replay page's default (specreplay.replay.default: real weights, the story's rungs, like-for-like) and its
    panes; mtimes in the key so a changed recording counts."""
    choice = choose([Path(p) for p in paths])
    if choice is None:
        return None
    rec = catalogue.recording(next(p for p in paths if Path(p).stem == choice.recording), repair=True)
    return choice, [recorded_arm_pane(rec, a, choice.prompt) for a in choice.arms]


def hero() -> None:
    paths = [e.path for e in catalogue.entries()]
    found = _hero(tuple(map(str, paths)), tuple(p.stat().st_mtime for p in paths))
    if found is None:
        st.info(T("hero_none"), icon=":material/hourglass_empty:")
        return
    choice, panes = found
    end = max(p.track.end_us for p in panes)
    speed = default_speed(end)
    payload = {**player_payload(panes, speed=speed, lang=lang()), "autoplay": True, "standalone": True}
    player_frame(payload, height=470, alt=T("hero_alt"))
    rec_path = next(p for p in paths if p.stem == choice.recording)
    kind_badge("measured", provenance(catalogue.header(rec_path)).line())
    ref, ratios = speedups(panes)
    cols = st.columns(len(panes))
    for col, pane, ratio, shown in zip(cols, panes, ratios, payload["panes"]):
        rate = pane_rate(pane)
        col.metric(plain(shown["label"], 60), f"{rate:.1f} tok/s" if rate else "—",
                   delta=None if ratio is None else times(ratio), delta_color="normal" if (ratio or 0) >= 1 else "inverse", delta_arrow="off",
                   help=T("hero_rate_help"))
    steps = article_tables.ladder("ladder_overall")
    st.caption(kind_markdown("quoted") + " " + T("hero_article_000") + " → ".join(f"{s.value:g}" for s in steps)
               + " tok/s (" + " · ".join(times(s.vs_first) for s in steps[1:]) + ")")
    ref_label = panes[ref].label if ref is not None else ""
    st.caption(T("hero_about", recording=choice.recording, prompt=choice.prompt, reference=plain(ref_label, 80),
                  speed=speed_note(speed, lang())))
    link("replay", T("hero_open"), query={"recording": choice.recording, "prompt": choice.prompt,
                                          "arms": ",".join(choice.arms), "lang": lang()})
    links = st.columns(3)
    link("ladder", T("hero_go_ladder"), links[0])
    link("acceptance", T("hero_go_acceptance"), links[1])
    link("concurrency", T("hero_go_concurrency"), links[2])
