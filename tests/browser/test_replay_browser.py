"""The replay player in Debian's chromium: what each pane shows at t is what the recording has at t.

The recordings are the test ones (tests/replay_recordings.py) that the shared app server reads besides the
bundled folder (browser_fixtures.test_recordings), so they are never bundled.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from specreplay.recording.format import load
from specreplay.replay.panes import median_repeat
from specreplay.replay.timeline import Track, track_of, visible_text, visible_tokens
from tests.browser_fixtures import ROOT
from tests.replay_recordings import ARMS

FRAME_US = 1_000_000 // 60  # one display frame at 60 Hz
README_SCREENSHOT = ROOT / "docs" / "screenshot-replay.png"

# One call reads everything a frame shows, so the figures all come from the same rendered frame.
READ_STATE = """(root, wall) => ({
  t: Number(root.dataset.tUs), playing: root.dataset.playing === "true", speed: Number(root.dataset.speed),
  panes: [...root.querySelectorAll(".pane")].map(p => ({
    tokens: Number(p.querySelector(".counter-tokens .value").textContent),
    text: p.querySelector(".stream").textContent,
    bursts: p.querySelectorAll(".stream .burst").length,
  })),
  wall,
})"""


def tracks(folder: Path, name: str, prompt: str = "chat-1") -> list[Track]:
    rec = load(folder / f"{name}.jsonl")
    return [track_of(median_repeat(rec, arm, prompt)) for arm in ARMS]


def open_player(page, app_url: str, query: str):
    """The replay page with the given query; returns the player's root element inside its iframe."""
    page.goto(f"{app_url}/replay?{query}")
    # the player, or the error that stands in its place (slow when the box is busy)
    handle = page.wait_for_selector("iframe[srcdoc], [data-testid='stAlertContentError']", timeout=120_000)
    assert handle.get_attribute("srcdoc") is not None, handle.text_content()
    frame = handle.content_frame()
    frame.wait_for_selector(".pane", timeout=30_000)
    frame.wait_for_function("window.specreplayPlayer !== undefined")
    return frame, frame.locator("#player")


def state(root) -> dict:
    """What the next painted frame shows, with that frame's time: the player's own animation frame, asked
    for before ours, has rendered it by then, so t and wall come from one instant even on a busy machine."""
    return root.evaluate(f"root => new Promise(ok => requestAnimationFrame(ts => ok(({READ_STATE})(root, ts))))")


def assert_shows_recording(st: dict, trs: list[Track]) -> None:
    for pane, tr in zip(st["panes"], trs, strict=True):
        assert pane["tokens"] == visible_tokens(tr, st["t"]), st["t"]
        assert pane["text"] == visible_text(tr, st["t"]), st["t"]


def seek(frame, t_us: int) -> None:
    """Drag the scrub bar to t_us (sets its value and fires the input event a drag fires)."""
    frame.locator("input.scrub").evaluate(
        "(el, t) => { el.value = String(t); el.dispatchEvent(new Event('input', {bubbles: true})); }", t_us)


def test_panes_show_the_recording_at_every_t(app_url: str, page, test_recordings: Path) -> None:
    trs = tracks(test_recordings, "test-basic")
    frame, root = open_player(page, app_url, "lang=en&recording=test-basic&prompt=chat-1&arms=base,q4,spec")
    assert_shows_recording(state(root), trs)  # t = 0: nothing yet

    frame.locator("button.play").click()
    for _ in range(4):  # while playing: every sampled frame agrees with the recording at its own t
        page.wait_for_timeout(400)
        st = state(root)
        assert st["playing"] and st["t"] > 0
        assert_shows_recording(st, trs)

    frame.locator("button.play").click()  # pause
    paused = state(root)
    assert not paused["playing"]
    assert_shows_recording(paused, trs)
    page.wait_for_timeout(100)
    assert state(root)["t"] == paused["t"]  # what the pause shows is where the clock stopped
    page.wait_for_timeout(300)
    assert state(root)["t"] == paused["t"]

    end = max(tr.end_us for tr in trs)
    for t in (0, trs[2].t_us[3] - 1, trs[2].t_us[3], 1_234_567, trs[0].t_us[40], end - 1, end):
        seek(frame, t)
        st = state(root)
        assert st["t"] == t  # paused: the frame shows exactly the t asked for
        assert_shows_recording(st, trs)

    frame.locator("button.play").click()  # seeking while playing: at most a frame or two later than asked
    seek(frame, 2_000_000)
    wall0 = time.monotonic()
    st = state(root)
    assert 2_000_000 <= st["t"] <= 2_000_000 + (time.monotonic() - wall0) * 1e6 + 2 * FRAME_US
    assert_shows_recording(st, trs)


def test_pause_speed_keyboard_and_bursts(app_url: str, page, test_recordings: Path) -> None:
    trs = tracks(test_recordings, "test-basic")
    frame, root = open_player(page, app_url, "lang=en&recording=test-basic&prompt=chat-1&arms=base,q4,spec")
    frame.locator("button.speed[data-speed='2']").click()
    assert state(root)["speed"] == 2
    page.wait_for_function("() => new URL(location.href).searchParams.get('speed') === '2'")  # shareable

    frame.locator(".keys").click()  # focus the player, then drive it from the keyboard
    page.keyboard.press("Space")
    a = state(root)
    page.wait_for_timeout(1000)
    b = state(root)
    assert a["playing"] and b["playing"]
    rate = (b["t"] - a["t"]) / ((b["wall"] - a["wall"]) * 1000)
    assert rate == pytest.approx(2, rel=0.01)  # the clock runs at twice wall time
    assert_shows_recording(b, trs)

    # Space and the read in one task, so no animation frame can come between them
    paused = root.evaluate(f"""root => {{
      root.dispatchEvent(new KeyboardEvent("keydown", {{key: " ", bubbles: true}}));
      return ({READ_STATE})(root, performance.now());
    }}""")
    assert not paused["playing"]
    assert_shows_recording(paused, trs)
    page.wait_for_timeout(100)
    assert state(root)["t"] == paused["t"]  # what the pause shows is where the clock stopped
    page.keyboard.press("ArrowLeft")
    assert state(root)["t"] == max(0, paused["t"] - 1_000_000)
    page.keyboard.press("ArrowUp")
    assert state(root)["speed"] == 4

    seek(frame, 1_500_000)
    frame.locator("label.bursts input").check()
    assert "show-bursts" in root.get_attribute("class")
    st = state(root)
    k = [sum(1 for t, n in zip(tr.t_us, tr.n) if t <= st["t"] and n > 1) for tr in trs]
    assert [p["bursts"] for p in st["panes"]] == k and k[2] > 0 and k[0] == 0  # only the drafter arm bursts


def test_markup_in_token_text_is_literal_text(app_url: str, page) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    frame, root = open_player(page, app_url, "lang=en&recording=test-markup&arms=base,spec")
    seek(frame, 10_000_000)
    text = root.locator(".pane .stream").first.text_content()
    assert "<script>alert(1)</script>" in text and "<img src=x onerror=alert(2)>" in text
    # the only elements inside a stream are the player's own line segments and burst spans
    assert root.evaluate("r => [...r.querySelectorAll('.stream *')].every(e => e.matches('div.seg, span.burst'))")
    assert root.evaluate("r => r.querySelectorAll('.stream img, .stream script, .stream b').length") == 0
    page.wait_for_timeout(300)
    assert dialogs == []


def test_long_output_follows_unless_the_reader_scrolled_up(app_url: str, page) -> None:
    frame, root = open_player(page, app_url, "lang=en&arms=sim:1000/0.1/0/0/5000,sim:2000/0.1/0.7/5/5000")
    seek(frame, 3_000_000)
    at_bottom = "s => s.scrollHeight > s.clientHeight && s.scrollTop + s.clientHeight >= s.scrollHeight - 4"
    streams = root.locator(".stream")
    assert all(streams.nth(i).evaluate(at_bottom) for i in range(2))
    streams.nth(0).evaluate("s => { s.scrollTop = 0; s.dispatchEvent(new Event('scroll')); }")
    seek(frame, 3_500_000)
    assert streams.nth(0).evaluate("s => s.scrollTop") == 0  # left where the reader put it
    assert streams.nth(1).evaluate(at_bottom)


def test_embed_mode_still_plays(app_url: str, page, test_recordings: Path) -> None:
    trs = tracks(test_recordings, "test-basic")
    frame, root = open_player(page, app_url, "embed=true&lang=ko&recording=test-basic&arms=base,q4,spec&speed=4")
    assert state(root)["speed"] == 4
    frame.locator("button.play").click()
    page.wait_for_timeout(600)
    st = state(root)
    assert st["t"] > 1_000_000
    assert_shows_recording(st, trs)


def test_screenshot_for_the_readme(app_url: str, page, tmp_path: Path) -> None:
    """The README's screenshot of a bundled recording (else the test recording). Written to docs/ only under
    SPECREPLAY_README_SCREENSHOT=1 (`make screenshot`), so a test run leaves the tree as it was."""
    ladder = ROOT / "recordings" / "qwen-coder-1.5b-llamacpp-cpu.jsonl"  # the real-model ladder, the default replay
    name = ladder.stem if ladder.exists() else "test-basic"
    page.set_viewport_size({"width": 1400, "height": 1450})  # the app scrolls inside itself: fit the whole page
    frame, root = open_player(page, app_url, f"lang=ko&recording={name}")
    end = int(frame.locator("input.scrub").get_attribute("max"))
    frame.locator("label.bursts input").check()
    seek(frame, end * 2 // 5)
    page.wait_for_timeout(300)
    shot = README_SCREENSHOT if os.environ.get("SPECREPLAY_README_SCREENSHOT") else tmp_path / "replay.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
