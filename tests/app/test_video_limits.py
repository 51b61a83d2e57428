"""A public server's video export is bounded: long replays are refused up front, renders queue, leave, cancel."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from streamlit.testing.v1 import AppTest

from specreplay.recording.format import Event
from specreplay.replay.arms import sim_pane
from specreplay.replay.panes import Pane
from specreplay.replay.timeline import make_track
from specreplay.video.plan import MAX_VIDEO_S, check_length
from specreplay.views import video_panel


def _pane(label: str, seconds: float, chunks: int = 40) -> Pane:  # made-up test timeline
    step = round(seconds * 1e6 / chunks)
    return Pane(label, label, "m · e", "measured", make_track([Event(i * step, 1, f"w{i} ") for i in range(1, chunks + 1)]))


def test_a_replay_too_long_for_a_video_is_refused_before_any_frame_exists() -> None:
    huge = _pane("huge", 1e12)  # a chunk at 10^12 s: the frame list would not fit in memory
    with pytest.raises(ValueError, match="limited to 300 s"):
        check_length([huge], 30, Fraction(1))
    # the form's own limits (1 tok/s, 5000 tokens) at 0.25x: refused, not a 600,000-frame job
    with pytest.raises(ValueError, match="choose a faster speed"):
        check_length([sim_pane("sim:1/30/0/0/5000", "sim")], 30, Fraction(1, 4))
    assert check_length([_pane("ok", MAX_VIDEO_S - 10)], 30, Fraction(1)) == (MAX_VIDEO_S - 10) * 30 + 60


@pytest.fixture()
def jobs():
    video_panel._JOBS.clear()
    yield video_panel._JOBS
    for job in video_panel._JOBS.values():
        job.cancel.set()
    for job in list(video_panel._JOBS.values()):
        if job.thread:
            job.thread.join(30)
    video_panel._JOBS.clear()


def _slow(i: int) -> list[Pane]:
    return [_pane(f"a{i}", 200), _pane(f"b{i}", 150)]  # 200 s of 720p: renders for far longer than the test


def _wait(cond, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_renders_queue_behind_two_slots_and_a_full_queue_says_busy(jobs) -> None:
    keys = [video_panel.start(_slow(i), "mp4", "720p", 24, 1.0, "en", owner=f"s{i}")
            for i in range(video_panel.MAX_RUNNING + video_panel.MAX_WAITING)]
    _wait(lambda: sum(jobs[k].started for k in keys) == video_panel.MAX_RUNNING, "two renders should start")
    time.sleep(1)
    assert sum(jobs[k].started for k in keys) == video_panel.MAX_RUNNING  # the rest wait for a slot
    with pytest.raises(video_panel.Busy):
        video_panel.start(_slow(99), "mp4", "720p", 24, 1.0, "en", owner="late")
    first = jobs[keys[0]]
    first.cancel.set()
    _wait(lambda: first.error == "cancelled", "cancel should stop a running render")
    _wait(lambda: sum(jobs[k].started for k in keys[1:]) == video_panel.MAX_RUNNING, "a queued render takes the slot")


def test_one_render_per_visitor_and_a_left_visitor_stops_rendering(jobs) -> None:
    old = video_panel.start(_slow(1), "mp4", "720p", 24, 1.0, "en", owner="visitor")
    new = video_panel.start(_slow(2), "mp4", "720p", 24, 1.0, "en", owner="visitor")
    _wait(lambda: jobs[old].error == "cancelled", "the visitor's earlier render should be cancelled")
    assert jobs[new].running
    jobs[new].last_seen -= video_panel.ABANDON_S + 1  # nobody polled it: the tab was closed
    _wait(lambda: jobs[new].error == "cancelled", "an abandoned render should stop")
    assert not jobs[new].path.exists()  # the partial file is gone


def _long_app() -> None:
    from specreplay.replay.arms import sim_pane
    from specreplay.views.video_panel import video_export_panel

    video_export_panel([sim_pane("sim:1/30/0/0/5000", "sim"), sim_pane("sim:2/0/0/0/10", "sim")], speed=1.0)


def test_the_panel_says_why_a_long_video_is_refused(jobs) -> None:
    at = AppTest.from_function(_long_app, default_timeout=30)
    at.query_params["lang"] = "en"
    at.run()
    at.button(key="video_render").click()
    at.run()
    assert not at.exception
    assert "limited to 300 s" in at.error[0].value
    assert not jobs  # nothing queued, nothing allocated
