"""`specreplay export-chart NAME -o FILE.html`: one of the app's interactive charts as a self-contained HTML file
(docs/interop.md). Problems end in one line on stderr and exit status 2; nothing is written then. A chart written
without a recording it should draw from (unreadable, or holding nothing it needs) says so at its top, and the
command names each such recording on stderr and exits 1."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from specreplay import languages
from specreplay.embeds.export import CHARTS, WIDTH, StateError, chart_document, chart_named, parse_size, state_of
from specreplay.output import OutputError, WriteError, check_output, write_atomic
from specreplay.recording.locations import recording_files


def parser(prog: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog=prog, description="Write one of the app's interactive charts as a single HTML file: its controls, the "
        "formulas, the measured and quoted data with their badges and sources, Korean or English, all inline "
        "(gzip-compressed data). It loads nothing from the network: it opens from disk or in any site's <iframe>. "
        "The same inputs write the same bytes.")
    ap.add_argument("name", choices=list(CHARTS), help="the chart: " + ", ".join(CHARTS))
    ap.add_argument("-o", "--output", required=True, help="the HTML file to write (must not exist unless --force; "
                    "never a recording the charts read)")
    ap.add_argument("--lang", choices=languages.LANGUAGES, default=languages.LANGUAGES[0],
                    help=f"the chart's language (default: {languages.LANGUAGES[0]})")
    ap.add_argument("--state", default="", help="where the controls start: an app link or its query, e.g. "
                    "'http://127.0.0.1:8501/acceptance?alpha=0.7&gamma=4' or 'alpha=0.7&gamma=4' (default: the "
                    "app's opening state; names of other charts are ignored)")
    ap.add_argument("--size", default=str(WIDTH), help=f"WIDTH or WIDTHxHEIGHT in px: the page's largest width and "
                    f"each plot's height (default: {WIDTH}, the app's heights)")
    ap.add_argument("--force", action="store_true", help="replace OUTPUT if it exists")
    return ap


def main(argv: list[str], prog: str) -> int:
    args = parser(prog).parse_args(argv)
    out = Path(args.output)
    try:
        check_output(out, force=args.force, inputs=recording_files())  # the charts read the recording folders
        width, height = parse_size(args.size)
        chart = chart_named(args.name, args.lang)
        write_atomic(out, chart_document(chart, args.lang, state_of(args.state), width, height))
    except (OutputError, StateError, LookupError, WriteError) as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{prog}: {exc.filename or out}: cannot write it ({exc.strerror or exc}) — nothing was written",
              file=sys.stderr)
        return 2
    print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB)")
    for line in dict.fromkeys(chart.skipped):
        print(f"{prog}: left out of {out} (the chart says so at its top): {line}", file=sys.stderr)
    return 1 if chart.skipped else 0
