"""The core (the specreplay/ folder) runs without Streamlit: the recorder, the video CLI and the importers use it
on machines that never serve the app. Only specreplay/views/ (specreplay.views) may import streamlit."""

import subprocess
import sys

from tests.browser_fixtures import ROOT

CORE = ROOT / "specreplay"


def core_modules() -> list[str]:
    names = (".".join(("specreplay", *p.relative_to(CORE).with_suffix("").parts)) for p in CORE.rglob("*.py")
             if p.name != "__main__.py"  # __main__ runs a command on import
             and p.relative_to(CORE).parts[0] != "views")  # the app layer: Streamlit's
    return sorted(name.removesuffix(".__init__") for name in names)


def test_importing_every_core_module_loads_no_streamlit_or_plotly() -> None:
    modules = core_modules()
    assert "specreplay.video.render" in modules and "specreplay.recording.format" in modules
    code = ("import importlib, sys\n"
            f"for m in {modules!r}: importlib.import_module(m)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly')))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
