"""The frame rule: which playback time each video frame shows, and how many frames there are.

Frame k shows playback time t_k = frame_time_us(k, fps) * speed (recording
microseconds, integer maths), drawn with the timeline's own rule (chunk i is
visible iff t_i <= t_k). The video has ceil(D * fps / speed) frames that run
the replay (D = the last chunk's time) and then holds the final state for
`hold_s` seconds, at least one frame, so the end is always shown. Same inputs,
same bytes: see docs/video.md.
"""

from __future__ import annotations

from fractions import Fraction

from specreplay.replay.panes import Pane
from specreplay.replay.playback import FASTEST, SLOWEST
from specreplay.replay.timeline import frame_time_us

# 1080 is not a multiple of 16, so "1080p" is drawn at 1088 lines (whole macroblocks, nothing for the encoder to pad).
PRESETS = {"720p": (1280, 720), "1080p": (1920, 1088), "square": (1088, 1088)}
DEFAULT_FPS = {"mp4": 30, "gif": 10}
HOLD_S = 2.0
MAX_HOLD_S = 60
MAX_SPEED_DENOMINATOR = 1000
# A public server renders for visitors: a replay longer than this is refused before anything is allocated.
MAX_VIDEO_S = 300

def parse_speed(speed: float | str | Fraction) -> Fraction:
    """The speed factor as an exact fraction (so frame times stay integer). Bounded as a float first: Fraction
    reads '1e999999999' by computing 10**999999999 (minutes of one core); float makes it inf at once."""
    text = str(speed).strip()
    try:
        rough = float(Fraction(text) if "/" in text and len(text) <= 40 else text)
        value = Fraction(text).limit_denominator(MAX_SPEED_DENOMINATOR) if SLOWEST <= rough <= FASTEST else None
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"speed {text[:40]!r} is not a number") from None
    if value is None or not Fraction(str(SLOWEST)) <= value <= Fraction(str(FASTEST)):  # 1/20, not the float 0.05
        raise ValueError(f"speed {text[:40]} is outside {SLOWEST:g}..{FASTEST:g}, the player's speeds")
    return value


def playback_us(k: int, fps: int, speed: Fraction) -> int:
    """Recording time shown by frame k: the timeline's frame time, scaled by the speed factor."""
    return frame_time_us(k, fps) * speed.numerator // speed.denominator


def content_frames(end_us: int, fps: int, speed: Fraction) -> int:
    """How many frames come before the last chunk is visible: #{k : playback_us(k) < end_us}."""
    k = -(-end_us * fps * speed.denominator // (1_000_000 * speed.numerator))  # ceil, then fix integer rounding
    while k > 0 and playback_us(k - 1, fps, speed) >= end_us:
        k -= 1
    while playback_us(k, fps, speed) < end_us:
        k += 1
    return k


def frame_count(panes: list[Pane], fps: int, speed: Fraction, hold_s: float = HOLD_S) -> int:
    """How many frames the video has, computed without building them."""
    return content_frames(max(p.track.end_us for p in panes), fps, speed) + max(1, round(hold_s * fps))


def check_length(panes: list[Pane], fps: int, speed: Fraction, hold_s: float = HOLD_S,
                 max_s: float = MAX_VIDEO_S) -> int:
    """The frame count, or ValueError when the video would run longer than max_s seconds."""
    n = frame_count(panes, fps, speed, hold_s)
    if n > max_s * fps:
        replay_s = max(p.track.end_us for p in panes) / 1e6 / float(speed)
        raise ValueError(f"this replay runs {replay_s:,.0f} s at {float(speed):g}×; videos are limited to "
                         f"{max_s:g} s — choose a faster speed or shorter arms")
    return n


def frame_times(panes: list[Pane], fps: int, speed: Fraction, hold_s: float = HOLD_S) -> list[int]:
    """Playback time of every frame: the run, then the final state held (its clock stopped at the end)."""
    end_us = max(p.track.end_us for p in panes)
    n = content_frames(end_us, fps, speed)
    return [playback_us(k, fps, speed) for k in range(n)] + [end_us] * max(1, round(hold_s * fps))
