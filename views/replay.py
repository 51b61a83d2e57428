"""Side-by-side replay: recorded arms (and simulated ones) streaming on one clock, played in the browser."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from specreplay.export_html import standalone_html
from specreplay.format import Recording, RecordingError, load
from specreplay.imported import imported_info, source_line
from specreplay.panes import Pane, recorded_arm_pane
from specreplay.replay.html import player_html
from specreplay.replay.arms import (MAX_ARMS, MAX_SIM_TOK_S, MAX_SIM_TOKENS, MAX_SIM_TTFT_S, MAX_URL_ARMS, MIN_SIM_TOK_S,
                                    PRESETS, SimSpec, is_sim, parse_sim, preset_token, prompts_with_runs, repeats,
                                    sim_label, sim_pane)
from specreplay.replay.payload import SPEEDS, player_payload
from specreplay.replay import uploads
from specreplay.replay.source import MAX_UPLOAD_BYTES, bundled_paths, load_bundled, provenance
from specreplay.timeline import decode_rate, first_token_us
from specreplay.views.video_panel import video_export_panel
from specreplay.views.ui import embedded, kind_badge, kind_label, lang, plain, tr

SIM_WORD = kind_label("simulated")
DEFAULT_SIMS = [preset_token(name) for name in PRESETS]
MEDIAN = "median"  # the repeat selectbox's first option: each arm's median repeat
q = st.query_params

st.title(tr("나란히 재생", "Side-by-side replay"))
if not embedded():
    st.caption(tr("같은 프롬프트에 대한 여러 설정(팔)의 스트리밍 출력을 토큰이 실제로 도착한 시각대로 다시 재생합니다. "
                  "재생은 브라우저에서 돌아가므로 서버가 바빠도 끊기지 않습니다.",
                  "Replays the streamed output of several setups (arms) on the same prompt at the times the tokens "
                  "really arrived. Playback runs in your browser, so a busy server cannot make it stutter."))
st.info(tr("두 창이 함께 흐르지만 동시에 돌린 것은 아닙니다. 각 팔은 차례로 따로 녹화했고, 토큰 도착 시각을 하나의 시계 "
           "위에 겹쳐 보여 줍니다.",
           "The panes stream together, but the arms did not run at the same time: each was recorded on its own, one "
           "after another, and their token arrival times are overlaid on one clock."), icon=":material/schedule:")


def _pick_recording() -> tuple[Recording | None, str | None]:
    """The chosen recording and its shareable name (None for an upload, which has no link)."""
    paths = bundled_paths()
    names = [p.stem for p in paths]
    if not paths:
        st.info(tr("아직 번들 녹화가 없습니다. 실제 엔진으로 만든 녹화가 준비되면 recordings/*.jsonl로 여기에 나타납니다. "
                   "그동안 직접 만든 녹화(.jsonl)를 올리거나, 아래의 시뮬레이션 팔(기사 000의 측정값)로 비교해 보세요.",
                   "No bundled recordings yet. Recordings made on a real engine will appear here as recordings/*.jsonl. "
                   "Meanwhile, upload a recording (.jsonl) of your own, or compare the simulated arms below (built "
                   "from article 000's measured figures)."), icon=":material/hourglass_empty:")
    sources = (["bundled"] if paths else []) + ["upload"]
    # format_funcs look labels up in dicts built now: they also run outside the script (AppTest, reruns)
    source_names = {"bundled": tr("번들 녹화", "Bundled"), "upload": tr("내 파일 올리기", "Upload")}
    source = st.radio(tr("녹화", "Recording"), sources, horizontal=True, key="replay_source",
                      format_func=source_names.get)
    if source == "upload":
        up = st.file_uploader(tr("녹화 파일 (.jsonl)", "Recording file (.jsonl)"), type=["jsonl"],
                              help=tr(f"최대 {MAX_UPLOAD_BYTES // 2**20} MiB. 올린 녹화는 링크로 공유되지 않습니다.",
                                      f"Up to {MAX_UPLOAD_BYTES // 2**20} MiB. Uploaded recordings are not shareable "
                                      "by link."))
        if up is None:
            return None, None
        # parsed once per upload, held server-wide within a memory budget (specreplay/replay/uploads.py)
        result = uploads.parsed(up.file_id, up.name, up.getvalue)
        if isinstance(result, RecordingError):
            st.error(plain(str(result), 500), icon=":material/error:")
            return None, None
        if imported_info(result):
            _source_badge(result)
        return result, None
    wanted = q.get("recording")
    if wanted and wanted not in names:
        st.warning(tr(f"URL의 녹화 '{plain(wanted, 60)}'가 없어 첫 번째 녹화를 보여 줍니다.",
                      f"The URL's recording '{plain(wanted, 60)}' does not exist; showing the first one."))
    if "replay_recording" not in st.session_state:
        st.session_state["replay_recording"] = wanted if wanted in names else names[0]
    lines = {p.stem: _provenance_line(str(p), p.stat().st_mtime) for p in paths}
    name = st.selectbox(tr("번들 녹화", "Bundled recording"), names, key="replay_recording",
                        format_func=lambda n: f"{n} — {lines[n]}")
    try:
        rec = load_bundled(name)
    except RecordingError as exc:
        st.error(plain(str(exc), 500), icon=":material/error:")
        return None, None
    _source_badge(rec)
    st.caption(plain(rec.title))
    if rec.timing_only:
        st.warning(tr("타이밍 전용 — 더미 가중치: 실제 모델 모양의 무작위 가중치로 잰 녹화입니다. 시간은 실제 커널 시간이고, "
                      "글자는 의미가 없어 토큰마다 ■로 보여 줍니다.",
                      "Timing only — dummy weights: recorded with random weights of a real model's shapes. The times "
                      "are real kernel timings; the text is noise, so each token shows as ■."),
                   icon=":material/timer:")
    return rec, name


def _source_badge(rec: Recording) -> None:
    """Measured by our recorder, or imported from another tool, with what that tool's file lacks."""
    info = imported_info(rec)
    if not info:
        kind_badge("measured", provenance(rec).line())
        return
    kind_badge("imported", source_line(info))
    st.caption(tr("원본 파일에 없는 것 (만들어 넣지 않았습니다): ", "Not in the source file (nothing was made up): ")
               + " · ".join(plain(str(x)) for x in info.get("lacks", [])))


@st.cache_data(show_spinner=False, max_entries=64)
def _provenance_line(path: str, mtime: float) -> str:
    """Provenance for the list; mtime in the key so a recording still being written is re-read."""
    try:
        return provenance(load(path, repair=True)).line()
    except RecordingError as exc:
        return str(exc)


def _url_arms() -> list[str]:
    """The link's arms: the first few only, so a link with thousands of entries costs no more than a short one."""
    return [a for a in q.get("arms", "").split(",", MAX_URL_ARMS)[:MAX_URL_ARMS] if a]


def _pick_arms(rec: Recording | None, rec_key: str, side: DeltaGenerator) -> tuple[list[str], str | None, int | None]:
    """Arm tokens, prompt id and repeat (None = median) chosen in the widgets, first filled from the URL.

    Prompt and repeat go in the `side` column; the arms take the full width below.
    """
    prompt, repeat = None, None
    recorded = [a["id"] for a in rec.arms] if rec else []
    if rec:
        prompt_ids = prompts_with_runs(rec)
        if not prompt_ids:
            st.warning(tr("이 녹화에는 끝까지 마친 단일 스트림 실행이 없습니다.",
                          "This recording has no finished single-stream run."))
            recorded = []
        else:
            pkey = f"replay_prompt::{rec_key}"
            if pkey not in st.session_state:
                st.session_state[pkey] = q.get("prompt") if q.get("prompt") in prompt_ids else prompt_ids[0]
            prompt = side.selectbox(tr("프롬프트", "Prompt"), prompt_ids, key=pkey,
                                  format_func=lambda p: f"{p} · {rec.prompt(p)['kind']} — {rec.prompt(p)['text'][:70]}")
            recorded = [a for a in recorded if rec.select(a, prompt)]
    # an upload has no link of its own: the URL's arms belong to whatever was shown before it
    url_arms = [] if rec_key.startswith("upload:") else _url_arms()
    custom = [a for a in dict.fromkeys(url_arms + st.session_state.get("replay_custom", [])) if is_sim(a)
              and a.removeprefix("sim:") not in PRESETS and _valid_sim(a)]
    options = recorded + DEFAULT_SIMS + custom
    akey = f"replay_arms::{rec_key}::{prompt}"
    if akey not in st.session_state:
        bad = [a for a in url_arms if a not in options]
        if bad:
            bad_text = plain(", ".join(bad), 120)
            st.warning(tr(f"URL의 팔 {bad_text}은(는) 이 녹화에 없어 뺐습니다.",
                          f"Left out the URL's arms {bad_text}: not in this recording."))
        chosen = [a for a in url_arms if a in options] or (recorded or DEFAULT_SIMS)
        st.session_state[akey] = chosen[:MAX_ARMS]
    else:
        st.session_state[akey] = [a for a in st.session_state[akey] if a in options]
    rec_kind = "imported" if rec and imported_info(rec) else "measured"
    arm_names = {a: sim_label(a, SIM_WORD) if is_sim(a) else f"{rec.arm(a)['label']} ({kind_label(rec_kind)})"
                 for a in options}
    arms = st.multiselect(tr("팔 (2~4개)", "Arms (2–4)"), options, key=akey, max_selections=MAX_ARMS,
                          format_func=arm_names.get)
    chosen_recorded = [a for a in arms if not is_sim(a)]
    if rec and prompt and chosen_recorded:
        reps = repeats(rec, chosen_recorded, prompt)
        rkey = f"replay_repeat::{rec_key}::{prompt}"
        if rkey not in st.session_state:
            url_rep = q.get("repeat", "")
            # ASCII digits, a few of them: int() refuses '²' and 5,000-digit strings with its own words
            st.session_state[rkey] = (int(url_rep) if url_rep.isascii() and url_rep.isdigit() and len(url_rep) <= 6
                                      and int(url_rep) in reps else MEDIAN)
        elif st.session_state[rkey] not in [MEDIAN, *reps]:
            st.session_state[rkey] = MEDIAN  # the newly chosen arms lack that repeat
        rep_names = {MEDIAN: tr("팔마다 중앙값 반복 (디코드 속도 기준)", "each arm's median repeat (by decode speed)"),
                     **{r: tr(f"{r}번째 반복", f"repeat {r}") for r in reps}}
        choice = side.selectbox(tr("반복", "Repeat"), [MEDIAN, *reps], key=rkey, format_func=rep_names.get)
        repeat = None if choice == MEDIAN else int(choice)
    _custom_sim_form(akey)
    return arms, prompt, repeat


def _valid_sim(token: str) -> bool:
    try:
        parse_sim(token)
    except ValueError as exc:
        st.warning(plain(str(exc)))
        return False
    return True


def _custom_sim_form(arms_key: str) -> None:
    """Add a simulated arm from its parameters; it joins the options and the current selection."""
    with st.popover(tr("시뮬레이션 팔 직접 만들기", "Build a simulated arm"), icon=":material/science:"):
        st.caption(tr("디코드 속도·첫 토큰 시간·수용 확률 α·드래프트 길이 γ로 만든 가상의 팔입니다. 실제 텍스트가 없어 "
                      "토큰마다 ■로 표시하며, 어디서나 '시뮬레이션'으로 표시됩니다.",
                      "A made-up arm from decode speed, time to first token, acceptance probability α and draft "
                      "length γ. It has no real text (one ■ per token) and is badged 'simulated' everywhere."))
        cols = st.columns(5)
        tok_s = cols[0].number_input("decode tok/s", MIN_SIM_TOK_S, MAX_SIM_TOK_S, 200.0, key="sim_tok_s")
        ttft = cols[1].number_input("TTFT s", 0.0, MAX_SIM_TTFT_S, 0.6, key="sim_ttft")
        alpha = cols[2].number_input("α", 0.0, 1.0, 0.7, key="sim_alpha")
        gamma = cols[3].number_input("γ", 0, 16, 5, key="sim_gamma")
        tokens = cols[4].number_input(tr("토큰", "tokens"), 1, MAX_SIM_TOKENS, 600, key="sim_tokens")
        token = SimSpec(tok_s, ttft, alpha, int(gamma), int(tokens)).token()
        st.button(tr("이 팔 추가", "Add this arm"), on_click=_add_custom, args=(arms_key, token),
                  disabled=len(st.session_state.get(arms_key, [])) >= MAX_ARMS)


def _add_custom(arms_key: str, token: str) -> None:
    st.session_state["replay_custom"] = [*st.session_state.get("replay_custom", []), token]
    if token not in st.session_state[arms_key]:
        st.session_state[arms_key] = [*st.session_state[arms_key], token]


def _panes(rec: Recording | None, arms: list[str], prompt: str | None, repeat: int | None) -> list[Pane]:
    panes = []
    for arm in arms:
        try:
            panes.append(sim_pane(arm, SIM_WORD) if is_sim(arm) else recorded_arm_pane(rec, arm, prompt, repeat))
        except (LookupError, ValueError) as exc:
            st.warning(plain(str(exc)))
    return panes


def _speed() -> float:
    raw = q.get("speed")
    try:
        speed = float(raw) if raw else 1.0
    except ValueError:
        speed = 0.0
    if speed not in SPEEDS:
        raw = plain(raw or "", 20)
        st.warning(tr(f"URL의 속도 '{raw}'는 쓸 수 없어 1×로 재생합니다 (가능: {', '.join(f'{s:g}' for s in SPEEDS)}).",
                      f"The URL's speed '{raw}' is not offered; playing at 1× (offered: "
                      f"{', '.join(f'{s:g}' for s in SPEEDS)})."))
        return 1.0
    return speed


def _summary(panes: list[Pane], ratios: list[float | None]) -> None:
    """The same figures as the player's counters at the end, as a table (each row says measured or simulated)."""
    st.dataframe(
        # a pane counted in chunks (imported without tokens per chunk) leaves its token cells empty
        [{tr("팔", "arm"): p.label, tr("종류", "kind"): kind_label(p.kind),
          tr("토큰", "tokens"): p.track.tokens if p.counts == "tokens" else None,
          "TTFT s": (first_token_us(p.track) or 0) / 1e6,
          tr("디코드 tok/s", "decode tok/s"): decode_rate(p.track) if p.counts == "tokens" else None,
          tr("가장 느린 팔 대비", "vs slowest"): r, tr("완료 s", "finished s"): p.track.end_us / 1e6}
         for p, r in zip(panes, ratios)],
        hide_index=True, column_config={"TTFT s": st.column_config.NumberColumn(format="%.2f"),
                                        tr("디코드 tok/s", "decode tok/s"): st.column_config.NumberColumn(format="%.1f"),
                                        tr("가장 느린 팔 대비", "vs slowest"): st.column_config.NumberColumn(format="×%.2f"),
                                        tr("완료 s", "finished s"): st.column_config.NumberColumn(format="%.2f")})


def _sync_query(values: dict[str, str | None]) -> None:
    """Mirror the selection into the URL so the link reproduces it (lang is managed by specreplay.views.ui)."""
    for key, value in values.items():
        if value is None:
            if key in q:
                del q[key]
        elif q.get(key) != value:
            q[key] = value


with st.expander(tr("무엇을 재생할까요", "What to replay"), expanded=not embedded(), icon=":material/tune:"):
    left, right = st.columns(2)
    with left:
        rec, rec_name = _pick_recording()
    arms, prompt, repeat = _pick_arms(rec, rec_name or (f"upload:{rec.path}" if rec else "none"), right)
speed = _speed()
_sync_query({"recording": rec_name, "prompt": prompt, "arms": ",".join(arms) or None,
             "repeat": None if repeat is None else str(repeat), "speed": f"{speed:g}"})

panes = _panes(rec, arms, prompt, repeat)
if len(panes) < 2:
    st.info(tr("비교할 팔을 2~4개 고르세요.", "Choose 2–4 arms to compare."), icon=":material/view_column:")
else:
    payload = player_payload(panes, speed=speed, lang=lang())
    st.iframe(player_html(payload), height=560 if embedded() else 640,
              alt=tr("나란히 재생 플레이어", "Side-by-side replay player"))
    if any(p.kind == "simulated" for p in panes):
        kind_badge("simulated", tr("■ 하나가 토큰 하나; 시간은 매개변수로 계산", "one ■ per token; times computed "
                                   "from the parameters"))
    if not embedded():
        title = f"{rec.title} — {prompt}" if rec and prompt else tr("나란히 재생", "Side-by-side replay")
        st.download_button(tr("이 재생을 HTML 파일 하나로 내려받기", "Download this replay as one HTML file"),
                           standalone_html(panes, title=title, rec=rec, lang=lang(), speed=speed),
                           file_name=f"{rec_name or 'replay'}-{prompt or 'simulated'}.html", mime="text/html",
                           on_click="ignore", icon=":material/download:",
                           help=tr("네트워크 없이 열리는 파일 하나입니다. 블로그에는 <iframe>으로 넣으세요 (docs/interop.md).",
                                   "One file that plays offline; embed it in a blog with an <iframe> (docs/interop.md)."))
        _summary(panes, [p["ratio"] for p in payload["panes"]])
        video_export_panel(panes, speed)  # the same panes, rendered to MP4/GIF frame-exactly from the same rule
