"""`python -m specreplay export-html`: one static file that plays like the app's player, offline, from disk.

What the file holds and the command line; test_export_html_browser.py plays it in chromium.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from specreplay.recording.format import load
from specreplay.replay.export_html import CSP, export_recording
from specreplay.replay.payload import player_payload
from specreplay.replay.selection import selection
from tests.browser_fixtures import ROOT
from tests.replay_recordings import write_recording

BUNDLED = sorted((ROOT / "recordings").glob("*.jsonl"))


def embedded_payload(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="specreplay-payload">(.*?)</script>', html)
    assert m, "no payload in the export"
    return json.loads(m.group(1))


def export_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "specreplay", "export-html", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_the_export_holds_the_same_player_and_payload_as_the_app(tmp_path: Path) -> None:
    rec = load(write_recording(tmp_path / "rec.jsonl"))
    sel = selection(rec, "chat-1", speed=2.0)
    html = export_recording(rec, sel, "en")
    panes = sel.panes(rec, "simulated")
    assert embedded_payload(html) == {**json.loads(json.dumps(player_payload(panes, speed=2.0, lang="en"))),
                                      "standalone": True}
    for asset in ("player.js", "player.css"):  # the app's own files, inlined unchanged
        assert (ROOT / "assets" / "player" / asset).read_text(encoding="utf-8") in html
    assert f'content="{CSP}"' in html
    # nothing is fetched: no src/href attributes, no URL with a scheme other than data:
    assert not re.search(r'\b(src|href)\s*=', html)
    assert not re.search(r"https?://", html.split('id="specreplay-payload"')[0])


def test_token_markup_cannot_leave_the_payload(tmp_path: Path) -> None:
    rec = load(write_recording(tmp_path / "markup.jsonl", markup=True))
    html = export_recording(rec, selection(rec, "chat-1", ["base", "spec"], speed=1.0), "ko")
    assert "</script>alert" not in html and "<img src=x" not in html
    assert "<script>alert(1)</script>" in "".join(embedded_payload(html)["panes"][0]["text"])


def test_cli_writes_the_file_and_reports_its_size(tmp_path: Path) -> None:
    write_recording(tmp_path / "rec.jsonl")
    done = export_cli(str(tmp_path / "rec.jsonl"), "--prompt", "code-1", "--arms", "base,spec", "--lang", "en",
                      "-o", str(tmp_path / "out.html"))
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"wrote .*out\.html \(\d+ KiB\)\n", done.stdout)
    assert [p["key"] for p in embedded_payload((tmp_path / "out.html").read_text())["panes"]] == \
        ["base/code-1/1", "spec/code-1/1"]


@pytest.mark.parametrize(("args", "message"), [
    (["--prompt", "nope"], "prompt 'nope' has no finished single-stream run; choose one of chat-1, code-1"),
    (["--arms", "base,ghost"], "unknown arm 'ghost'; this recording has base, q4, spec"),
    (["--arms", "base,q4,spec,base,q4"], "choose 1–4 arms, got 5"),
])
def test_cli_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    write_recording(tmp_path / "rec.jsonl")
    done = export_cli(str(tmp_path / "rec.jsonl"), *args, "-o", str(tmp_path / "out.html"))
    assert done.returncode == 2 and done.stderr == f"specreplay export-html: {message}\n"
    assert not (tmp_path / "out.html").exists()


@pytest.mark.skipif(not BUNDLED, reason="no bundled recordings")
@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_bundled_recordings_export_small(path: Path, tmp_path: Path) -> None:
    """Each bundled recording's default export stays embeddable (docs/interop.md quotes these sizes)."""
    done = export_cli(str(path), "-o", str(tmp_path / "out.html"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.html").stat().st_size < 200 * 1024
