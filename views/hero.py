"""The start page's hero: the replay page's default replay playing, its numbers, and three ways on.

What plays is chosen by the replay's written rule (specreplay.replay.default: real weights, the story's rungs,
like-for-like): the real-model ladder when it is bundled, the best real pair until then.
"""

from pathlib import Path

import streamlit as st

from specreplay import article_tables
from specreplay.format import load
from specreplay.panes import Pane, recorded_arm_pane
from specreplay.playback import default_speed, speed_note
from specreplay.replay.default import Choice, choose
from specreplay.replay.html import player_html
from specreplay.replay.payload import player_payload
from specreplay.replay.source import bundled_paths, provenance
from specreplay.speedup import pane_rate, speedups
from specreplay.views.shell import page_file
from specreplay.views.ui import kind_badge, kind_markdown, lang, plain, times, tr


@st.cache_data(show_spinner=False, max_entries=4)
def _hero(paths: tuple[str, ...], mtimes: tuple[float, ...]) -> tuple[Choice, list[Pane]] | None:
    """The replay page's default (specreplay.replay.default: real weights, the story's rungs, like-for-like) and its
    panes; mtimes in the key so a changed recording counts."""
    choice = choose([Path(p) for p in paths])
    if choice is None:
        return None
    rec = load(next(p for p in paths if Path(p).stem == choice.recording), repair=True)
    return choice, [recorded_arm_pane(rec, a, choice.prompt) for a in choice.arms]


def hero() -> None:
    paths = bundled_paths()
    found = _hero(tuple(map(str, paths)), tuple(p.stat().st_mtime for p in paths))
    if found is None:
        st.info(tr("실제 녹화가 아직 없어 여기에 재생을 보여 줄 수 없습니다.", "No real recording is bundled yet, so there "
                   "is no replay to show here."), icon=":material/hourglass_empty:")
        return
    choice, panes = found
    end = max(p.track.end_us for p in panes)
    speed = default_speed(end)
    payload = {**player_payload(panes, speed=speed, lang=lang()), "autoplay": True, "standalone": True}
    st.iframe(player_html(payload), height=470, alt=tr("실제 녹화의 나란히 재생", "A side-by-side replay of a real recording"))
    rec_path = next(p for p in paths if p.stem == choice.recording)
    rec = load(rec_path, repair=True)
    kind_badge("measured", provenance(rec).line())
    ref, ratios = speedups(panes)
    cols = st.columns(len(panes))
    for col, pane, ratio, shown in zip(cols, panes, ratios, payload["panes"]):
        rate = pane_rate(pane)
        col.metric(plain(shown["label"], 60), f"{rate:.1f} tok/s" if rate else "—",
                   delta=None if ratio is None else times(ratio), delta_color="normal" if (ratio or 0) >= 1 else "inverse", delta_arrow="off",
                   help=tr("디코드 tok/s (첫 토큰 제외), 중앙값 반복. 배수 = 디코드 속도 ÷ 기준 팔의 것.",
                           "Decode tok/s (first token excluded), median repeat. Speedup = decode rate ÷ the reference "
                           "arm's."))
    steps = article_tables.ladder("ladder_overall")
    st.caption(kind_markdown("quoted") + " " + tr(
        "기사 000의 계단 (B200 · Qwen3.8-27B, 저자 측정): ", "Article 000's ladder (B200 · Qwen3.8-27B, the authors' "
        "measurement): ") + " → ".join(f"{s.value:g}" for s in steps) + " tok/s ("
        + " · ".join(times(s.vs_first) for s in steps[1:]) + ")")
    ref_label = panes[ref].label if ref is not None else ""
    st.caption(tr(
        f"`{choice.recording}` · 프롬프트 `{choice.prompt}` · 기준 팔: {plain(ref_label, 80)} · 재생 속도 "
        f"{speed_note(speed, 'ko')}. 팔들은 차례로 따로 녹화했고 한 시계 위에 겹쳐 재생합니다. 이 녹화·팔은 적어 둔 규칙으로 "
        "골랐습니다: 실제 가중치, 이야기의 단계(16비트 → 4비트 → 드래프터), 같은 조건(docs/replay.md).",
        f"`{choice.recording}` · prompt `{choice.prompt}` · reference arm: {plain(ref_label, 80)} · playing at "
        f"{speed_note(speed, 'en')}. The arms were recorded one after another and are overlaid on one clock. This "
        "recording and these arms were chosen by a written rule: real weights, the story's rungs (16-bit → 4-bit → "
        "drafter), like-for-like (docs/replay.md)."))
    st.page_link(page_file("replay"), label=tr("이 재생을 크게, 다른 녹화·프롬프트로", "Open this replay full size, or "
                                               "another recording or prompt"), icon=":material/play_circle:",
                 query_params={"recording": choice.recording, "prompt": choice.prompt, "arms": ",".join(choice.arms),
                               "lang": lang()})
    links = st.columns(3)
    links[0].page_link(page_file("ladder"), label=tr("4비트: 왜 빨라지나", "4-bit: why it is faster"),
                       icon=":material/stairs:")
    links[1].page_link(page_file("acceptance"), label=tr("드래프터: 수용률이 배수를 정한다", "The drafter: acceptance sets "
                                                         "the multiplier"), icon=":material/tune:")
    links[2].page_link(page_file("concurrency"), label=tr("이득이 사라질 때: 동시 접속", "When it vanishes: concurrency"),
                       icon=":material/groups:")
