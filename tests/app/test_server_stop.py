"""What a Streamlit server process leaves behind when it stops: its temporary video folder is removed."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from tests.browser_fixtures import ROOT
from tests.local_server import free_port, local_server

# The app's server process as `streamlit run` makes it (streamlit.web.bootstrap.run: the same server and signal
# handling), after the video panel has made its folder, as its first render does.
WRAPPER = """
import sys
from pathlib import Path
from streamlit.web import bootstrap
from specreplay.views.video_panel import video_dir
(video_dir() / "left.mp4").write_bytes(b"x")
Path(sys.argv[3]).write_text(str(video_dir()))
flags = {"server_port": int(sys.argv[2]), "server_address": "127.0.0.1", "server_headless": True,
         "browser_gatherUsageStats": False}
bootstrap.load_config_options(flag_options=flags)
bootstrap.run(sys.argv[1], False, [], flags)
"""


def test_the_video_folder_is_removed_when_the_server_stops(tmp_path: Path) -> None:
    wrapper = tmp_path / "serve.py"
    wrapper.write_text(WRAPPER)
    page = tmp_path / "page.py"
    page.write_text("import streamlit as st\nst.write('hi')\n")
    port, said = free_port(), tmp_path / "folder.txt"
    with local_server([sys.executable, str(wrapper), str(page), str(port), str(said)],
                      f"http://127.0.0.1:{port}/_stcore/health", "stop-test", 60, cwd=ROOT) as proc:
        folder = Path(said.read_text())
        assert folder.is_dir() and (folder / "left.mp4").exists()
        proc.send_signal(signal.SIGTERM)  # how a service manager stops it; Ctrl-C is SIGINT, handled the same way
        assert proc.wait(timeout=30) == 0
    assert not folder.exists()

