"""The replay as a sales demo meets it cold, in Debian's chromium: the default the written rule picks, the speed on
screen (player, a video frame, an export), one speedup for one pair everywhere, the concurrency-level replay of a
bundled sweep and of an imported `vllm bench serve` file, a 390 px phone layout, and no request leaving the page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import imageio_ffmpeg
import numpy as np

from specreplay.recording.format import load
from specreplay.replay.default import choose
from specreplay.replay.panes import recorded_arm_pane
from specreplay.replay.playback import default_speed, speed_note
from specreplay.video.draw import FrameDrawer, layout
from specreplay.video.render import render
from tests.apptest_helpers import open_expander, open_page
from tests.browser_fixtures import ROOT

START_SCREENSHOT = ROOT / "docs" / "screenshot-start.png"
PHONE_SCREENSHOT = ROOT / "docs" / "screenshot-phone.png"


def player(page, url: str):
    """The first player on the page at url, once mounted: (frame, root)."""
    page.goto(url)
    handle = page.wait_for_selector("iframe[srcdoc], [data-testid='stAlertContentError']", timeout=120_000)
    assert handle.get_attribute("srcdoc") is not None, handle.text_content()
    frame = handle.content_frame()
    frame.wait_for_selector("#player[data-mounted='true']", timeout=60_000)
    return frame, frame.locator("#player")


def to_end(frame) -> None:
    frame.locator("input.scrub").evaluate(
        "el => { el.value = el.max; el.dispatchEvent(new Event('input', {bubbles: true})); }")


def test_the_replay_opens_on_the_rules_default(app_url: str, page, test_recordings: Path) -> None:
    folders = [ROOT / "recordings", test_recordings]
    rule = choose(sorted(p for f in folders for p in f.glob("*.jsonl")))
    assert rule is not None
    frame, root = player(page, f"{app_url}/replay?lang=en")
    keys = [k.split("/")[0] for k in root.locator(".pane").evaluate_all("ps => ps.map(p => p.dataset.key)")]
    assert keys == list(rule.arms)
    assert f"recording={rule.recording}" in page.url and f"prompt={rule.prompt}" in page.url
    # reference first, no warning on a default arm
    assert root.locator(".pane-warn").count() == 0


def test_the_slowed_label_in_the_player_the_export_and_a_video_frame(app_url: str, page, tmp_path: Path) -> None:
    rec = load(ROOT / "recordings" / "smollm2-h200.jsonl")
    panes = [recorded_arm_pane(rec, a, "copy-quote") for a in ("baseline", "ngram")]
    end_s = max(p.track.end_us for p in panes) / 1e6
    assert end_s < 0.5  # over in under half a second at 1×: the rule slows it 20× (5 s at least on screen)
    speed, note = default_speed(int(end_s * 1e6)), "0.05× — slowed 20×"
    assert (speed, speed_note(speed, "en")) == (0.05, note)
    frame, root = player(page, f"{app_url}/replay?lang=en&recording=smollm2-h200&prompt=copy-quote"
                               "&arms=baseline,ngram")
    assert root.get_attribute("data-speed") == "0.05"
    assert frame.locator(".speed-note").text_content() == note
    frame.locator("button.speed[data-speed='2']").click()
    assert frame.locator(".speed-note").text_content() == "2× — sped up 2×"

    # the export: the same player, its header says the speed too
    out = tmp_path / "copy.html"
    subprocess.run([sys.executable, "-m", "specreplay", "export-html", "smollm2-h200.jsonl", "--prompt", "copy-quote",
                    "--arms", "baseline,ngram", "--lang", "en", "-o", str(out)], check=True, cwd=ROOT, timeout=120)
    page.goto(out.as_uri())
    page.wait_for_selector("#player[data-mounted='true']")
    assert page.locator(".speed-note").text_content() == note
    assert note in page.locator(".export-speed").text_content()

    # a video frame: decoded from the MP4, it carries the label drawn beside the clock
    video = render(panes, tmp_path / "copy.mp4", speed="0.05", lang="en", hold_s=0)
    raw = subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-loglevel", "error", "-i", str(video), "-frames:v", "1",
                          "-vf", "scale=in_color_matrix=bt709:in_range=tv:flags=accurate_rnd+full_chroma_int,"
                          "format=rgb24", "-f", "rawvideo", "-"], capture_output=True, check=True).stdout
    first = np.frombuffer(raw, np.uint8).reshape(720, 1280, 3).astype(int)
    lay = layout(1280, 720, 2)
    head = (slice(0, lay.panes[0].y), slice(0, 1280))  # the clock's row: clock, speed, title
    labelled = FrameDrawer(panes, 1280, 720, "en", note).draw(FrameDrawer(
        panes, 1280, 720, "en").state(0)).astype(int)[head]
    bare = FrameDrawer(panes, 1280, 720, "en", "").draw(FrameDrawer(panes, 1280, 720, "en").state(0)).astype(int)[head]
    label = np.abs(labelled - bare).sum(axis=-1) > 60  # the label's own pixels
    assert label.sum() > 300
    # the decoded frame has the label: far closer to the labelled drawing there than to the bare one
    assert np.abs(first[head] - labelled)[label].mean() * 3 < np.abs(first[head] - bare)[label].mean()


def test_one_speedup_in_the_player_the_summary_and_the_ladder_page(app_url: str, page) -> None:
    frame, root = player(page, f"{app_url}/replay?lang=en&recording=smollm2-h200&prompt=copy-quote"
                               "&arms=baseline,ngram,gguf-q4_1")
    to_end(frame)
    ratios = frame.locator(".pane .ratio").all_text_contents()
    assert ratios[0] == "reference" and ratios[1].startswith("×2.49 vs ") and ratios[2].startswith("×0.91 vs ")
    printed = subprocess.run([sys.executable, "-m", "specreplay", "summary", "smollm2-h200.jsonl"], cwd=ROOT,
                             capture_output=True, text=True, timeout=120, check=True).stdout
    row = next(line for line in printed.splitlines() if line.startswith("ngram ") and "copy-quote" in line)
    assert " 2.49x " in row
    ladder = open_expander(open_page("ladder", "en"), "ladder_h200_open")
    table = next(d.value for d in ladder.dataframe if "ngram ÷ bf16 (computed)" in d.value.columns)
    assert table[table["prompt"] == "copy-quote"]["ngram ÷ bf16 (computed)"].iloc[0] == "2.49×"


def test_a_bundled_sweep_replays_by_concurrency_level(app_url: str, page) -> None:
    frame, root = player(page, f"{app_url}/replay?lang=en&recording=smollm2-h200-sweep-greedy&mode=levels")
    labels = root.locator(".pane-label .label-short").all_text_contents()
    assert [lbl.split(" concurrent")[0].split()[-1] for lbl in labels] == ["1", "8", "32", "64"], labels
    to_end(frame)
    system = [float(v) for v in root.locator(".system-value").all_text_contents()]
    assert len(system) == 4 and system[3] > system[0] * 5  # 64 streams together move far more tokens than one


def test_an_imported_bench_serve_file_replays_at_its_level(app_url: str, page) -> None:
    frame, root = player(page, f"{app_url}/replay?lang=en&recording=test-serve-c64")
    assert "no finished single-stream run" not in page.content()
    assert root.locator(".pane").count() == 1 and root.locator(".badge-imported").count() == 1
    assert "64 concurrent" in root.locator(".label-short").text_content()
    to_end(frame)
    assert float(root.locator(".system-value").text_content()) > 0


def _overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5 and \
        a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5


def _inside(inner: dict, outer: dict) -> bool:
    return inner["x"] >= outer["x"] - 0.5 and inner["y"] >= outer["y"] - 0.5 and \
        inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5 and \
        inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5


BOXES = """root => [...root.querySelectorAll('.pane')].map(p => {
  const box = el => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; };
  return {pane: box(p), counters: [...p.querySelectorAll('.counter')].map(box),
          parts: [...p.querySelectorAll('.pane-head, .counters, .timebar, .stream, .pane-foot, .pane-foot > span')].map(box)};
})"""


def test_a_390px_phone_stacks_the_panes_without_overlap(browser, app_url: str, tmp_path: Path) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    page = ctx.new_page()
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith((app_url, "data:", "about:")) else None)
    try:
        frame, root = player(page, f"{app_url}/replay?lang=en&recording=smollm2-h200&prompt=chat-advice"
                                   "&arms=baseline,ngram,gguf-q4_1")
        to_end(frame)
        page.wait_for_timeout(300)
        panes = root.evaluate(BOXES)
        assert len(panes) == 3
        for i, p in enumerate(panes):
            assert p["pane"]["width"] >= 300, p["pane"]  # stacked, one per row, wide enough to read
            assert all(_inside(c, p["pane"]) for c in p["counters"] + p["parts"]), i
            assert not any(_overlap(a, b) for j, a in enumerate(p["counters"]) for b in p["counters"][j + 1:]), i
            for q in panes[i + 1:]:
                assert not _overlap(p["pane"], q["pane"])
        assert root.locator(".pane-warn").count() == 1  # the 4-bit arm's "aut aut aut…"
        # the README's phone screenshot: the page from its title through the player to the choices under it (the
        # app scrolls inside itself, so the window is made as tall as the page's first 2,400 px)
        tall = page.evaluate("document.querySelector('[data-testid=stMain]').scrollHeight")
        page.set_viewport_size({"width": 390, "height": min(tall, 2400)})
        shot = PHONE_SCREENSHOT if os.environ.get("SPECREPLAY_README_SCREENSHOT") else tmp_path / "phone.png"
        page.screenshot(path=str(shot), scale="css")
        page.goto(f"{app_url}/?lang=en")  # the start page too: its hero is a player
        page.wait_for_selector("iframe[srcdoc]", timeout=120_000).content_frame().wait_for_selector(
            "#player[data-mounted='true']", timeout=60_000)
        assert outside == []  # nothing leaves the page: no font server, no favicon CDN
    finally:
        ctx.close()


def test_the_start_page_plays_a_real_replay(app_url: str, page, tmp_path: Path) -> None:
    """The README's screenshot of the start page; written to docs/ only under SPECREPLAY_README_SCREENSHOT=1
    (`make screenshot`)."""
    page.set_viewport_size({"width": 1400, "height": 1100})
    frame, root = player(page, f"{app_url}/?lang=en")
    page.wait_for_function("() => true")
    frame.wait_for_function("Number(document.getElementById('player').dataset.tUs) > 0")  # it plays on its own
    assert root.locator(".badge-measured").count() == root.locator(".pane").count() >= 2
    for text in ("article 000 tok/s", "A drafter winning on real text", "More concurrent streams"):
        assert page.get_by_text(text, exact=False).count() >= 1
    frame.wait_for_timeout(2500)
    shot = START_SCREENSHOT if os.environ.get("SPECREPLAY_README_SCREENSHOT") else tmp_path / "start.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
