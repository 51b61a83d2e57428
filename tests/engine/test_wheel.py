"""`pip install .` gives a working product: the wheel, installed into a fresh venv outside the checkout, answers
--help, renders a video of a bundled recording and serves the app, with nothing of the checkout importable.

The wheel is built from a copy of the checkout's files (tracked and new, not ignored), as from a clean clone.
Third-party packages come from this test run's own environment through one .pth line in the fresh venv:
installing Streamlit and the rest afresh would take minutes and a registry. A folder named in a .pth line is
only added to sys.path (its own .pth files, such as the checkout's editable-install hook, are not run), and
every test checks that specreplay itself was imported from the fresh venv.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from specreplay.recording.format import load
from specreplay.replay.panes import recorded_arm_pane
from specreplay.replay.playback import default_speed
from specreplay.video.plan import frame_count, parse_speed
from tests.browser_fixtures import ROOT
from tests.local_server import free_port, local_server

pytestmark = pytest.mark.slow

RECORDING = "smollm2-h200.jsonl"  # on an H200: a 256-token run takes under a second, so the clip is short
PROMPT, ARMS = "copy-quote", "baseline,ngram"


def _checkout_files(dest: Path) -> None:
    names = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, names):
        if (ROOT / name).is_symlink() or (ROOT / name).is_file():  # a deleted, not yet committed file is skipped
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name, follow_symlinks=False)


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A fresh venv, outside the checkout, holding the wheel built from it."""
    tmp = tmp_path_factory.mktemp("wheel")
    assert not tmp.is_relative_to(ROOT)
    _checkout_files(tmp / "src")
    pip = [sys.executable, "-m", "pip"]
    subprocess.run([*pip, "wheel", "-q", "--no-deps", "-w", str(tmp / "dist"), str(tmp / "src")], check=True,
                   timeout=600)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp / "venv")], check=True)
    (wheel,) = (tmp / "dist").glob("specreplay-*.whl")
    subprocess.run([*pip, "--python", str(tmp / "venv/bin/python"), "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, timeout=300)
    site = subprocess.run([str(tmp / "venv/bin/python"), "-c", "import sysconfig; print(sysconfig.get_paths()"
                           "['purelib'])"], capture_output=True, text=True, check=True).stdout.strip()
    deps = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (Path(site) / "specreplay-test-deps.pth").write_text("\n".join(deps) + "\n")
    (tmp / "work").mkdir()
    return tmp / "venv"


def _env() -> dict[str, str]:
    """A user's environment: no PYTHONPATH, and the friendly error panel (no SPECREPLAY_RAISE)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SPECREPLAY_RAISE")}


def run(venv: Path, *args: str) -> subprocess.CompletedProcess:
    """A command of the fresh venv, run from a folder outside the checkout."""
    return subprocess.run([str(venv / "bin" / args[0]), *args[1:]], cwd=venv.parent / "work", env=_env(),
                          capture_output=True, text=True, timeout=300)


def test_specreplay_and_its_data_come_from_the_install_not_the_checkout(venv: Path) -> None:
    proc = run(venv, "python", "-c", "import importlib.util, specreplay\n"
               "from specreplay.resources import ASSETS, RECORDINGS\n"
               "from specreplay.video.glyphs import font_path\n"
               "print(specreplay.__file__, ASSETS, RECORDINGS, font_path('NanumGothic.ttf'), sep='\\n')\n"
               "print(importlib.util.find_spec('recorder.engine'))")
    assert proc.returncode == 0, proc.stderr
    *paths, engine = proc.stdout.splitlines()
    for path in paths:  # the package, its assets and recordings, the font Pillow draws with
        assert Path(path).is_relative_to(venv), path
    assert engine == "None"  # recorder/engine/ (dev tooling) is not shipped


def test_help_lists_every_command(venv: Path) -> None:
    proc = run(venv, "specreplay", "--help")
    assert proc.returncode == 0, proc.stderr
    for command in ("app", "record", "sweep", "summary", "video", "export-html", "import"):
        assert f"specreplay {command} " in proc.stdout
    proc = run(venv, "python", "-m", "specreplay", "record", "--help")
    assert proc.returncode == 0 and proc.stdout.startswith("usage: specreplay record "), proc.stderr


def test_video_of_a_bundled_recording(venv: Path) -> None:
    recording = venv.parent / "work" / RECORDING
    shutil.copy(next(venv.glob(f"lib/python*/site-packages/specreplay/recordings/{RECORDING}")), recording)
    out = venv.parent / "work/clip.mp4"
    proc = run(venv, "specreplay", "video", RECORDING, "--prompt", PROMPT, "--arms", ARMS, "--hold", "0.5",
               "-q", "-o", out.name)
    assert proc.returncode == 0, proc.stderr
    import imageio_ffmpeg

    rec = load(ROOT / "recordings" / RECORDING)
    panes = [recorded_arm_pane(rec, arm, PROMPT) for arm in ARMS.split(",")]
    frames, _ = imageio_ffmpeg.count_frames_and_secs(str(out))
    speed = default_speed(max(p.track.end_us for p in panes))
    assert speed < 1  # over in half a second: the clip opens slowed, as the player does
    assert frames == frame_count(panes, 30, parse_speed(f"{speed:g}"), 0.5)


def test_app_serves_its_pages(venv: Path, page) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [str(venv / "bin/specreplay"), "app", "--server.port", str(port), "--server.address", "127.0.0.1",
           "--server.headless", "true"]
    errors = "[data-testid='stException'], [data-testid='stAlertContentError']"
    with local_server(cmd, f"{url}/_stcore/health", "installed-app", 90, cwd=venv.parent / "work", env=_env()):
        page.goto(f"{url}/?lang=en")
        page.get_by_text("Several times faster — and when it isn't").wait_for(timeout=60_000)
        page.get_by_role("link", name="How acceptance rate α").first.click()  # an explainer page: live charts
        page.wait_for_url("**/acceptance**", timeout=30_000)
        page.locator("h1:has-text('Acceptance rate & draft length')").first.wait_for(timeout=60_000)
        page.locator("[data-testid='stSlider']").first.wait_for(timeout=30_000)
        assert page.locator(errors).count() == 0
        page.goto(f"{url}/replay?lang=en")  # the player and the bundled recordings, from the package
        player = page.wait_for_selector(f"iframe[srcdoc], {errors}", timeout=120_000)
        assert player.get_attribute("srcdoc") is not None, player.text_content()
        player.content_frame().wait_for_selector(".pane", timeout=30_000)
        assert page.get_by_text("Something went wrong").count() == 0
