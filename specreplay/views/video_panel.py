"""Streamlit widget: export the replay on screen as an MP4 or GIF, rendered in the background.

A render runs in a thread so the page stays responsive; a fragment polls its
progress. Jobs live in a process-wide registry keyed by everything that
determines the file (panes, format, size, fps, speed, language), so reruns,
page switches and other sessions asking for the same video reuse the finished
file instead of rendering again.
"""

from __future__ import annotations

import atexit
import hashlib
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from specreplay.replay.panes import Pane
from specreplay.replay.playback import speed_note
from specreplay.video.encode import GIF_FPS
from specreplay.video.plan import DEFAULT_FPS, PRESETS, check_length, parse_speed
from specreplay.video.render import render
from specreplay.views.texts import Texts
from specreplay.views.ui import lang

MP4_FPS = (24, 30, 60)
MAX_JOBS = 8  # finished files kept on disk; the oldest is dropped first
MAX_RUNNING = 2  # renders at once, server-wide: each takes a core
MAX_WAITING = 4  # renders queued behind them; more are refused with "busy, try again"
ABANDON_S = 15.0  # a render nobody has looked at for this long is cancelled (the visitor left)
MIME = {"mp4": "video/mp4", "gif": "image/gif"}
T = Texts("replay")  # the replay page's words: this panel is drawn under its player


class Cancelled(Exception):
    """Raised inside a render whose visitor left or started another one."""


class Busy(Exception):
    """The server-wide render queue is full."""


@dataclass
class Job:
    path: Path
    owner: str
    done: int = 0
    total: int = 0
    error: str | None = None
    finished: bool = False
    started: bool = False  # holds a render slot (False while queued)
    cancel: threading.Event = field(default_factory=threading.Event, repr=False)
    last_seen: float = field(default_factory=time.monotonic)
    thread: threading.Thread | None = field(default=None, repr=False)

    @property
    def running(self) -> bool:
        """Queued or rendering."""
        return not self.finished and self.error is None


_JOBS: dict[str, Job] = {}
_LOCK = threading.Lock()
_DIR_LOCK = threading.Lock()
_SLOTS = threading.BoundedSemaphore(MAX_RUNNING)
_DIR: list[Path] = []  # the server's video folder, made on the first render and removed when the process ends


def video_dir() -> Path:
    """This server process's folder for rendered videos: created on first use (a server nobody renders on leaves
    nothing behind), removed with its files when the process exits (Streamlit stops on SIGTERM/Ctrl-C and exits)."""
    with _DIR_LOCK:
        if not _DIR:
            _DIR.append(Path(tempfile.mkdtemp(prefix="specreplay-videos-")))
            atexit.register(shutil.rmtree, _DIR[0], ignore_errors=True)
        return _DIR[0]


def job_key(panes: list[Pane], fmt: str, preset: str, fps: int, speed: float, language: str,
            reference: int | None = None) -> str:
    """A digest of everything the rendered bytes depend on."""
    h = hashlib.sha256(repr((fmt, preset, fps, speed, language, reference)).encode())
    for p in panes:
        h.update(repr((p.key, p.label, p.subtitle, p.kind, p.track.t_us, p.track.n, p.track.text, p.warnings,
                       p.level, p.system)).encode())
    return h.hexdigest()[:16]


def start(panes: list[Pane], fmt: str, preset: str, fps: int, speed: float, language: str, owner: str,
          reference: int | None = None) -> str:
    """Queue a render unless the same video is queued, rendering or done; returns the job key.

    ValueError: the video would be too long (nothing is allocated). Busy: the queue is full.
    One owner (a browser session) has at most one render queued or running: a new one cancels the old.
    """
    check_length(panes, fps, parse_speed(speed))
    key = job_key(panes, fmt, preset, fps, speed, language, reference)
    with _LOCK:
        if key in _JOBS and _JOBS[key].error is None:
            _JOBS[key].last_seen = time.monotonic()
            return key
        for other in _JOBS.values():
            if other.owner == owner and other.running:
                other.cancel.set()
        if sum(j.running and not j.cancel.is_set() for j in _JOBS.values()) >= MAX_RUNNING + MAX_WAITING:
            raise Busy()
        job = _JOBS[key] = Job(video_dir() / f"specreplay-{preset}-{key[:8]}.{fmt}", owner)
        _forget_old()

    def progress(done: int, total: int) -> None:
        job.done, job.total = done, total
        _check_wanted(job)

    def run() -> None:
        try:
            while not _SLOTS.acquire(timeout=0.5):
                _check_wanted(job)
            try:
                job.started = True
                _check_wanted(job)
                render(panes, job.path, fmt=fmt, preset=preset, fps=fps, speed=speed, lang=language,
                       progress=progress, reference=reference)
                job.finished = True
            finally:
                _SLOTS.release()
        except Cancelled:
            job.error = "cancelled"
        except Exception as exc:  # shown in the panel; the user can retry
            job.error = f"{type(exc).__name__}: {exc}"

    job.thread = threading.Thread(target=run, name=f"video-{key}", daemon=True)
    job.thread.start()
    return key


def _check_wanted(job: Job) -> None:
    if job.cancel.is_set() or time.monotonic() - job.last_seen > ABANDON_S:
        raise Cancelled()


def _forget_old() -> None:
    """Drop failed and cancelled jobs, and finished files beyond MAX_JOBS (oldest first)."""
    for k in [k for k, j in _JOBS.items() if j.error is not None]:
        _JOBS.pop(k).path.unlink(missing_ok=True)
    finished = [k for k, j in _JOBS.items() if j.finished]
    for k in finished[:max(0, len(finished) - MAX_JOBS)]:
        _JOBS.pop(k).path.unlink(missing_ok=True)


def _session_id() -> str:
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx else "local"


def video_export_panel(panes: list[Pane], speed: float, reference: int | None = None) -> None:
    """Format, size and fps choices, a render button, live progress, then a download button."""
    if not panes:
        return
    language = lang()
    with st.expander(T("video_title")):
        st.caption(T("video_caption") + " " + T("video_speed", note=speed_note(speed, language)))
        c1, c2, c3 = st.columns(3)
        fmt = c1.radio(T("video_format"), ["mp4", "gif"], format_func=str.upper, horizontal=True, key="video_fmt")
        preset = c2.selectbox(T("video_size"), list(PRESETS), format_func=_preset_label, key="video_preset")
        choices = MP4_FPS if fmt == "mp4" else GIF_FPS
        fps = c3.selectbox("fps", choices, index=choices.index(DEFAULT_FPS[fmt]), key=f"video_fps_{fmt}")
        key = job_key(panes, fmt, preset, fps, speed, language, reference)
        job = _JOBS.get(key)
        if job is None or job.error:
            if st.button(T("video_render"), key="video_render", type="primary"):
                try:
                    start(panes, fmt, preset, fps, speed, language, _session_id(), reference)
                except ValueError as exc:
                    st.error(T("video_cannot") + str(exc), icon=":material/error:")
                    return
                except Busy:
                    st.warning(T("video_busy"), icon=":material/hourglass_top:")
                    return
                job = _JOBS[key]
        if job is None:
            return
        job.last_seen = time.monotonic()
        if job.running:
            _poll(key)
        elif job.error == "cancelled":
            st.info(T("video_cancelled"))
        elif job.error:
            st.error(T("video_failed") + job.error)
        else:
            st.download_button(T("video_download", fmt=fmt.upper()), data=job.path.read_bytes(),
                               file_name=job.path.name, mime=MIME[fmt], key=f"video_download_{key}")


def _preset_label(preset: str) -> str:
    w, h = PRESETS[preset]
    return f"{T('video_square') if preset == 'square' else preset} · {w}×{h}"


@st.fragment(run_every=0.5)
def _poll(key: str) -> None:
    job = _JOBS[key]
    job.last_seen = time.monotonic()  # someone is watching: keep the render alive
    if not job.running:
        st.rerun()  # whole page: it now shows the result, and this polling fragment is no longer drawn
    if not job.started:
        ahead = sum(j.running and j.started for j in _JOBS.values())
        st.progress(0.0, text=T("video_queued", ahead=ahead))
        return
    frac = job.done / job.total if job.total else 0.0
    st.progress(frac, text=T("video_rendering", done=job.done, total=job.total or "?"))
