"""Side-by-side replay: recorded arms (and simulated ones) streaming on one clock, played in the browser."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from specreplay.export_html import standalone_html
from specreplay.format import Recording, RecordingError, load
from specreplay.imported import imported_info, source_line
from specreplay.panes import Pane, recorded_arm_pane
from specreplay.playback import SPEEDS, default_speed, speed_note
from specreplay.replay.default import Choice, choose, choose_in, story_arms
from specreplay.replay.html import player_html
from specreplay.replay.arms import (MAX_ARMS, MAX_SIM_TOK_S, MAX_SIM_TOKENS, MAX_SIM_TTFT_S, MAX_URL_ARMS, MIN_SIM_TOK_S,
                                    PRESETS, SimSpec, is_sim, parse_sim, preset_token, prompts_with_runs, repeats,
                                    sim_label, sim_pane)
from specreplay.replay.levels import LevelKey, default_keys, has_levels, level_keys, level_pane, parse_token
from specreplay.replay.payload import player_payload
from specreplay.replay import uploads
from specreplay.replay.source import MAX_UPLOAD_BYTES, bundled_paths, load_bundled, provenance
from specreplay.speedup import speedups
from specreplay.timeline import decode_rate, first_token_us
from specreplay.views.video_panel import video_export_panel
from specreplay.views.ui import Kind, embedded, kind_badge, kind_label, lang, plain, tr

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
loading = st.empty()  # shown while the recording loads and the panes are built; the player replaces it
loading.caption(tr("⏳ 플레이어를 불러오는 중…", "⏳ Loading the player…"))


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
        rule = default_choice(tuple(str(p) for p in paths), tuple(p.stat().st_mtime for p in paths))
        st.session_state["replay_recording"] = wanted if wanted in names else (rule.recording if rule else names[0])
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
        st.warning(tr("타이밍 전용: 시간은 실제 엔진의 시간이지만 글자는 모델의 답이 아닙니다 (실제 모델 모양의 무작위 가중치, "
                      "또는 벤치마크용으로 수용 길이를 정해 둔 모드). 그래서 토큰마다 ■로 보여 줍니다.",
                      "Timing only: the times are the real engine's, but the text is not the model's answer (random "
                      "weights of a real model's shapes, or a benchmark mode that sets the acceptance length), so each "
                      "token shows as ■."),
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
               + " · ".join(plain(x) for x in info.lacks))


@st.cache_data(show_spinner=False, max_entries=8)
def default_choice(paths: tuple[str, ...], mtimes: tuple[float, ...]) -> Choice | None:
    """The rule's recording, prompt and arms (specreplay.replay.default); mtimes in the key so a changed file counts."""
    return choose([Path(p) for p in paths])


@st.cache_data(show_spinner=False, max_entries=32)
def _rule_for(name: str, path: str, mtime: float) -> Choice | None:
    """The rule's prompt and arms within one recording."""
    try:
        return choose_in(name, load(path, repair=True))
    except RecordingError:
        return None


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
    rule = _rule_for(rec_key, str(rec.path), Path(rec.path).stat().st_mtime) \
        if rec and not rec_key.startswith("upload:") else None
    if rec:
        prompt_ids = prompts_with_runs(rec)
        if not prompt_ids:
            st.warning(tr("이 녹화에는 끝까지 마친 단일 스트림 실행이 없습니다.",
                          "This recording has no finished single-stream run."))
            recorded = []
        else:
            pkey = f"replay_prompt::{rec_key}"
            if pkey not in st.session_state:
                st.session_state[pkey] = q.get("prompt") if q.get("prompt") in prompt_ids else (
                    rule.prompt if rule else prompt_ids[0])
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
        # the written rule's arms (specreplay.replay.default): the story's clean rungs, reference first
        ruled = list(rule.arms) if rule and rule.prompt == prompt else (story_arms(rec, prompt) if rec and prompt else [])
        chosen = [a for a in url_arms if a in options] or (ruled if len(ruled) > 1 else recorded) or DEFAULT_SIMS
        st.session_state[akey] = chosen[:MAX_ARMS]
    else:
        st.session_state[akey] = [a for a in st.session_state[akey] if a in options]
    rec_kind: Kind = "imported" if rec and imported_info(rec) else "measured"
    arm_names = {a: sim_label(a, SIM_WORD) for a in options if is_sim(a)}
    if rec:
        arm_names |= {a: f"{rec.arm(a)['label']} ({kind_label(rec_kind)})" for a in recorded}
    arms = st.multiselect(tr("팔 (2~4개)", "Arms (2–4)"), options, key=akey, max_selections=MAX_ARMS,
                          format_func=lambda a: arm_names[a])
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
        rep_names: dict[str | int, str] = {MEDIAN: tr("팔마다 중앙값 반복 (디코드 속도 기준)", "each arm's median repeat (by decode speed)"),
                     **{r: tr(f"{r}번째 반복", f"repeat {r}") for r in reps}}
        choice = side.selectbox(tr("반복", "Repeat"), list(rep_names), key=rkey, format_func=lambda r: rep_names[r])
        repeat = choice if isinstance(choice, int) else None  # MEDIAN or a repeat number
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
            if is_sim(arm):
                panes.append(sim_pane(arm, SIM_WORD))
            elif rec and prompt:  # a recorded arm is offered only once a recording and its prompt are chosen
                panes.append(recorded_arm_pane(rec, arm, prompt, repeat))
        except (LookupError, ValueError) as exc:
            st.warning(plain(str(exc)))
    return panes


def _speed(default: float) -> float:
    """The URL's speed, else the rule's opening speed for this replay (specreplay.playback.default_speed)."""
    raw = q.get("speed")
    if not raw:
        return default
    try:
        speed = float(raw) if len(raw) <= 20 else 0.0
    except ValueError:
        speed = 0.0
    if speed not in SPEEDS:
        raw = plain(raw or "", 20)
        st.warning(tr(f"URL의 속도 '{raw}'는 쓸 수 없어 {default:g}×로 재생합니다 (가능: {', '.join(f'{s:g}' for s in SPEEDS)}).",
                      f"The URL's speed '{raw}' is not offered; playing at {default:g}× (offered: "
                      f"{', '.join(f'{s:g}' for s in SPEEDS)})."))
        return default
    return speed


def _summary(panes: list[Pane], data: dict) -> None:
    """The same figures as the player's counters at the end, as a table (each row says measured or simulated)."""
    ref = data["reference"]
    vs = tr("기준 팔 대비 (디코드 속도 비)", "vs reference (decode rate ratio)")
    st.dataframe(
        # a pane counted in chunks (imported without tokens per chunk) leaves its token cells empty
        [{tr("팔", "arm"): p.label, tr("종류", "kind"): kind_label(p.kind),
          tr("토큰", "tokens"): p.track.tokens if p.counts == "tokens" else None,
          "TTFT s": (first_token_us(p.track) or 0) / 1e6,
          tr("디코드 tok/s", "decode tok/s"): decode_rate(p.track) if p.counts == "tokens" else None,
          vs: pp["ratio"], tr("완료 s", "finished s"): p.track.end_us / 1e6,
          tr("경고", "warnings"): " · ".join(pp["warnings"]) or None}
         for p, pp in zip(panes, data["panes"])],
        hide_index=True, column_config={"TTFT s": st.column_config.NumberColumn(format="%.2f"),
                                        tr("디코드 tok/s", "decode tok/s"): st.column_config.NumberColumn(format="%.1f"),
                                        vs: st.column_config.NumberColumn(format="×%.2f"),
                                        tr("완료 s", "finished s"): st.column_config.NumberColumn(format="%.2f")})
    if ref is not None:
        st.caption(tr(f"배수 = 디코드 속도 ÷ 기준 팔({panes[ref].label})의 디코드 속도 (첫 토큰 제외, 각 팔의 중앙값 반복).",
                      f"Speedup = decode rate ÷ the reference arm's ({panes[ref].label}) decode rate (first token "
                      "excluded, each arm's median repeat)."))


def _sync_query(values: dict[str, str | None]) -> None:
    """Mirror the selection into the URL so the link reproduces it (lang is managed by specreplay.views.ui)."""
    for key, value in values.items():
        if value is None:
            if key in q:
                del q[key]
        elif q.get(key) != value:
            q[key] = value


def _pick_levels(rec: Recording, rec_key: str, side: DeltaGenerator) -> list[LevelKey]:
    """Arm × concurrency level pairs to play side by side (1–4), first filled from the URL's ?levels=."""
    keys = level_keys(rec)
    tokens = [k.token() for k in keys]
    lkey = f"replay_levels::{rec_key}"
    if lkey not in st.session_state:
        url = [t for t in q.get("levels", "").split(",") if t]
        bad = [t for t in url if t not in tokens]
        if bad:
            st.warning(tr(f"URL의 동시 요청 단계 {plain(', '.join(bad), 120)}은(는) 이 녹화에 없어 뺐습니다.",
                          f"Left out the URL's levels {plain(', '.join(bad), 120)}: not in this recording."))
        chosen = [t for t in url if t in tokens] or [k.token() for k in default_keys(rec)]
        st.session_state[lkey] = chosen[:MAX_ARMS]
    names = {}
    for k in keys:
        label = rec.arm(k.arm)["label"]
        names[k.token()] = tr(f"{label} · 동시 요청 {k.concurrency}개", f"{label} · {k.concurrency} concurrent") \
            + (f" · {k.mix}" if k.mix else "")
    chosen = st.multiselect(tr("팔 × 동시 요청 수 (1~4개)", "Arm × concurrency level (1–4)"), tokens, key=lkey,
                            max_selections=MAX_ARMS, format_func=lambda t: names[t])
    side.caption(tr("각 창은 그 단계의 요청 하나(디코드 속도 중앙값)를 재생하고, 아래에 그 단계 전체 요청의 출력 tok/s 합을 "
                    "보여 줍니다.",
                    "Each pane plays one request of its level (the median decode rate); underneath runs the level's "
                    "total output tok/s, all requests together."))
    return [lk for t in chosen if (lk := parse_token(t))]


def _pick_mode(rec: Recording | None, side: DeltaGenerator) -> str:
    """'prompt' (arms on one prompt, single stream) or 'levels' (one request at several concurrency levels)."""
    if rec is None or not has_levels(rec):
        return "prompt"
    if not prompts_with_runs(rec):
        return "levels"
    modes = {"prompt": tr("한 프롬프트, 요청 하나씩", "One prompt, one request at a time"),
             "levels": tr("동시 요청 수별", "By concurrency level")}
    if "replay_mode" not in st.session_state:
        st.session_state["replay_mode"] = "levels" if q.get("mode") == "levels" else "prompt"
    return side.radio(tr("재생 방식", "Replay"), list(modes), key="replay_mode", format_func=modes.get)


arms: list[str]
prompt: str | None
repeat: int | None
level_choice: list[LevelKey]
with st.expander(tr("무엇을 재생할까요", "What to replay"), expanded=not embedded(), icon=":material/tune:"):
    left, right = st.columns(2)
    with left:
        rec, rec_name = _pick_recording()
    rec_key = rec_name or (f"upload:{rec.path}" if rec else "none")
    mode = _pick_mode(rec, right)
    if mode == "levels" and rec is not None:
        level_choice = _pick_levels(rec, rec_key, right)
        arms, prompt, repeat = [], None, None
    else:
        level_choice = []
        arms, prompt, repeat = _pick_arms(rec, rec_key, right)

if mode == "levels" and rec is not None:
    panes = []
    for key in level_choice:
        try:
            panes.append(level_pane(rec, key))
        except LookupError as exc:
            st.warning(plain(str(exc)))
else:
    panes = _panes(rec, arms, prompt, repeat)
end_us = max((p.track.end_us for p in panes), default=0)
speed = _speed(default_speed(end_us))
enough = len(panes) >= (1 if mode == "levels" else 2)
reference: int | None = None
if enough and len(panes) > 1 and not embedded():
    auto = speedups(panes)[0]
    ref_names = {i: p.label + (f" · {p.level}" if p.level else "") for i, p in enumerate(panes)}
    rkey = f"replay_ref::{rec_key}::{prompt}::{','.join(p.key for p in panes)}"
    if rkey not in st.session_state:
        url_ref = q.get("ref", "")
        st.session_state[rkey] = int(url_ref) if url_ref.isdigit() and int(url_ref) < len(panes) else (auto or 0)
    reference = st.selectbox(tr("배수의 기준 팔", "Speedups are relative to"), list(ref_names), key=rkey,
                             format_func=lambda i: ref_names[i],
                             help=tr("배수 = 디코드 속도 ÷ 이 팔의 디코드 속도. 기본은 다른 팔들이 기준(baseline)으로 삼는 팔.",
                                     "Speedup = decode rate ÷ this arm's decode rate. By default, the arm the others "
                                     "name as their baseline."))
    reference = None if reference == auto else reference
_sync_query({"recording": rec_name, "mode": "levels" if mode == "levels" else None, "prompt": prompt,
             "arms": ",".join(arms) or None, "levels": ",".join(k.token() for k in level_choice) or None,
             "repeat": None if repeat is None else str(repeat),
             "speed": None if speed == default_speed(end_us) else f"{speed:g}",
             "ref": None if reference is None else str(reference)})

if not enough:
    loading.empty()
    st.info(tr("비교할 팔을 2~4개 고르세요.", "Choose 2–4 arms to compare."), icon=":material/view_column:")
else:
    payload = player_payload(panes, speed=speed, lang=lang(), reference=reference)
    if speed < 1:
        st.caption(tr(f"이 재생은 몇 초 만에 끝나서 느리게 엽니다: {speed_note(speed, 'ko')}. 속도는 플레이어에서 바꿀 수 있습니다.",
                      f"This replay is over within seconds, so it opens slowed down: {speed_note(speed, 'en')}. "
                      "Change the speed in the player."))
    st.iframe(player_html(payload), height=560 if embedded() else 640,
              alt=tr("나란히 재생 플레이어", "Side-by-side replay player"))
    loading.empty()
    if any(p.kind == "simulated" for p in panes):
        kind_badge("simulated", tr("■ 하나가 토큰 하나; 시간은 매개변수로 계산", "one ■ per token; times computed "
                                   "from the parameters"))
    if not embedded():
        title = f"{rec.title} — {prompt or tr('동시 요청 수별', 'by concurrency level')}" if rec \
            else tr("나란히 재생", "Side-by-side replay")
        st.download_button(tr("이 재생을 HTML 파일 하나로 내려받기", "Download this replay as one HTML file"),
                           standalone_html(panes, title=title, rec=rec, lang=lang(), speed=speed,
                                           reference=reference),
                           file_name=f"{rec_name or 'replay'}-{prompt or mode}.html", mime="text/html",
                           on_click="ignore", icon=":material/download:",
                           help=tr("네트워크 없이 열리는 파일 하나입니다. 블로그에는 <iframe>으로 넣으세요 (docs/interop.md).",
                                   "One file that plays offline; embed it in a blog with an <iframe> (docs/interop.md)."))
        _summary(panes, payload)
        # the same panes, rendered to MP4/GIF frame-exactly from the same rule
        video_export_panel(panes, speed, reference=reference)
