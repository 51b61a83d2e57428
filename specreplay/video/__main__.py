"""`python -m specreplay.video`: see specreplay.video.cli."""

import sys

from specreplay.video.cli import main

sys.exit(main())
