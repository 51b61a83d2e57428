"""Where the package's data lives: assets/ and recordings/ ship as the packages specreplay.assets and
specreplay.recordings (pyproject's package-dir maps them from a checkout's top-level folders).

Both are plain folders on disk: pip installs wheels unzipped and an editable install points at the checkout,
so Pillow (fonts), ffmpeg and globbing get real paths.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _folder(package: str) -> Path:
    root = files(package)
    if not isinstance(root, Path):  # a zip import: nothing here can read fonts or glob recordings from it
        raise ImportError(f"{package} is not a folder on disk ({root}); install specreplay with pip (unzipped)")
    return root


ASSETS = _folder("specreplay.assets")
RECORDINGS = _folder("specreplay.recordings")
