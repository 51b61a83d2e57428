"""The export panel renders in the background, shows progress, then offers the file; reruns reuse it."""

from __future__ import annotations

import time

from streamlit.testing.v1 import AppTest

from specreplay.views import video_panel


def _app() -> None:
    from specreplay.recording.format import Event
    from specreplay.replay.panes import Pane
    from specreplay.replay.timeline import make_track
    from specreplay.views.video_panel import video_export_panel

    def pane(label: str, step: int) -> Pane:  # made-up test timelines
        return Pane(label, label, "m · e", "measured", make_track([Event(i * step, 1, f"w{i} ") for i in range(6)]))

    video_export_panel([pane("fast", 100_000), pane("slow", 200_000)], speed=4.0)


def _wait_for(key_prefix: str = "") -> video_panel.Job:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        jobs = list(video_panel._JOBS.values())
        if jobs and all(not j.running for j in jobs):
            return jobs[-1]
        time.sleep(0.2)
    raise AssertionError("render did not finish in 60 s")


def test_panel_renders_then_offers_the_download_and_does_not_restart() -> None:
    video_panel._JOBS.clear()
    at = AppTest.from_function(_app, default_timeout=60)
    at.query_params["lang"] = "en"
    at.run()
    assert not at.exception
    at.radio(key="video_fmt").set_value("gif")
    at.run()
    at.button(key="video_render").click()
    at.run()
    assert not at.exception
    assert len(video_panel._JOBS) == 1
    job = _wait_for()
    assert job.finished and job.error is None and job.path.suffix == ".gif" and job.path.stat().st_size > 0
    assert job.done == job.total > 0
    at.run()
    assert not at.exception
    assert not [b for b in at.button if b.key == "video_render"]  # finished: no button to start it again
    assert at.get("download_button")
    at.run()
    assert len(video_panel._JOBS) == 1  # reruns reuse the finished job
