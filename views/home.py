"""Landing page: the story in one screen — a real side-by-side replay playing, its numbers, three ways on."""

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
from specreplay.views.ui import KIND_MEANING, kind_badge, kind_markdown, lang, plain, times, tr


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
                   delta=None if ratio is None else times(ratio), delta_color="normal" if (ratio or 0) >= 1 else "inverse",
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


st.title(tr("같은 모델이 몇 배 빨라지는 이유, 그리고 그 이득이 사라지는 때",
            "Why the same LLM gets several times faster — and when the gain disappears"))
hero()
st.markdown(tr(
    """
모델을 바꾸지 않고도 서빙 계층만 손봐서 디코드 속도를 여러 배 올릴 수 있습니다.
**4비트 양자화**는 토큰마다 메모리에서 읽어야 할 가중치를 줄이고, **추측 디코딩**은 작은 드래프터가
미리 쓴 토큰 여러 개를 큰 모델이 한 번에 검증하게 합니다.

하지만 배수는 기능이 아니라 조건에 붙어 있습니다. 동시 접속이 늘면, 수용률이 낮으면,
온도가 높아 출력이 자유로우면 그 이득은 줄어들고 1.0 아래로 내려가기도 합니다.
""",
    """
Without changing the model, the serving layer alone can multiply decode speed.
**4-bit quantization** shrinks the weights read from memory for every token; **speculative decoding** lets a
small drafter write several tokens that the big model verifies in one pass.

But the multiplier belongs to conditions, not to the feature. More concurrent users, a lower acceptance rate,
freer (higher-temperature) output — and the gain shrinks, sometimes below 1.0.
"""))

st.subheader(tr("숫자의 다섯 가지 종류", "Five kinds of numbers"))
st.markdown(tr("모든 숫자 옆에는 종류를 밝히는 표시와 출처(기사 제목, 절, 원 출처)가 붙습니다.",
               "Every number carries a badge saying which kind it is, and its source (article title, section, original "
               "source)."))
st.markdown("\n".join(f"- {kind_markdown(kind)} {tr(*KIND_MEANING[kind])}" for kind in KIND_MEANING))

st.subheader(tr("둘러보기", "Explore"))
st.page_link(page_file("replay"), label=tr("따로 녹화한 팔들을 한 시계 위에서 나란히 재생", "Arms recorded separately, replayed side by side on one clock"),
             icon=":material/play_circle:")
st.page_link(page_file("acceptance"), label=tr("수용률 α와 드래프트 길이 γ가 배수를 정하는 방식", "How acceptance rate α and draft length γ set the speedup"),
             icon=":material/tune:")
st.page_link(page_file("concurrency"), label=tr("동시 접속이 늘면 배수가 1.0 아래로", "More concurrent users push the speedup below 1.0"),
             icon=":material/groups:")
st.page_link(page_file("ladder"), label=tr("bf16 → 4비트 → 드래프터 계단", "The bf16 → 4-bit → drafter ladder"), icon=":material/stairs:")
st.page_link(page_file("cost"), label=tr("100만 토큰당 비용과 KV 캐시 예산", "Cost per 1M tokens and the KV-cache budget"),
             icon=":material/payments:")
st.page_link(page_file("chooser"), label=tr("내 상황에는 어떤 추측 디코딩이 맞나", "Which speculative decoding fits my situation"),
             icon=":material/alt_route:")
st.page_link(page_file("roofline"), label=tr("왜 4비트가 큰 배치에서 느려지나 (H200 실측)", "Why 4-bit can lose at large batch (measured on an H200)"),
             icon=":material/show_chart:")
