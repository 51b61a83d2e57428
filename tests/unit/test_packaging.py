"""The wheel ships every package of the tree: a folder of specreplay/ that pyproject.toml does not list is missing
from an installed specreplay (it happened to specreplay/engines/: `specreplay record --help` failed when installed)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_folder_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {"specreplay." + p.parent.relative_to(ROOT / "specreplay").as_posix().replace("/", ".")
             for p in (ROOT / "specreplay").glob("*/__init__.py")}
    assert found <= listed, f"add to pyproject.toml's packages: {sorted(found - listed)}"


def test_the_recorder_is_the_package_of_its_own_folder() -> None:
    """The product's top-level recorder/ is imported as `recorder`, in a checkout and installed: no folder mapping."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "recorder" in setuptools["packages"] and (ROOT / "recorder/__init__.py").is_file()
    assert not any("recorder" in name or "recorder" in folder for name, folder in setuptools["package-dir"].items())
