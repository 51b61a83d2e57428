"""Frame-exact video export of a replay (MP4 or GIF), and its command line.

Frame k shows playback time t_k = frame_time_us(k, fps) * speed (recording
microseconds, integer maths), drawn with the timeline's own rule (chunk i is
visible iff t_i <= t_k). The video has ceil(D * fps / speed) frames that run
the replay (D = the last chunk's time) and then holds the final state for
`hold_s` seconds, at least one frame, so the end is always shown. Same inputs,
same bytes: see docs/video.md.

    python -m specreplay.video recordings/x.jsonl --prompt code --arms base,spec -o out.mp4
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from specreplay.format import Recording, RecordingError, load
from specreplay.panes import Pane, median_repeat, recorded_pane
from specreplay.timeline import frame_time_us
from specreplay.video_draw import FrameDrawer, text
from specreplay.video_encode import FORMATS, GIF_FPS, EncodeError, Encoder, check
from specreplay.video_yuv import Yuv420

# 1080 is not a multiple of 16, so "1080p" is drawn at 1088 lines (whole macroblocks, nothing for the encoder to pad).
PRESETS = {"720p": (1280, 720), "1080p": (1920, 1088), "square": (1088, 1088)}
DEFAULT_FPS = {"mp4": 30, "gif": 10}
HOLD_S = 2.0
MAX_SPEED_DENOMINATOR = 1000
# A public server renders for visitors: a replay longer than this is refused before anything is allocated.
MAX_VIDEO_S = 300

Progress = Callable[[int, int], None]


def parse_speed(speed: float | str | Fraction) -> Fraction:
    """The speed factor as an exact fraction (so frame times stay integer)."""
    try:
        value = Fraction(str(speed)).limit_denominator(MAX_SPEED_DENOMINATOR)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"speed {speed!r} is not a number") from None
    if not Fraction(1, 100) <= value <= 100:
        raise ValueError(f"speed {speed} is outside 0.01..100")
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


def speed_label(speed: Fraction, lang: str) -> str:
    return "" if speed == 1 else text("speed", lang).format(x=f"{float(speed):g}")


def render(panes: list[Pane], out: str | Path, *, fmt: str = "mp4", preset: str = "720p", fps: int | None = None,
           speed: float | str | Fraction = 1, lang: str = "ko", hold_s: float = HOLD_S, title: str = "",
           progress: Progress | None = None, max_s: float = MAX_VIDEO_S) -> Path:
    """Render the panes side by side into `out`; returns the path once the file is complete."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}: use one of {', '.join(PRESETS)}")
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if not panes or all(not p.track.t_us for p in panes):
        raise ValueError("nothing to render: no pane has any chunks")
    if not 0 <= hold_s <= 60:
        raise ValueError(f"hold {hold_s} s is outside 0..60")
    fps = fps or DEFAULT_FPS[fmt]
    width, height = PRESETS[preset]
    check(fmt, width, height, fps)
    factor = parse_speed(speed)
    check_length(panes, fps, factor, hold_s, max_s)
    times = frame_times(panes, fps, factor, hold_s)
    drawer = FrameDrawer(panes, width, height, lang, speed_label(factor, lang), title)
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


# ---------------------------------------------------------------------- CLI

def recording_panes(rec: Recording, prompt: str, arms: list[str], repeat: int | None) -> list[Pane]:
    """One pane per arm: the given repeat, or the median-rate repeat."""
    known = [a["id"] for a in rec.arms]
    if prompt not in [p["id"] for p in rec.prompts]:
        raise LookupError(f"no prompt {prompt!r} in {Path(rec.path).name}: it has {', '.join(p['id'] for p in rec.prompts)}")
    panes = []
    for arm in arms:
        if arm not in known:
            raise LookupError(f"no arm {arm!r} in {Path(rec.path).name}: it has {', '.join(known)}")
        if repeat is None:
            run = median_repeat(rec, arm, prompt)
        else:
            runs = [r for r in rec.select(arm, prompt) if r.repeat == repeat]
            if not runs:
                have = sorted({r.repeat for r in rec.select(arm, prompt)})
                raise LookupError(f"arm {arm!r} has no finished repeat {repeat} of prompt {prompt!r} "
                                  f"(repeats: {', '.join(map(str, have)) or 'none'})")
            run = runs[0]
        panes.append(recorded_pane(rec, arm, run))
    return panes


class ProgressBar:
    """A progress bar on stderr: one line redrawn each percent on a terminal, a line every 10 % in a log."""

    def __init__(self, label: str, width: int = 30):
        self.label, self.width, self.shown, self.start = label, width, -1, time.monotonic()
        self.tty = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        pct = done * 100 // total
        if pct == self.shown or (not self.tty and pct % 10 and done != total):
            return
        self.shown = pct
        fill = done * self.width // total
        elapsed = time.monotonic() - self.start
        sys.stderr.write(f"{chr(13) if self.tty else ''}{self.label} [{'#' * fill}{'.' * (self.width - fill)}] "
                         f"{pct:3d}% {done}/{total} frames {elapsed:5.1f} s")
        if done == total or not self.tty:
            sys.stderr.write("\n")
        sys.stderr.flush()


def parser(prog: str = "python -m specreplay.video") -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=prog,
        description="Render a recorded replay to a frame-exact MP4 or GIF: arms side by side on one clock. "
                    "The same inputs give the same bytes, busy machine or idle.")
    ap.add_argument("recording", type=Path, help="recording file (.jsonl)")
    ap.add_argument("--prompt", required=True, help="prompt id to replay")
    ap.add_argument("--arms", help="comma-separated arm ids, 1 to 4 (default: every arm of the recording)")
    ap.add_argument("--repeat", type=int, help="repeat number to show (default: each arm's median-rate repeat)")
    ap.add_argument("--preset", choices=list(PRESETS), default="720p",
                    help="frame size: 720p=1280x720, 1080p=1920x1088, square=1088x1088 (default 720p)")
    ap.add_argument("--format", dest="fmt", choices=FORMATS,
                    help="mp4 (H.264) or gif (default: from the output's extension, else mp4)")
    ap.add_argument("--fps", type=int, help=f"frames per second (default mp4 30, gif 10; gif allows "
                                            f"{', '.join(map(str, GIF_FPS))})")
    ap.add_argument("--speed", default="1", help="playback speed factor, e.g. 2 or 0.5 (default 1 = real time)")
    ap.add_argument("--hold", type=float, default=HOLD_S, help=f"seconds to hold the last frame (default {HOLD_S:g})")
    ap.add_argument("--lang", choices=("ko", "en"), default="ko", help="language of the drawn text (default ko)")
    ap.add_argument("--max-seconds", type=float, default=MAX_VIDEO_S,
                    help=f"refuse videos longer than this (default {MAX_VIDEO_S} s)")
    ap.add_argument("-o", "--output", type=Path, help="output file (default: <recording>-<prompt>-<preset>.<format>)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    return ap


def main(argv: list[str] | None = None, prog: str = "python -m specreplay.video") -> int:
    ap = parser(prog)
    args = ap.parse_args(argv)
    suffix = args.output.suffix.lower().lstrip(".") if args.output else ""
    fmt = args.fmt or (suffix if suffix in FORMATS else "mp4")
    if args.output and suffix != fmt:
        ap.error(f"output {args.output} does not end in .{fmt}")
    out = args.output or Path(f"{args.recording.stem}-{args.prompt}-{args.preset}.{fmt}")
    try:
        rec = load(args.recording)
        arms = args.arms.split(",") if args.arms else [a["id"] for a in rec.arms]
        panes = recording_panes(rec, args.prompt, [a.strip() for a in arms if a.strip()], args.repeat)
        bar = None if args.quiet else ProgressBar(out.name)
        render(panes, out, fmt=fmt, preset=args.preset, fps=args.fps, speed=args.speed, lang=args.lang,
               hold_s=args.hold, title=f"{rec.title} · {args.prompt}", progress=bar, max_s=args.max_seconds)
    except FileNotFoundError as exc:
        ap.error(str(exc) if exc.filename is None else f"{exc.filename}: no such file")
    except (RecordingError, LookupError, ValueError, EncodeError) as exc:
        ap.error(str(exc))
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
