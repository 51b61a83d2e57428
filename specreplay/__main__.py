"""`python -m specreplay`: export a replay as one static HTML file, or import another tool's results.

    python -m specreplay export-html recordings/smollm2-vllm-cpu.jsonl --prompt copy-quote -o replay.html
    python -m specreplay import vllm-bench baseline.json ngram.json -o imported.jsonl

Problems end in one line on stderr (file, line, field, what to do) and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from specreplay.export_html import export_recording
from specreplay.format import RecordingError, load
from specreplay.importers import KINDS
from specreplay.importers.common import write_recording
from specreplay.replay_payload import SPEEDS


def _export(args: argparse.Namespace) -> str:
    rec = load(args.recording, repair=True)
    arms = [a for a in args.arms.split(",") if a] if args.arms else None
    html = export_recording(rec, args.prompt, arms, args.repeat, args.lang, args.speed)
    out = Path(args.output)
    out.write_text(html, encoding="utf-8")
    return f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)"


def _import(args: argparse.Namespace) -> str:
    reader, _ = KINDS[args.kind]
    arms = [arm for path in args.files for arm in reader(Path(path), args.tool_version)]
    for arm, label in zip(arms, args.label or []):
        arm.label = label
    out = write_recording(args.output, arms, args.title)
    runs = sum(len(a.requests) for a in arms)
    return f"wrote {out}: {len(arms)} arm(s), {runs} request(s), imported from {arms[0].tool}"


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m specreplay", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)

    ex = sub.add_parser("export-html", help="one self-contained HTML file that replays a recording offline",
                        description="Write the replay of one prompt as a single HTML file: the app's player, the "
                        "chosen runs and a provenance header, all inline. It loads nothing from the network, so it "
                        "plays opened from disk or in an <iframe> on any static host.")
    ex.add_argument("recording", help="a recording (.jsonl), e.g. recordings/smollm2-vllm-cpu.jsonl")
    ex.add_argument("--prompt", help="prompt id (default: the first prompt with finished runs)")
    ex.add_argument("--arms", help="comma-separated arm ids, 1–4, as in the app's ?arms= (recorded ids or sim:… "
                    "tokens; default: every arm that ran the prompt, up to 4)")
    ex.add_argument("--repeat", type=int, help="repeat number (default: each arm's median repeat by decode speed)")
    ex.add_argument("--lang", choices=("ko", "en"), default="ko", help="interface language (default: ko)")
    ex.add_argument("--speed", type=float, choices=SPEEDS, default=1.0, help="initial playback speed (default: 1)")
    ex.add_argument("-o", "--output", required=True, help="the HTML file to write")
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
    im.add_argument("-o", "--output", required=True, help="the recording to write (.jsonl; must not exist)")
    im.add_argument("--label", action="append", help="an arm's label, once per arm in order (default: from the file)")
    im.add_argument("--title", help="the recording's title")
    im.add_argument("--tool-version", help="the tool's version, where its file does not say")
    im.set_defaults(run=_import)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        print(args.run(args))
    except (RecordingError, LookupError, ValueError, OSError) as exc:
        print(f"specreplay {args.command}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
