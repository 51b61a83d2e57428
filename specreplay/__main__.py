"""`python -m specreplay`: the same command as `specreplay` (specreplay/cli.py)."""

import sys

try:
    from specreplay.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command is still importing: an exit status, not a traceback
    sys.exit(130)

if __name__ == "__main__":
    sys.exit(main())
