"""The start page's story in Debian's chromium at 1400 × 900: the first screen holds article 000's ladder, our
full-scale ladder and a real-text replay in which the drafter arm finishes first; the same pair's multiplier is one
figure in that player, a video frame, an HTML export, `specreplay summary` and the ladder page; every page has a
clickable source link."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from specreplay.explain import panels, story
from specreplay.recording import catalogue
from specreplay.recording.format import Recording
from specreplay.recording.wanted import newest
from specreplay.replay.panes import recorded_arm_pane
from specreplay.video.draw import FrameDrawer
from specreplay.views import pages
from tests.apptest_helpers import open_page
from tests.browser.test_screens_browser import SETTLED
from tests.browser_fixtures import ROOT

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
CPU_LADDER = newest(panels.CPU_LADDER)


PAGES = ["" if p == pages.START else p.url_path for p in pages.PAGES]  # the start page is served at "/"


def ladder() -> Recording:
    got = catalogue.read(CPU_LADDER)
    assert isinstance(got, Recording), got
    return got


def mounted(page):
    """The start page's player frame once mounted, on a page that has settled (its layout final)."""
    handle = page.wait_for_selector("iframe[srcdoc]", timeout=120_000)
    frame = handle.content_frame()
    frame.wait_for_selector("#player[data-mounted='true']", timeout=60_000)
    page.wait_for_function(SETTLED, timeout=120_000, polling=250)
    return handle, frame


def to_end(frame) -> None:
    frame.locator("input.scrub").evaluate(
        "el => { el.value = el.max; el.dispatchEvent(new Event('input', {bubbles: true})); }")


def ratio(text: str) -> float:
    """'×1.50 vs …', '1.5× vs …', ' 1.50x ' → 1.5."""
    found = re.search(r"×?(\d+\.\d+)[×x]?", text)
    assert found, text
    return float(found.group(1))


FIRST_SCREEN = {"en": ("article 000 tok/s", "458.5", "ours tok/s", "508", "% of ceiling", "28 %"),
                "ko": ("기사 000 tok/s", "458.5", "우리 tok/s", "508", "천장 대비 %", "28 %")}


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_first_screen_holds_both_ladders_and_a_replay_the_drafter_wins(app_url: str, page, lang: str) -> None:
    page.goto(f"{app_url}/?lang={lang}")
    handle, frame = mounted(page)
    height = page.viewport_size["height"]
    for cell in FIRST_SCREEN[lang]:
        box = page.locator("table").get_by_text(cell).first.bounding_box()
        assert box and box["y"] + box["height"] <= height, cell
    box = handle.bounding_box()
    assert box and box["y"] + box["height"] <= height, box  # the whole player on the first screen
    to_end(frame)
    labels = frame.locator(".pane .label-short").all_text_contents()  # in the page's language (words.arm_label)
    finished = [float(re.search(r"(\d+\.\d+)", s).group(1))  # type: ignore[union-attr]
                for s in frame.locator(".pane .status").all_text_contents()]
    drafter = next(i for i, lbl in enumerate(labels) if ("draft model" if lang == "en" else "드래프트 모델") in lbl)
    assert finished[drafter] < min(f for i, f in enumerate(finished) if i != drafter)  # the drafter finishes first
    assert page.get_by_text("vLLM 0.23: bf16").count() == 0  # the H200 real-model line is not on the start page
    assert page.get_by_text("vLLM 0.23으로 잰 것").count() == 0


def test_one_multiplier_for_the_pair_on_every_surface(app_url: str, page, tmp_path: Path) -> None:
    rec = ladder()
    win = story.drafter_wins(rec)
    assert win is not None
    want = round(win.gain, 2)

    page.goto(f"{app_url}/?lang=en")
    _, frame = mounted(page)
    to_end(frame)
    player = next(t for t in frame.locator(".pane .ratio").all_text_contents() if " vs " in t)
    assert ratio(player) == want

    panes = [recorded_arm_pane(rec, a, win.prompt) for a in story.F16_PAIR]
    drawer = FrameDrawer(panes, 1280, 720, "en")
    video = next(p[3] for p in drawer.state(drawer.end_us)[1] if " vs " in p[3])  # the last frame's counters
    assert ratio(video) == want

    out = tmp_path / "pair.html"
    subprocess.run([sys.executable, "-m", "specreplay", "export-html", CPU_LADDER, "--prompt", win.prompt,
                    "--arms", ",".join(story.F16_PAIR), "--lang", "en", "-o", str(out)], check=True, cwd=ROOT,
                   timeout=120)
    page.goto(out.as_uri())
    page.wait_for_selector("#player[data-mounted='true']")
    to_end(page)
    export = next(t for t in page.locator(".pane .ratio").all_text_contents() if " vs " in t)
    assert ratio(export) == want

    printed = subprocess.run([sys.executable, "-m", "specreplay", "summary", CPU_LADDER], cwd=ROOT,
                             capture_output=True, text=True, timeout=120, check=True).stdout
    row = next(ln for ln in printed.splitlines() if ln.startswith("f16-draft ") and f" {win.prompt} " in ln)
    assert f" {want:.2f}x " in row  # ×base: vs f16, the rung before

    at = open_page("ladder", "en", our_drafter="draft_first", our_prompt=win.prompt)
    table = next(d.value for d in at.dataframe if "→ F16 + 0.5B draft" in d.value.columns)
    assert ratio(table[table["prompt"] == win.prompt]["→ F16 + 0.5B draft"].iloc[0]) == want


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_a_clickable_source_link(app_url: str, page, path: str) -> None:
    page.goto(f"{app_url}/{path}?lang=en")
    page.wait_for_selector("[data-testid='stCaptionContainer'] a[href^='https://']", timeout=120_000)
    link = page.locator("[data-testid='stCaptionContainer'] a[href^='https://']").first
    assert link.is_visible() and link.get_attribute("href", timeout=10_000).startswith("https://")
