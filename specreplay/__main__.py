"""`python -m specreplay`: the same command as `specreplay` (specreplay/cli.py)."""

import sys

from specreplay.cli import main

if __name__ == "__main__":
    sys.exit(main())
