"""`specreplay record | sweep | summary` (also `python -m recorder ...`): record real streamed
requests into recording format v1.

  specreplay record CONFIG [-o FILE]     every arm x prompt, warm-up + repeats, one at a time
  specreplay sweep CONFIG [-o FILE]      concurrency levels per prompt mix, each arm in turn
  specreplay summary FILE                the per-arm x prompt (or per-level) table of a recording

Exit status: 0 every request of this call finished ok; 1 the recording finished but some runs failed (they are
stored with status "error" and the reason; `record` redoes them when rerun); 2 stopped early with one line
saying why (config, output file, server, disk: every finished run is kept, rerun the same command to resume);
130 interrupted (Ctrl-C, SIGTERM; same).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from recorder import config
from recorder.errors import RecorderError
from recorder.machine import default_processes
from recorder.redact import redact
from specreplay.cli_numbers import bounded
from specreplay.recording import catalogue
from specreplay.recording import format as fmt
from specreplay.recording.locations import missing_recording, recording_arg

CHECKOUT_PROG = "python -m recorder"


def _levels(text: str) -> tuple[int, ...]:
    parts = text.split(",")
    if not all(x.strip().isascii() and x.strip().isdigit() and len(x.strip()) <= 6 for x in parts):
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers like 1,2,4, got {text[:40]!r}")
    return config.check_levels([int(x) for x in parts], argparse.ArgumentTypeError)


_SECONDS = bounded(float, 0, config.MAX_WAIT_S, above=True)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("config", type=Path, help="TOML file with [[arms]] and [[prompts]] (see recorder/configs/)")
    p.add_argument("-o", "--output", type=Path,
                   help="recording to write (.jsonl); default: the config's record.output. An existing file is "
                        "resumed: finished runs are kept and skipped")
    p.add_argument("--max-tokens", type=bounded(int, *config.LIMITS["max_tokens"]),
                   help="forced output length: max_tokens, plus ignore_eos and min_tokens where the server takes "
                        "them (default: the config's record.max_tokens, else 256)")
    p.add_argument("--request-timeout", type=_SECONDS, default=300, metavar="S",
                   help="give up on one request after S seconds without a byte (default 300)")
    p.add_argument("--request-total-timeout", type=_SECONDS, default=600, metavar="S",
                   help="give up on one request after S seconds in all, even while the server sends keep-alive "
                        "comments (default 600); the run is stored as an error")
    p.add_argument("--idle-polls", type=bounded(int, 1, 1000), default=3, metavar="N",
                   help="the endpoint counts as idle after N consecutive /metrics polls with no running or waiting "
                        "request (default 3)")
    p.add_argument("--idle-interval", type=bounded(float, 0, 60, above=True), default=0.2, metavar="S", help="seconds between idle polls (default 0.2)")
    p.add_argument("--idle-timeout", type=_SECONDS, default=120, metavar="S",
                   help="stop with an error if the endpoint is still busy after S seconds (default 120)")
    p.add_argument("--host-busy-max", type=bounded(float, 0, 1, above=True), metavar="SHARE",
                   help="before each request (record) or level (sweep) wait while the machine's CPUs are busier than "
                        "SHARE (0..1, /proc/stat over the idle-poll window; default: the config's "
                        "record.host_busy_max, else 0.25); 1 turns the wait off, the share is still stored")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def parser(prog: str = CHECKOUT_PROG) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="API keys: set api_key_env = \"VAR\" on an arm; the key is read from $VAR "
                                        "and never written to a recording.")
    sub = ap.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="cells mode: every arm x prompt cell, warm-up + repeats, strictly one request at a time")
    _common(rec)
    rec.add_argument("--repeats", type=bounded(int, *config.LIMITS["repeats"]), help="measured runs per arm x prompt (default: config, else 3)")
    rec.add_argument("--warmup", type=bounded(int, *config.LIMITS["warmup"]), help="warm-up runs per arm x prompt, stored but flagged (default: config, else 1)")
    sw = sub.add_parser("sweep", help="concurrency sweep: per arm in turn, N concurrent streams per level")
    _common(sw)
    sw.add_argument("--levels", type=_levels, help="concurrency levels, e.g. 1,2,4,8,16 (default: config, else 1,2,4,8,16)")
    sw.add_argument("--rounds", type=bounded(int, *config.LIMITS["rounds"]), help="requests each stream sends in a row per level (default: config, else 1)")
    sw.add_argument("--workers", type=bounded(int, 1, 64), default=default_processes(), metavar="N",
                    help="split a level's streams over up to N processes, at least 16 streams each, for engines "
                         "that send more chunks than one process reads (default: half the cores, here "
                         f"{default_processes()})")
    sm = sub.add_parser("summary", help="print the summary table of a recording")
    sm.add_argument("recording", type=recording_arg,
                    help="a recording (.jsonl), or the name of a bundled one (e.g. smollm2-h200.jsonl)")
    return ap


def main(argv: list[str] | None = None, prog: str = CHECKOUT_PROG) -> int:
    args = parser(prog).parse_args(argv)
    # a line this command prints starts with its name: `specreplay summary: …`; the checkout's `python -m
    # recorder` keeps "recorder:", as its progress notes do
    name = "recorder" if prog == CHECKOUT_PROG else f"{prog} {args.command}"
    if args.command == "summary":
        return _summary(args.recording, lambda text: print(f"{name}: {text}", file=sys.stderr))
    # httpx is an extra (specreplay[record]): imported once a recording starts, so --help and summary run without it
    import httpx

    from recorder import cells, server, sweep
    from recorder.session import Idle, Options

    # Ctrl-C must stop cleanly even when started from a background job, which inherits SIGINT ignored;
    # SIGTERM too, so a launched arm's server is stopped either way.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    hidden: list[str] = []  # the arms' keys and passwords: never printed (recorder/redact.py)
    named: list[tuple[str, str]] = []  # values a launch block took from the environment: printed as ${VAR}

    def say(text: str) -> None:
        for var, value in named:
            text = text.replace(value, f"${{{var}}}")
        print(f"{name}: {redact(text, hidden)}", file=sys.stderr)

    out: Path | None = None
    try:
        cfg = config.load(args.config)
        hidden += [s for arm in cfg.arms for s in server.secrets(arm)]
        # longest first; a value of a few characters ("2", "cpu") is no secret and would garble every line
        named += sorted({(var, value) for arm in cfg.arms if arm.launch for var, value in arm.launch.expanded
                         if len(value) >= 4}, key=lambda vv: -len(vv[1]))
        if args.host_busy_max is not None:
            cfg = replace(cfg, host=replace(cfg.host, busy_max=args.host_busy_max))
        if args.command == "sweep":
            cfg, warnings = config.check_mixes(cfg)
            for w in warnings:
                say(w)
        out = args.output or (Path(cfg.output) if cfg.output else None)
        if out is None:
            raise RecorderError("no output file: pass -o FILE or set record.output in the config")
        opts = Options(output=out, max_tokens=args.max_tokens or cfg.max_tokens, request_timeout=args.request_timeout,
                       idle=Idle(args.idle_polls, args.idle_interval, args.idle_timeout), progress=not args.no_progress,
                       workers=getattr(args, "workers", 1), request_total=args.request_total_timeout)
        if args.command == "record":
            reps = cfg.repeats if args.repeats is None else args.repeats
            warm = cfg.warmup if args.warmup is None else args.warmup
            rec, failed = asyncio.run(cells.run(cfg, opts, reps, warm))
        else:
            rec, failed = asyncio.run(sweep.run(cfg, opts, args.levels or cfg.levels, args.rounds or cfg.rounds))
        _print_table(rec, out, say)
        if failed:
            say(f"{failed} request(s) of this call failed; they are stored in {out} with status \"error\" and the "
                "reason — check the server" + (" and rerun the same command to redo them" if args.command == "record"
                                               else ""))
            return 1
        return 0
    except (RecorderError, fmt.RecordingError) as exc:
        say(str(exc))
        return 2
    except httpx.HTTPError as exc:
        say(f"lost the connection to a server ({type(exc).__name__}: {exc}) — every finished run is saved; check "
            "the server and rerun the same command to resume")
        return 2
    except OSError as exc:  # a full disk, a read-only or vanished output folder
        where = exc.filename or out or "the output file"
        say(f"cannot write {where} ({exc.strerror or exc}) — the runs finished before it are saved; free space "
            "or fix the path, then rerun the same command to resume")
        return 2
    except KeyboardInterrupt:
        print(f"\n{name}: interrupted; every finished run is saved — rerun the same command to resume", file=sys.stderr)
        return 130


def _print_table(rec: fmt.Recording, out: Path, say: Callable[[str], None]) -> None:
    """The finished recording's table. It reads the app's assets (the physics ceiling's weight sizes); where they are
    missing (a sources-only copy, as on the lent GPU) the recording stands and the table is left for later."""
    try:
        print(render(rec))
    except OSError as exc:
        say(f"recorded {out}; its table could not be drawn here ({exc.strerror or exc}: {exc.filename}) — "
            f"`specreplay summary {out}` draws it where the app is installed")


def _summary(path: Path, say: Callable[[str], None]) -> int:
    try:
        print(render(catalogue.recording(path)))
        return 0
    except FileNotFoundError:
        say(missing_recording(path))
    except IsADirectoryError:
        say(f"{path}: is a directory — give the path of a recording (.jsonl) in it")
    except OSError as exc:
        say(f"{path}: cannot read it ({exc.strerror or exc}) — check the path and its permissions")
    except fmt.RecordingError as exc:
        say(str(exc))
    return 2


def render(rec: fmt.Recording) -> str:
    from recorder import summary
    from recorder.sweep_summary import render as render_sweep

    # a sweep, or an imported load test (every request with others in flight): the per-level table
    by_level = rec.header.recorder.mode == "sweep" or (
        not rec.select() and any(r.concurrency > 1 for r in rec.select(concurrency=None)))
    return render_sweep(rec) if by_level else summary.render(rec)

