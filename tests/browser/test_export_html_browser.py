"""The exported file in Debian's chromium: opened from file:// with every non-file request aborted (and recorded),
it plays, pauses and seeks, and each pane matches the recording at the t the frame rendered — the same checks
tests/browser/test_replay_browser.py makes on the app's player."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from specreplay.recording.format import load, load_header
from specreplay.replay.export_html import export_recording
from specreplay.replay.panes import median_repeat
from specreplay.replay.selection import selection
from specreplay.replay.timeline import track_of, visible_tokens
from tests.browser.test_replay_browser import assert_shows_recording, seek, state
from tests.browser_fixtures import ROOT
from tests.replay_recordings import ARMS, write_recording
from tests.unit.test_export_html import BUNDLED, embedded_payload, export_cli


def open_offline(page, html_file: Path) -> tuple[object, list[str]]:
    """Open the file from disk with every request that is not file: or data: aborted; returns the player root and
    the list of URLs that were attempted (and blocked)."""
    blocked: list[str] = []

    def guard(route) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    page.context.route("**/*", guard)
    page.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else blocked.append(r.url))
    page.goto(html_file.as_uri())
    page.wait_for_selector(".pane", timeout=30_000)
    page.wait_for_function("window.specreplayPlayer !== undefined")
    return page.locator("#player"), blocked


def test_exported_file_plays_offline_like_the_app(page, tmp_path: Path) -> None:
    rec_path = write_recording(tmp_path / "rec.jsonl")
    rec = load(rec_path)
    html_file = tmp_path / "replay.html"
    assert export_cli(str(rec_path), "--prompt", "chat-1", "--lang", "en", "-o", str(html_file)).returncode == 0
    trs = [track_of(median_repeat(rec, arm, "chat-1")) for arm in ARMS]
    root, blocked = open_offline(page, html_file)
    assert_shows_recording(state(root), trs)  # t = 0

    page.locator("button.play").click()
    for _ in range(3):  # while playing, every sampled frame shows the recording at its own t
        page.wait_for_timeout(400)
        st = state(root)
        assert st["playing"] and st["t"] > 0
        assert_shows_recording(st, trs)
    page.locator("button.play").click()

    end = max(track.end_us for track in trs)
    for t in (0, trs[2].t_us[3] - 1, trs[2].t_us[3], 1_234_567, trs[0].t_us[40], end - 1, end):
        seek(page, t)
        st = state(root)
        assert st["t"] == t
        assert [p["tokens"] for p in st["panes"]] == [visible_tokens(track, t) for track in trs]
        assert_shows_recording(st, trs)
    assert blocked == []


def test_the_docs_iframe_snippet_plays_the_file(page, tmp_path: Path) -> None:
    """docs/interop.md's <iframe> snippet, in a page next to the exported file, opened from disk offline."""
    snippet = re.search(r"```html\n(<iframe.*?</iframe>)\n```", (ROOT / "docs" / "interop.md").read_text(), re.S)
    assert snippet and 'src="replay.html"' in snippet.group(1)
    rec_path = write_recording(tmp_path / "rec.jsonl")
    trs = [track_of(median_repeat(load(rec_path), arm, "chat-1")) for arm in ARMS]
    assert export_cli(str(rec_path), "--prompt", "chat-1", "-o", str(tmp_path / "replay.html")).returncode == 0
    (tmp_path / "post.html").write_text(f"<!doctype html><p>A blog post.</p>{snippet.group(1)}", encoding="utf-8")
    blocked: list[str] = []
    page.context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(("file:", "data:"))
                       else (blocked.append(route.request.url), route.abort()))
    page.goto((tmp_path / "post.html").as_uri())
    frame = page.frame_locator("iframe")
    frame.locator(".pane").first.wait_for(timeout=30_000)
    root = frame.locator("#player")
    seek(frame, 2_000_000)
    st = state(root)
    assert st["t"] == 2_000_000
    assert_shows_recording(st, trs)
    frame.locator("button.speed[data-speed='4']").click()
    assert page.evaluate("location.href") == (tmp_path / "post.html").as_uri()  # the post's URL is left alone
    assert blocked == []


def test_exported_markup_stays_text_offline(page, tmp_path: Path) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    html_file = tmp_path / "markup.html"
    rec = load(write_recording(tmp_path / "m.jsonl", markup=True))
    html_file.write_text(export_recording(rec, selection(rec, "chat-1", ["base", "spec"], speed=1.0), "en"),
                         encoding="utf-8")
    root, blocked = open_offline(page, html_file)
    seek(page, 10_000_000)
    text = root.locator(".pane .stream").first.text_content()
    assert "<script>alert(1)</script>" in text and "<img src=x onerror=alert(2)>" in text
    assert root.evaluate("r => [...r.querySelectorAll('.stream *')].every(e => e.matches('div.seg, span.burst'))")
    page.wait_for_timeout(300)
    assert dialogs == [] and blocked == []


# the first bundled recording with real text (timing-only files show blocks, never their dummy text)
REAL_TEXT = next((p for p in BUNDLED if not load_header(p).timing_only), None)


@pytest.mark.skipif(REAL_TEXT is None, reason="no bundled recording with real text")
def test_bundled_export_plays_offline(page, tmp_path: Path) -> None:
    """The first bundled recording with real text (real llama.cpp or vLLM arms), exported with defaults, at several
    t."""
    assert REAL_TEXT is not None
    rec = load(REAL_TEXT)
    html_file = tmp_path / "bundled.html"
    assert export_cli(str(REAL_TEXT), "-o", str(html_file)).returncode == 0
    sel = selection(rec)  # the replay page's choice, as export-html takes it by default
    assert embedded_payload(html_file.read_text())["panes"][0]["key"].split("/")[1] == sel.prompt
    trs = [track_of(median_repeat(rec, a, sel.prompt)) for a in sel.arms]
    root, blocked = open_offline(page, html_file)
    end = max(track.end_us for track in trs)
    for t in (0, trs[0].t_us[0], end // 3, end // 2, end - 1, end):
        seek(page, t)
        st = state(root)
        assert [p["tokens"] for p in st["panes"]] == [visible_tokens(track, t) for track in trs]
        assert_shows_recording(st, trs)
    assert blocked == []


# Per pane label: its text, and whether every character up to the shared model name (the words that tell the arms
# apart) lies inside the label's box (lines past the clamp are cut).
DISTINCT_SHOWN = """(shared) => [...document.querySelectorAll('.pane-label .label-short')].map(e => {
  const text = e.textContent, end = text.lastIndexOf(shared) > 0 ? text.lastIndexOf(shared) : text.length;
  const range = document.createRange();
  range.setStart(e.firstChild, 0);
  range.setEnd(e.firstChild, end);
  const box = e.parentElement.getBoundingClientRect();
  return [text, [...range.getClientRects()].every(r => r.bottom <= box.bottom + 1 && r.right <= box.right + 1)];
})"""


@pytest.mark.parametrize("width", [390, 560, 1000, 1400])
def test_four_pane_titles_keep_the_words_that_tell_the_arms_apart(browser, tmp_path: Path, width: int) -> None:
    """Issue #41 item 6: with four arms a pane's title keeps the words that tell it apart ("+ 0.5B draft model K=4 ·
    Q4_K_M 4-bit", the drafter's target among them) in sight, in Korean, at every width; only the model name they
    share may be cut."""
    rec = load(ROOT / "recordings" / "qwen-coder-1.5b-llamacpp-cpu.jsonl")
    sel = selection(rec, "code", ["f16", "q4", "f16-draft", "q4-draft"], None, None)
    html_file = tmp_path / "four.html"
    html_file.write_text(export_recording(rec, sel, "ko"), encoding="utf-8")
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = ctx.new_page()
        open_offline(page, html_file)
        labels = page.evaluate(DISTINCT_SHOWN, " · Qwen2.5-Coder-1.5B")
        assert len(labels) == 4 and all(shown for _, shown in labels), labels
        assert "Q4_K_M 4비트" in labels[3][0] and "드래프트 모델" in labels[3][0]
    finally:
        ctx.close()
