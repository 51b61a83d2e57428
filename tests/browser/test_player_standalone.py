"""The player on a page of its own (tests/fixtures/player/standalone.html): assets/player/*.js as they are, mounted
by the page on a fixed payload, in Debian's chromium. Clock, dispose, keys scoped to the player, the speed event."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

import pytest

from tests.browser_fixtures import ROOT
from tests.local_server import free_port, local_server

PAGE = "tests/fixtures/player/standalone.html"
PAYLOAD = json.loads((ROOT / "tests/fixtures/player/payload.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def static_url() -> Iterator[str]:
    """The repository root over http on 127.0.0.1 (module scripts do not load from file:)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with local_server([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory",
                       str(ROOT)], f"{url}/{PAGE}", "static", 30):
        yield url


@pytest.fixture
def player(page, static_url: str):
    page.goto(f"{static_url}/{PAGE}")
    page.wait_for_function("window.player !== undefined")
    return page


def t_of(page) -> int:
    """t of the next painted frame (the player's own frame callback, asked for before ours, has rendered it)."""
    return page.evaluate("new Promise(ok => requestAnimationFrame(() => ok(Number(player.t))))")


def shown(page) -> list[tuple[int, str]]:
    return page.evaluate("""[...document.querySelectorAll('#player .pane')].map(p =>
      [Number(p.querySelector('.counter-tokens .value').textContent), p.querySelector('.stream').textContent])""")


def expected(t: int) -> list[list]:
    """Tokens and text of each pane at t, by the timeline rule: a chunk is visible iff its t_us <= t."""
    out = []
    for p in PAYLOAD["panes"]:
        k = sum(1 for x in p["t_us"] if x <= t)
        out.append([sum(p["n"][:k]), "".join(p["text"][:k])])
    return out


def test_importing_the_player_mounts_nothing(page, static_url: str) -> None:
    """A page with the app's element ids and a payload, importing player.js without calling mount()."""
    payload = json.dumps(PAYLOAD).replace("<", "\\u003c")
    body = (f'<div id="player"></div><script type="application/json" id="specreplay-payload">{payload}</script>'
            '<script type="module">import { mount } from "/assets/player/player.js"; window.mount = mount;</script>')
    page.route(f"{static_url}/import-only.html", lambda route: route.fulfill(content_type="text/html", body=body))
    page.goto(f"{static_url}/import-only.html")
    page.wait_for_function("typeof window.mount === 'function'")
    assert page.locator("#player").inner_html() == ""
    assert page.evaluate("typeof window.specreplayPlayer") == "undefined"


def test_clock_under_seek_play_pause_and_speed(player) -> None:
    page = player
    for t in (0, 999_999, 1_000_000, 2_500_000, PAYLOAD["duration_us"]):
        page.evaluate("t => player.seek(t)", t)
        assert t_of(page) == t
        assert shown(page) == expected(t)
    page.evaluate("player.seek(500000); player.setSpeed(4); player.play()")
    # the time a frame showed beside that frame's own timestamp (the player's callback runs first in a frame): on a
    # busy machine frames come late, and a time read between frames is up to one frame old
    at_frame = "new Promise(done => requestAnimationFrame(ts => done([player.t, ts])))"
    page.wait_for_timeout(500)
    a = page.evaluate(at_frame)
    page.wait_for_timeout(400)
    b = page.evaluate(at_frame)
    assert (b[0] - a[0]) / ((b[1] - a[1]) * 1000) == pytest.approx(4, rel=0.02)  # the clock runs at 4× wall time
    paused = page.evaluate("player.pause(); player.t")
    assert shown(page) == expected(paused)
    page.wait_for_timeout(200)
    assert t_of(page) == paused and not page.evaluate("player.playing")  # stopped where it showed
    page.evaluate("player.play()")
    page.wait_for_function("!player.playing", timeout=10_000)  # runs to the end and stops there
    assert t_of(page) == PAYLOAD["duration_us"]
    assert shown(page) == expected(PAYLOAD["duration_us"])
    ratios = page.evaluate("[...document.querySelectorAll('#player .pane .ratio')].map(r => r.textContent)")
    assert ratios[1].endswith(PAYLOAD["labels"]["vs"].format(x=PAYLOAD["reference_name"]))  # the payload's name


def test_keys_act_only_with_focus_inside_the_player(player) -> None:
    page = player
    page.locator("#outside").focus()
    for key in ("Space", "ArrowRight", "ArrowUp"):
        page.keyboard.press(key)
    assert page.evaluate("[player.playing, player.t, player.speed]") == [False, 0, 1]
    assert page.locator("#outside").input_value() == " "  # the space went where the reader was typing

    page.locator("#player .keys").click()  # focus the player
    page.keyboard.press("ArrowRight")
    assert t_of(page) == 1_000_000
    page.keyboard.press("ArrowRight")
    assert t_of(page) == 2_000_000
    page.keyboard.press("ArrowLeft")
    assert t_of(page) == 1_000_000
    page.keyboard.press("Shift+ArrowRight")  # 5 s steps, within the clock's range
    assert t_of(page) == PAYLOAD["duration_us"]
    page.keyboard.press("ArrowUp")
    assert page.evaluate("player.speed") == 2
    page.keyboard.press("Space")
    assert page.evaluate("player.playing")
    page.keyboard.press("Space")
    assert not page.evaluate("player.playing")


def test_speed_changes_are_announced_as_an_event(player) -> None:
    page = player
    page.locator("button.speed[data-speed='2']").click()
    page.locator("#player .keys").click()
    page.keyboard.press("ArrowDown")
    page.locator("button.speed[data-speed='0.5']").click()
    page.locator("button.speed[data-speed='0.5']").click()  # the same speed again: nothing new to announce
    assert page.evaluate("window.speedEvents") == [2, 1, 0.5]
    assert page.evaluate("location.href").endswith(PAGE)  # the page's URL is the page's business


def test_dispose_leaves_nothing_running(player) -> None:
    page = player
    page.evaluate("player.play()")
    page.wait_for_timeout(200)
    page.evaluate("player.dispose(); window.callbacksAtDispose = window.frameCallbacks")
    assert page.locator("#player").inner_html() == ""
    page.locator("#player").focus()
    for key in ("Space", "ArrowRight", "ArrowUp"):
        page.keyboard.press(key)
    page.evaluate("player.play(); player.setSpeed(4)")  # the controller is inert too
    page.wait_for_timeout(300)
    assert page.evaluate("window.frameCallbacks") == page.evaluate("window.callbacksAtDispose")  # no frame ran
    assert page.evaluate("window.speedEvents") == []
    assert page.evaluate("Object.keys(document.getElementById('player').dataset)") == []
