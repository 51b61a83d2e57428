"""`python -m recorder` (a checkout or an install): the same as `specreplay record`,
`specreplay sweep` and `specreplay summary` (recorder/cli.py)."""

import sys

try:
    from recorder.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command is still importing: an exit status, not a traceback
    sys.exit(130)

if __name__ == "__main__":  # a sweep's spawned workers import this module again as __mp_main__
    sys.exit(main())
