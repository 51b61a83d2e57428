"""`python -m specreplay.video`: render a recorded replay to a file from the command line.

    python -m specreplay.video recordings/x.jsonl --prompt code --arms base,spec -o out.mp4
"""

from __future__ import annotations

import argparse
import re
from fractions import Fraction
from pathlib import Path

from specreplay import languages
from specreplay.cli_numbers import bounded
from specreplay.output import OutputError, WriteError, check_output
from specreplay.progress import Progress
from specreplay.recording import catalogue
from specreplay.recording.format import RecordingError
from specreplay.recording.locations import missing_recording, recording_arg
from specreplay.replay.playback import FASTEST, SLOWEST
from specreplay.replay.selection import selection
from specreplay.replay.titles import title
from specreplay.video.encode import FORMATS, GIF_FPS, EncodeError
from specreplay.video.plan import HOLD_S, MAX_HOLD_S, MAX_VIDEO_S, PRESETS, parse_speed
from specreplay.video.render import render
from specreplay.words import word


def _speed(text: str) -> Fraction:
    try:
        return parse_speed(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parser(prog: str = "python -m specreplay.video") -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=prog,
        description="Render a recorded replay to a frame-exact MP4 or GIF: arms side by side on one clock. "
                    "The same inputs give the same bytes, busy machine or idle.")
    ap.add_argument("recording", type=recording_arg,
                    help="recording file (.jsonl), or the name of a bundled one (e.g. smollm2-h200.jsonl)")
    ap.add_argument("--prompt", help="prompt id to replay (default: the replay page's, by its written rule; "
                    "docs/replay.md)")
    ap.add_argument("--arms", help="comma-separated arm ids, 1 to 4, as in the app's ?arms= (default: the replay "
                    "page's for this prompt)")
    ap.add_argument("--repeat", type=bounded(int, 0, 2**63 - 1), help="repeat number to show (default: each arm's median-rate repeat)")
    ap.add_argument("--ref", type=bounded(int, 0, 3), help="the speedup's reference pane, 0 for the first, as in the app's ?ref= "
                    "(default: the arm the others name as baseline, else the first)")
    ap.add_argument("--preset", choices=list(PRESETS), default="720p",
                    help="frame size: 720p=1280x720, 1080p=1920x1088, square=1088x1088 (default 720p)")
    ap.add_argument("--format", dest="fmt", choices=FORMATS,
                    help="mp4 (H.264) or gif (default: from the output's extension, else mp4)")
    ap.add_argument("--fps", type=bounded(int, 1, 120), help=f"frames per second (default mp4 30, gif 10; gif allows "
                                            f"{', '.join(map(str, GIF_FPS))})")
    ap.add_argument("--speed", type=_speed, help=f"playback speed factor, e.g. 2 or 0.5, within the player's {SLOWEST:g}–"
                    f"{FASTEST:g} (default: 1 = real time, or slowed down for a replay over within seconds, as the "
                    "player opens it; docs/replay.md)")
    ap.add_argument("--hold", type=bounded(float, 0, MAX_HOLD_S), default=HOLD_S,
                    help=f"seconds to hold the last frame (default {HOLD_S:g})")
    ap.add_argument("--lang", choices=languages.LANGUAGES, default=languages.LANGUAGES[0],
                    help=f"language of the drawn text (default {languages.LANGUAGES[0]})")
    ap.add_argument("--max-seconds", type=bounded(float, 0, MAX_VIDEO_S * 12, above=True), default=MAX_VIDEO_S,
                    help=f"refuse videos longer than this (default {MAX_VIDEO_S} s)")
    ap.add_argument("-o", "--output", type=Path, help="output file (default: <recording>-<prompt>-<preset>.<format>); "
                    "an existing file is refused unless --force")
    ap.add_argument("--force", action="store_true", help="replace the output file if it exists")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    return ap


def main(argv: list[str] | None = None, prog: str = "python -m specreplay.video") -> int:
    ap = parser(prog)
    args = ap.parse_args(argv)
    suffix = args.output.suffix.lower().lstrip(".") if args.output else ""
    fmt = args.fmt or (suffix if suffix in FORMATS else "mp4")
    if args.output and suffix != fmt:
        ap.error(f"output {args.output} does not end in .{fmt}")
    out = args.output
    try:
        rec = catalogue.recording(args.recording, repair=True)
        arms = [a.strip() for a in args.arms.split(",") if a.strip()] if args.arms else None
        sel = selection(rec, args.prompt, arms, args.repeat, args.ref)
        # the prompt id comes from the recording: only safe characters go into a default file name
        out = out or Path(re.sub(r"[^A-Za-z0-9._-]+", "_", f"{args.recording.stem}-{sel.prompt}-{args.preset}")
                          + f".{fmt}")
        check_output(out, force=args.force, inputs=[args.recording])
        panes = sel.panes(rec, word("simulated", args.lang))
        bar = None if args.quiet else Progress(0, label=out.name, unit="frames")
        render(panes, out, fmt=fmt, preset=args.preset, fps=args.fps, speed=args.speed or sel.opening_speed(panes),
               lang=args.lang, hold_s=args.hold, title=f"{title(rec, args.lang)} · {sel.prompt}", progress=bar,
               max_s=args.max_seconds, reference=sel.reference)
    except FileNotFoundError as exc:
        ap.error(str(exc) if exc.filename is None else missing_recording(Path(exc.filename)))
    except (RecordingError, OutputError, LookupError, ValueError, EncodeError, WriteError) as exc:
        ap.error(str(exc))
    except OSError as exc:  # a folder without permission, a full disk: the path and the reason
        ap.error(f"{exc.filename or out}: cannot read or write it ({exc.strerror or exc})")
    print(out)
    return 0

