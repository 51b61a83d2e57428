"""`specreplay` (also `python -m specreplay`): the app, the recorder, videos and interop behind one command.

    specreplay app [STREAMLIT OPTIONS]             the explainer app on the bundled recordings
    specreplay record CONFIG [-o FILE]             every arm x prompt of a config, one request at a time
    specreplay sweep CONFIG [-o FILE]              a concurrency sweep
    specreplay summary RECORDING                   a recording's summary table
    specreplay video RECORDING --prompt ID         a frame-exact MP4 or GIF of a replay
    specreplay export-html RECORDING -o FILE       one replay as a self-contained HTML file
    specreplay export-chart NAME -o FILE           one interactive chart as a self-contained HTML file
    specreplay import KIND FILE... -o FILE         another benchmark tool's results as a recording

`specreplay COMMAND --help` lists a command's options. Problems end in one line on stderr (file, line, field,
what to do) and exit status 2.

Each command's options live with its module (the recorder's in recorder.cli, the video's in
specreplay.video); this file dispatches, and holds export-html and import.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

from specreplay import languages
from specreplay.cli_numbers import bounded
from specreplay.importers import KINDS
from specreplay.importers.common import write_recording
from specreplay.output import OutputError, WriteError, check_output, write_atomic
from specreplay.recording import catalogue
from specreplay.recording.format import RecordingError
from specreplay.recording.locations import missing_recording, recording_arg
from specreplay.replay.export_html import export_recording
from specreplay.replay.playback import SPEEDS
from specreplay.replay.selection import selection

PROG = "specreplay"


def _missing(exc: ModuleNotFoundError, command: str) -> int:
    """The recorder's packages are an extra: say which one brings them, instead of a traceback."""
    if (exc.name or "").split(".")[0] in ("specreplay", "recorder"):
        raise exc
    print(f"{PROG} {command}: needs {exc.name}, which is not installed — pip install 'specreplay[record]'",
          file=sys.stderr)
    return 2


def _recorder(argv: list[str]) -> int:
    from recorder.cli import main

    try:  # record and sweep import httpx once their options are read: --help and summary work without it
        return main(argv, prog=PROG)
    except ModuleNotFoundError as exc:
        return _missing(exc, argv[0])


def _video(argv: list[str]) -> int:
    from specreplay.video.cli import main

    return main(argv, prog=f"{PROG} video")


def streamlit_flags(config: Path) -> list[str]:
    """specreplay/views/streamlit_config.toml as `streamlit run` flags: an installed app has no .streamlit/ folder to read."""
    table = tomllib.loads(config.read_text(encoding="utf-8"))
    return [f"--{section}.{key}={str(value).lower() if isinstance(value, bool) else value}"
            for section, options in table.items() for key, value in options.items()]


def _chart(argv: list[str]) -> int:
    from specreplay.embeds.cli import main

    return main(argv, prog=f"{PROG} export-chart")


def _app(argv: list[str]) -> int:
    """`streamlit run` on the shell, with the app's Streamlit settings first, so options given here win."""
    if argv and argv[0] in ("-h", "--help"):
        print(f"usage: {PROG} app [STREAMLIT OPTIONS]\n\nServe the explainer app (Streamlit) on the bundled "
              "recordings, on\nhttp://127.0.0.1:8501: this machine only, unless --server.address says otherwise "
              "(--server.port\nfor another port). The options go to `streamlit run`, e.g. --server.port 8600 "
              "--server.address 0.0.0.0\nto serve other machines too (`streamlit run --help` lists them).")
        return 0
    views = Path(str(files("specreplay.views")))
    cmd = [sys.executable, "-m", "streamlit", "run", str(views / "shell.py"),
           *streamlit_flags(views / "streamlit_config.toml"), *argv]
    if not any(a == "--server.address" or a.startswith("--server.address=") for a in argv):
        print(f"{PROG} app: serving this machine only (127.0.0.1); pass --server.address 0.0.0.0 to serve others",
              file=sys.stderr)
    sys.stdout.flush()
    os.execv(sys.executable, cmd)  # the server is this process: signals and the exit status are Streamlit's own
    return 0  # not reached


def _export(args: argparse.Namespace) -> str:
    out = Path(args.output)
    check_output(out, force=args.force, inputs=[args.recording])  # before any work: nothing is written on failure
    rec = catalogue.recording(args.recording, repair=True)
    arms = [a for a in args.arms.split(",") if a] if args.arms else None
    html = export_recording(rec, selection(rec, args.prompt, arms, args.repeat, args.ref, args.speed), args.lang)
    write_atomic(out, html)
    return f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)"


def _import(args: argparse.Namespace) -> str:
    reader, _ = KINDS[args.kind]
    out, inputs = Path(args.output), tuple(Path(p) for p in args.files)
    check_output(out, force=args.force, inputs=inputs)
    for path in inputs:
        if not path.is_file():
            raise InputError(f"{path}: " + ("is a directory — give the tool's result file in it" if path.is_dir()
                                            else "no such file — check the path of the tool's result file"))
    arms = [arm for path in inputs for arm in reader(path, args.tool_version)]
    for arm, label in zip(arms, args.label or []):
        arm.label = label
    write_recording(out, arms, args.title, force=args.force, inputs=inputs)
    runs = sum(len(a.requests) for a in arms)
    return f"wrote {out}: {len(arms)} arm(s), {runs} request(s), imported from {arms[0].tool}"


class InputError(ValueError):
    """An input path that cannot be read; the message names it."""


def interop_parser() -> argparse.ArgumentParser:
    """`export-html` and `import`."""
    ap = argparse.ArgumentParser(prog=PROG)
    sub = ap.add_subparsers(dest="command", required=True)

    ex = sub.add_parser("export-html", help="one self-contained HTML file that replays a recording offline",
                        description="Write the replay of one prompt as a single HTML file: the app's player, the "
                        "chosen runs and a provenance header, all inline. It loads nothing from the network, so it "
                        "plays opened from disk or in an <iframe> on any static host.")
    ex.add_argument("recording", type=recording_arg,
                    help="a recording (.jsonl), or the name of a bundled one (e.g. smollm2-vllm-cpu.jsonl)")
    ex.add_argument("--prompt", help="prompt id (default: the replay page's, by its written rule; docs/replay.md)")
    ex.add_argument("--arms", help="comma-separated arm ids, 1–4, as in the app's ?arms= (recorded ids or sim:… "
                    "tokens; default: the replay page's for this prompt)")
    ex.add_argument("--repeat", type=bounded(int, 0, 2**63 - 1), help="repeat number (default: each arm's median repeat by decode speed)")
    ex.add_argument("--ref", type=bounded(int, 0, 3), help="the speedup's reference pane, 0 for the first, as in the app's ?ref= "
                    "(default: the arm the others name as baseline, else the first)")
    ex.add_argument("--lang", choices=languages.LANGUAGES, default=languages.LANGUAGES[0],
                    help=f"interface language (default: {languages.LANGUAGES[0]})")
    ex.add_argument("--speed", type=float, choices=SPEEDS, help="initial playback speed (default: slowed down for a "
                    "replay over within seconds, else 1; docs/replay.md)")
    ex.add_argument("-o", "--output", required=True, help="the HTML file to write (must not exist unless --force; never "
                    "the recording itself)")
    ex.add_argument("--force", action="store_true", help="replace OUTPUT if it exists")
    ex.set_defaults(run=_export)

    kinds = "\n".join(f"  {k:<11} {what}" for k, (_, what) in KINDS.items())
    im = sub.add_parser("import", help="turn another benchmark tool's per-request results into a recording",
                        formatter_class=argparse.RawDescriptionHelpFormatter,
                        description="Convert per-request results into recording format v1, one arm per result, with "
                        "provenance (tool, version, file) and `imported` as the kind. What the tool's file lacks "
                        f"(token text, tokens per chunk, …) is stated in the header, never filled in.\n\nKINDS:\n{kinds}")
    im.add_argument("kind", choices=list(KINDS), help="the tool that wrote FILE")
    im.add_argument("files", nargs="+", metavar="FILE", help="result file(s); each becomes an arm (one prompt id per "
                    "request index, so runs on the same dataset line up)")
    im.add_argument("-o", "--output", required=True, help="the recording to write (.jsonl; must not exist unless "
                    "--force; never one of the FILEs)")
    im.add_argument("--force", action="store_true", help="replace OUTPUT if it exists")
    im.add_argument("--label", action="append", help="an arm's label, once per arm in order (default: from the file)")
    im.add_argument("--title", help="the recording's title")
    im.add_argument("--tool-version", help="the tool's version, where its file does not say")
    im.set_defaults(run=_import)
    return ap


def _interop(argv: list[str]) -> int:
    args = interop_parser().parse_args(argv)
    try:
        print(args.run(args))
    except FileNotFoundError as exc:
        line = (missing_recording(Path(exc.filename)) if args.command == "export-html"
                else f"{exc.filename}: no such file — check the path of the tool's result file")
        print(f"{PROG} {args.command}: {line}", file=sys.stderr)
        return 2
    except (RecordingError, OutputError, InputError, LookupError, ValueError, WriteError) as exc:
        print(f"{PROG} {args.command}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a full disk, no permission: the path and the system's reason, nothing half-written
        print(f"{PROG} {args.command}: {exc.filename or args.output}: cannot read or write it "
              f"({exc.strerror or exc}) — nothing was written", file=sys.stderr)
        return 2
    return 0


# command -> how it runs; the runner gets the arguments after `specreplay`, the command's name first
COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "app": lambda argv: _app(argv[1:]),
    "record": _recorder,
    "sweep": _recorder,
    "summary": _recorder,
    "video": lambda argv: _video(argv[1:]),
    "export-html": _interop,
    "export-chart": lambda argv: _chart(argv[1:]),
    "import": _interop,
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    doc = __doc__.split("\n\n")
    ap = argparse.ArgumentParser(prog=PROG, usage=f"{PROG} [-h] COMMAND [ARGS ...]", description=doc[0],
                                 epilog="\n\n".join(doc[1:3]), formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=list(COMMANDS), metavar="COMMAND", help=", ".join(COMMANDS))
    args = ap.parse_args(argv[:1])  # the command's own parser reads the rest, --help included
    try:
        return COMMANDS[args.command](argv)
    except KeyboardInterrupt:  # before a command's own handler is in place (its imports take a second or two)
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
