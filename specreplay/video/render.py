"""Rendering a list of panes into a video file: the frame rule, the drawer and the encoder put together."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from specreplay.languages import LANGUAGES, Lang
from specreplay.replay.panes import Pane
from specreplay.replay.playback import speed_note
from specreplay.video.draw import FrameDrawer
from specreplay.video.encode import FORMATS, Encoder, check
from specreplay.video.plan import (
    DEFAULT_FPS,
    HOLD_S,
    MAX_HOLD_S,
    MAX_VIDEO_S,
    PRESETS,
    check_length,
    frame_times,
    parse_speed,
)
from specreplay.video.yuv import Yuv420

Progress = Callable[[int, int], None]


def speed_label(speed: Fraction, lang: str) -> str:
    """Every frame shows the speed beside its clock, 1× included ('1× — real time')."""
    return speed_note(speed, lang)


def render(panes: list[Pane], out: str | Path, *, fmt: str = "mp4", preset: str = "720p", fps: int | None = None,
           speed: float | str | Fraction = 1, lang: Lang = LANGUAGES[0], hold_s: float = HOLD_S, title: str = "",
           progress: Progress | None = None, max_s: float = MAX_VIDEO_S, reference: int | None = None) -> Path:
    """Render the panes side by side into `out`; returns the path once the file is complete."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}: use one of {', '.join(PRESETS)}")
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if not panes or all(not p.track.t_us for p in panes):
        raise ValueError("nothing to render: no pane has any chunks")
    if not 0 <= hold_s <= MAX_HOLD_S:
        raise ValueError(f"hold {hold_s} s is outside 0..{MAX_HOLD_S}")
    fps = fps or DEFAULT_FPS[fmt]
    width, height = PRESETS[preset]
    check(fmt, width, height, fps)
    factor = parse_speed(speed)
    check_length(panes, fps, factor, hold_s, max_s)
    times = frame_times(panes, fps, factor, hold_s)
    drawer = FrameDrawer(panes, width, height, lang, speed_label(factor, lang), title, reference)
    encoder = Encoder(out, fmt, width, height, fps)
    yuv = Yuv420(width, height) if fmt == "mp4" else None
    last_state = None
    try:
        for i, t in enumerate(times):
            state = drawer.state(t)
            if state != last_state:  # equal states draw equal frames: skip the drawing
                rgb, last_state = drawer.draw(state), state
                frame = yuv.update(rgb, drawer.dirty) if yuv else rgb.data
            encoder.write(frame)
            if progress:
                progress(i + 1, len(times))
    except BaseException:
        encoder.abort()
        raise
    return encoder.close()
