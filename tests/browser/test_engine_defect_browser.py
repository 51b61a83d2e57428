"""The player in Debian's chromium, in an exported file of a bundled H200 Qwen recording: the unpatched vLLM 0.23.0
draft-model pane's warning is a link to the upstream fix, and the pane without a drafter has none."""

from __future__ import annotations

from pathlib import Path

from specreplay.engines.defects import DRAFT_GRAPHS
from specreplay.recording.format import load
from specreplay.replay.export_html import export_recording
from specreplay.replay.selection import Selection
from tests.browser.test_export_html_browser import open_offline
from tests.browser_fixtures import ROOT


def test_the_defect_line_in_the_player_links_to_the_fix(page, tmp_path: Path) -> None:
    rec = load(ROOT / "recordings" / "qwen-coder-1.5b-vllm-h200-q4-draft.jsonl")
    html_file = tmp_path / "replay.html"
    html_file.write_text(export_recording(rec, Selection("code", ("q4", "q4-draft")), lang="en"), encoding="utf-8")
    root, blocked = open_offline(page, html_file)
    panes = root.locator(".pane")
    assert panes.nth(0).locator("a.warn-link").count() == 0
    link = panes.nth(1).locator(".pane-warn a.warn-link")
    assert link.count() == 1
    assert link.get_attribute("href") == DRAFT_GRAPHS.link and link.get_attribute("target") == "_blank"
    assert link.text_content() == DRAFT_GRAPHS.warning("en")
    assert page.locator(f".export-warn a[href='{DRAFT_GRAPHS.link}']").count() == 1  # the file's header says it too
    assert blocked == []  # nothing was fetched: the link is only followed when a reader clicks it
