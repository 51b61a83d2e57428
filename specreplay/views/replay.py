"""Side-by-side replay: recorded arms (and simulated ones) streaming on one clock, played in the browser."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from specreplay.explain import ceiling
from specreplay.importers.imported import imported_info, source_line
from specreplay.recording import catalogue
from specreplay.recording.format import Recording, RecordingError
from specreplay.replay.arms import (
    MAX_ARMS,
    MAX_SIM_TOK_S,
    MAX_SIM_TOKENS,
    MAX_SIM_TTFT_S,
    MAX_URL_ARMS,
    MIN_SIM_TOK_S,
    PRESETS,
    SimSpec,
    is_sim,
    parse_sim,
    preset_token,
    prompts_with_runs,
    repeats,
    sim_label,
)
from specreplay.replay.default import Choice, choose
from specreplay.replay.export_html import standalone_html
from specreplay.replay.labels import shared_tail
from specreplay.replay.levels import LevelKey, default_keys, has_levels, level_keys, level_pane, parse_token
from specreplay.replay.panes import Pane
from specreplay.replay.payload import player_payload
from specreplay.replay.playback import SPEEDS, default_speed, speed_note
from specreplay.replay.selection import Selection, default_arms, default_prompt
from specreplay.replay.source import MAX_UPLOAD_BYTES, load_bundled, provenance
from specreplay.replay.speedup import speedups
from specreplay.replay.timeline import decode_rate, first_token_us
from specreplay.replay.titles import title as recording_title
from specreplay.views import url_state
from specreplay.views.player_frame import player_frame
from specreplay.views.tables import table
from specreplay.views.texts import Texts
from specreplay.views.ui import embedded, kind_badge, kind_label, kind_markdown, lang, plain, recorded_with
from specreplay.views.uploaded import parsed_upload
from specreplay.views.video_panel import video_export_panel
from specreplay.words import arm_label

T = Texts("replay")

SIM_WORD = kind_label("simulated")
DEFAULT_SIMS = [preset_token(name) for name in PRESETS]
MEDIAN = "median"  # the repeat selectbox's first option: each arm's median repeat
# The URL keys read as numbers, each validated once (the others name arms, prompts and files, checked against them)
REPEAT = url_state.Control("repeat", url_state.digits, None)
REF = url_state.Control("ref", url_state.digits, None)
SPEED = url_state.Control("speed", float, None, options=SPEEDS)  # read here; the player's embed.js writes it
q = st.query_params

st.title(T("title"))
if not embedded():
    st.caption(T("intro"))
st.info(T("not_simultaneous"), icon=":material/schedule:")
stage = st.container()  # the player, above the choices: on the first screen at every width
loading = stage.empty()  # shown while the recording loads and the panes are built; the player replaces it
loading.caption(T("loading"))


def _pick_recording() -> tuple[Recording | None, str | None]:
    """The chosen recording and its shareable name (None for an upload, which has no link)."""
    entries = catalogue.entries()  # header lines only: the list parses no file
    paths = [e.path for e in entries]
    names = [e.name for e in entries]
    if not paths:
        st.info(T("no_bundled"), icon=":material/hourglass_empty:")
    sources = (["bundled"] if paths else []) + ["upload"]
    # format_funcs look labels up in dicts built now: they also run outside the script (AppTest, reruns)
    source_names = {"bundled": T("src_bundled"), "upload": T("src_upload")}
    source = st.radio(T("recording"), sources, horizontal=True, key="replay_source",
                      format_func=source_names.get)
    if source == "upload":
        up = st.file_uploader(T("upload_file"), type=["jsonl"], help=T("upload_help", mib=MAX_UPLOAD_BYTES // 2**20))
        if up is None:
            return None, None
        result = parsed_upload(up)  # parsed once per upload, held server-wide while its visitors are connected
        if isinstance(result, RecordingError):
            st.error(plain(str(result), 500), icon=":material/error:")
            return None, None
        if imported_info(result):
            _source_badge(result)
        return result, None
    wanted = q.get("recording")
    if wanted and wanted not in names:
        st.warning(T("url_recording_missing", name=plain(wanted, 60)))
    if "replay_recording" not in st.session_state:
        rule = default_choice(tuple(str(p) for p in paths), tuple(p.stat().st_mtime for p in paths))
        st.session_state["replay_recording"] = wanted if wanted in names else (rule.recording if rule else names[0])
    lines = {e.name: provenance(e.header).line() if e.header else e.problem for e in entries}
    name = st.selectbox(T("bundled_recording"), names, key="replay_recording",
                        format_func=lambda n: f"{n} — {lines[n]}")
    try:
        rec = load_bundled(name)
    except RecordingError as exc:
        st.error(plain(str(exc), 500), icon=":material/error:")
        return None, None
    _source_badge(rec)
    st.caption(plain(recording_title(rec, lang())))
    if rec.timing_only:
        st.warning(T("timing_only"), icon=":material/timer:")
    return rec, name


def _source_badge(rec: Recording) -> None:
    """Measured by our recorder, or imported from another tool, with what that tool's file lacks."""
    info = imported_info(rec)
    if not info:
        kind_badge(rec.kind(), provenance(rec.header).line())
        st.caption(recorded_with(list(rec.arms)))
        return
    kind_badge("imported", source_line(info))
    st.caption(T("not_in_source") + " · ".join(plain(x) for x in info.lacks))


@st.cache_data(show_spinner=False, max_entries=8)
def default_choice(paths: tuple[str, ...], mtimes: tuple[float, ...]) -> Choice | None:
    """The rule's recording, prompt and arms (specreplay.replay.default); mtimes in the key so a changed file counts."""
    return choose([Path(p) for p in paths])


@st.cache_data(show_spinner=False, max_entries=32)
def _default_prompt(name: str, path: str, mtime: float) -> str:
    """The written rule's prompt of a bundled recording (specreplay.replay.selection), once per file version."""
    return default_prompt(load_bundled(name))


def _url_arms() -> list[str]:
    """The link's arms: the first few only, so a link with thousands of entries costs no more than a short one."""
    return [a for a in q.get("arms", "").split(",", MAX_URL_ARMS)[:MAX_URL_ARMS] if a]


def _pick_arms(rec: Recording | None, rec_key: str, side: DeltaGenerator) -> tuple[list[str], str | None, int | None]:
    """Arm tokens, prompt id and repeat (None = median) chosen in the widgets, first filled from the URL.

    Prompt and repeat go in the `side` column; the arms take the full width below.
    """
    prompt, repeat = None, None
    recorded = [a.id for a in rec.arms] if rec else []
    upload = rec_key.startswith("upload:")
    if rec:
        prompt_ids = prompts_with_runs(rec)
        if not prompt_ids:
            st.warning(T("no_single_stream"))
            recorded = []
        else:
            pkey = f"replay_prompt::{rec_key}"
            if pkey not in st.session_state:
                st.session_state[pkey] = q.get("prompt") if q.get("prompt") in prompt_ids else (
                    default_prompt(rec) if upload else _default_prompt(rec_key, str(rec.path),
                                                                       Path(rec.path).stat().st_mtime))
            prompt_names = {p: f"{p} · {rec.prompt(p).kind} — {rec.prompt(p).text[:70]}" for p in prompt_ids}
            prompt = side.selectbox(T("prompt"), prompt_ids, key=pkey, format_func=lambda p: prompt_names[p])
            recorded = [a for a in recorded if rec.select(a, prompt)]
    # an upload has no link of its own: the URL's arms belong to whatever was shown before it
    url_arms = [] if upload else _url_arms()
    custom = [a for a in dict.fromkeys(url_arms + st.session_state.get("replay_custom", [])) if is_sim(a)
              and a.removeprefix("sim:") not in PRESETS and _valid_sim(a)]
    options = recorded + DEFAULT_SIMS + custom
    akey = f"replay_arms::{rec_key}::{prompt}"
    if akey not in st.session_state:
        bad = [a for a in url_arms if a not in options]
        if bad:
            bad_text = plain(", ".join(bad), 120)
            st.warning(T("url_arms_left_out", arms=bad_text))
        # the one default (specreplay.replay.selection, as export-html and video): the story's clean rungs
        chosen = [a for a in url_arms if a in options] or (default_arms(rec, prompt) if rec and prompt else []) \
            or DEFAULT_SIMS
        st.session_state[akey] = chosen[:MAX_ARMS]
    else:
        st.session_state[akey] = [a for a in st.session_state[akey] if a in options]
    arm_names = {a: sim_label(a, SIM_WORD) for a in options if is_sim(a)}
    if rec:
        arm_names |= {a: f"{arm_label(rec.arm(a).label, lang())} ({kind_label(rec.kind(a))})" for a in recorded}
    arms = st.multiselect(T("arms"), options, key=akey, max_selections=MAX_ARMS,
                          format_func=lambda a: arm_names[a])
    chosen_recorded = [a for a in arms if not is_sim(a)]
    if rec and prompt and chosen_recorded:
        reps = repeats(rec, chosen_recorded, prompt)
        rkey = f"replay_repeat::{rec_key}::{prompt}"
        if rkey not in st.session_state:
            url_rep = url_state.given(REPEAT)[0]
            st.session_state[rkey] = url_rep if url_rep in reps else MEDIAN
        elif st.session_state[rkey] not in [MEDIAN, *reps]:
            st.session_state[rkey] = MEDIAN  # the newly chosen arms lack that repeat
        rep_names: dict[str | int, str] = {MEDIAN: T("median_repeat"), **{r: T("repeat_n", n=r) for r in reps}}
        choice = side.selectbox(T("repeat"), list(rep_names), key=rkey, format_func=lambda r: rep_names[r])
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
    with st.popover(T("build_sim"), icon=":material/science:"):
        st.caption(T("build_sim_help"))
        cols = st.columns(5)
        tok_s = cols[0].number_input(T("sim_decode"), MIN_SIM_TOK_S, MAX_SIM_TOK_S, 200.0, key="sim_tok_s")
        ttft = cols[1].number_input("TTFT s", 0.0, MAX_SIM_TTFT_S, 0.6, key="sim_ttft")
        alpha = cols[2].number_input("α", 0.0, 1.0, 0.7, key="sim_alpha")
        gamma = cols[3].number_input("γ", 0, 16, 5, key="sim_gamma")
        tokens = cols[4].number_input(T("tokens"), 1, MAX_SIM_TOKENS, 600, key="sim_tokens")
        token = SimSpec(tok_s, ttft, alpha, int(gamma), int(tokens)).token()
        st.button(T("add_arm"), on_click=_add_custom, args=(arms_key, token),
                  disabled=len(st.session_state.get(arms_key, [])) >= MAX_ARMS)


def _add_custom(arms_key: str, token: str) -> None:
    st.session_state["replay_custom"] = [*st.session_state.get("replay_custom", []), token]
    if token not in st.session_state[arms_key]:
        st.session_state[arms_key] = [*st.session_state[arms_key], token]


def _panes(rec: Recording | None, arms: list[str], prompt: str | None, repeat: int | None) -> list[Pane]:
    """The chosen arms' panes, through the one Selection (as export-html and video build theirs); an arm that
    cannot be shown is a line, not an error."""
    chosen = Selection(prompt or "", tuple(arms), repeat)
    panes = []
    for arm in arms:
        if not is_sim(arm) and not (rec and prompt):
            continue  # a recorded arm is offered only once a recording and its prompt are chosen
        try:
            panes.append(chosen.pane(rec, arm, SIM_WORD))
        except (LookupError, ValueError) as exc:
            st.warning(plain(str(exc)))
    return panes


def _speed(default: float) -> float:
    """The URL's speed, else the rule's opening speed for this replay (specreplay.replay.playback.default_speed)."""
    speed, bad = url_state.given(SPEED)
    if bad is not None:
        st.warning(T("url_speed_bad", raw=plain(bad, 20), default=default,
                     offered=", ".join(f"{s:g}" for s in SPEEDS)))
    return default if speed is None else speed


def _ceiling(rec: Recording | None, pane: Pane, prompt: str | None) -> str:
    """A recorded pane's share of its physics ceiling (specreplay.explain.ceiling), at the pane's own decode rate."""
    if rec is None or prompt is None or pane.kind != "measured" or pane.level is not None:
        return "—"
    return ceiling.percent(ceiling.ceiling(rec, pane.arm, prompt), decode_rate(pane.track))


ARM_WIDTH = 140  # px: the pinned arm column, so at a phone's width "× vs" and "% of ceiling" show beside it
WRAP_ROW = 66  # px: a row this tall wraps its text (Streamlit wraps above 4 rem), so a narrow arm cell keeps its words
LINE_PX = 20  # one wrapped line of a table cell
LINE_UNITS = 14  # what one line of the arm column holds, in Latin letters (a Hangul syllable is about two), with room
#                  for breaking between words


def _row_height(labels: list[str]) -> int:
    """Tall enough for the longest arm label wrapped in the arm column (every row of a table is one height)."""
    units = max((sum(2 if ord(ch) > 0x3000 else 1 for ch in label) for label in labels), default=0)
    return max(WRAP_ROW, 8 + LINE_PX * -(-units // LINE_UNITS))


def _summary(panes: list[Pane], data: dict, rec: Recording | None, prompt: str | None) -> None:
    """The same figures as the player's counters at the end, as a table (each row says measured or simulated)."""
    ref = data["reference"]
    vs, arm = T("col_vs_ref"), T("col_arm")
    labels, shared = shared_tail([pp["label"] for pp in data["panes"]])  # the model every arm runs, said once
    table(
        # the arm's differing words first (the player's label), then the two figures the table exists for; a pane
        # counted in chunks (imported without tokens per chunk) leaves its token cells empty, the reference its
        # multiplier
        [{arm: label, vs: pp["ratio"], T("col_ceiling"): _ceiling(rec, p, prompt),
          T("col_kind"): kind_label(p.kind), T("tokens"): p.track.tokens if p.counts == "tokens" else None,
          "TTFT s": (first_token_us(p.track) or 0) / 1e6,
          T("col_decode"): decode_rate(p.track) if p.counts == "tokens" else None,
          T("col_finished"): p.track.end_us / 1e6, T("col_warnings"): " · ".join(pp["warnings"]) or None}
         for p, pp, label in zip(panes, data["panes"], labels)],
        row_height=_row_height(labels),
        column_config={arm: st.column_config.TextColumn(width=ARM_WIDTH),
                       "TTFT s": st.column_config.NumberColumn(format="%.2f"),
                       T("col_decode"): st.column_config.NumberColumn(format="%.1f"),
                       vs: st.column_config.NumberColumn(format="×%.2f"),
                       T("col_finished"): st.column_config.NumberColumn(format="%.2f")})
    if shared:
        st.caption(T("shared_model", model=shared))
    if ref is not None:
        st.caption(T("speedup_caption", ref=arm_label(panes[ref].label, lang())))
    st.caption(f"{kind_markdown('computed')} " + T("ceiling_caption"))


def _pick_levels(rec: Recording, rec_key: str, side: DeltaGenerator) -> list[LevelKey]:
    """Arm × concurrency level pairs to play side by side (1–4), first filled from the URL's ?levels=."""
    keys = level_keys(rec)
    tokens = [k.token() for k in keys]
    lkey = f"replay_levels::{rec_key}"
    if lkey not in st.session_state:
        url = [t for t in q.get("levels", "").split(",") if t]
        bad = [t for t in url if t not in tokens]
        if bad:
            st.warning(T("url_levels_left_out", levels=plain(", ".join(bad), 120)))
        chosen = [t for t in url if t in tokens] or [k.token() for k in default_keys(rec)]
        st.session_state[lkey] = chosen[:MAX_ARMS]
    names = {}
    for k in keys:
        label = rec.arm(k.arm).label
        names[k.token()] = T("level_name", label=label, n=k.concurrency) + (f" · {k.mix}" if k.mix else "")
    chosen = st.multiselect(T("levels"), tokens, key=lkey, max_selections=MAX_ARMS, format_func=lambda t: names[t])
    side.caption(T("levels_caption"))
    return [lk for t in chosen if (lk := parse_token(t))]


def _pick_mode(rec: Recording | None, side: DeltaGenerator) -> str:
    """'prompt' (arms on one prompt, single stream) or 'levels' (one request at several concurrency levels)."""
    if rec is None or not has_levels(rec):
        return "prompt"
    if not prompts_with_runs(rec):
        return "levels"
    modes = {"prompt": T("mode_prompt"), "levels": T("mode_levels")}
    if "replay_mode" not in st.session_state:
        st.session_state["replay_mode"] = "levels" if q.get("mode") == "levels" else "prompt"
    return side.radio(T("mode"), list(modes), key="replay_mode", format_func=modes.get)


def _page() -> None:
    """The page's flow. In a function, not at module level: the widgets' format functions outlive the run (a
    disconnected visitor's session keeps them), and module-level names would keep the parsed recording with them.
    """
    arms: list[str]
    prompt: str | None
    repeat: int | None
    level_choice: list[LevelKey]
    with st.expander(T("what"), expanded=not embedded(), icon=":material/tune:"):
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
        ref_names = {i: arm_label(p.label, lang()) + (f" · {p.level}" if p.level else "") for i, p in enumerate(panes)}
        rkey = f"replay_ref::{rec_key}::{prompt}::{','.join(p.key for p in panes)}"
        if rkey not in st.session_state:
            url_ref = url_state.given(REF)[0]
            st.session_state[rkey] = url_ref if url_ref is not None and url_ref < len(panes) else (auto or 0)
        reference = st.selectbox(T("reference"), list(ref_names), key=rkey,
                                 format_func=lambda i: ref_names[i],
                                 help=T("reference_help"))
        reference = None if reference == auto else reference
    url_state.mirror({"recording": rec_name, "mode": "levels" if mode == "levels" else None, "prompt": prompt,
                 "arms": ",".join(arms) or None, "levels": ",".join(k.token() for k in level_choice) or None,
                 "repeat": None if repeat is None else str(repeat),
                 "ref": None if reference is None else str(reference)})

    if not enough:
        loading.empty()
        st.info(T("choose_arms"), icon=":material/view_column:")
    else:
        payload = player_payload(panes, speed=speed, lang=lang(), reference=reference)
        loading.empty()
        with stage:
            if speed < 1:
                st.caption(T("slowed", note=speed_note(speed, lang())))
            player_frame(payload, height=560 if embedded() else 640, alt=T("player_alt"))
        for label, defect in dict.fromkeys((p.label, p.defect) for p in panes if p.defect):  # the fix, as a link
            st.caption(":material/bug_report: " + T("defect", arm=label, defect=defect.markdown(lang())))
        if any(p.kind == "simulated" for p in panes):
            kind_badge("simulated", T("sim_badge"))
        if not embedded():
            title = f"{recording_title(rec, lang())} — {prompt or T('by_level')}" if rec else T("title")
            st.download_button(T("download_html"),
                               standalone_html(panes, title=title, rec=rec, lang=lang(), speed=speed,
                                               reference=reference),
                               file_name=f"{rec_name or 'replay'}-{prompt or mode}.html", mime="text/html",
                               on_click="ignore", icon=":material/download:",
                               help=T("download_html_help"))
            _summary(panes, payload, rec, prompt)
            # the same panes, rendered to MP4/GIF frame-exactly from the same rule
            video_export_panel(panes, speed, reference=reference)


_page()
