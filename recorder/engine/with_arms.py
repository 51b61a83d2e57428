"""Start both SmolLM2 arms (baseline on 8001, ngram on 8002), run a command, stop them — also on failure.

    .venv/bin/python -m recorder.engine.with_arms -- .venv/bin/python -m recorder record recorder/configs/smollm2.toml

The ports match recorder/configs/*.toml. Exits with the command's status.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time

from recorder.engine import serve


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline-port", type=int, default=8001)
    ap.add_argument("--ngram-port", type=int, default=8002)
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command to run once both arms are ready")
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        ap.error("give a command after --")
    signal.signal(signal.SIGINT, signal.default_int_handler)  # also when started from a background job
    servers = []
    try:
        t0 = time.monotonic()
        servers = [serve.start("baseline", args.baseline_port), serve.start("ngram", args.ngram_port)]
        for s in servers:
            serve.wait_ready(s)
        print(f"with_arms: both arms ready after {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
        return subprocess.call(cmd)
    except RuntimeError as exc:
        print(f"with_arms: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        for s in servers:
            s.stop()


if __name__ == "__main__":
    sys.exit(main())
