"""Benchmark the browser replay player: 4 arms × 2,000 tokens while two CPU-bound processes run.

    .venv/bin/python bench/player_bench.py [--speed 2] [--out result.json]

Measures, in Debian's chromium (headless):
1. frame pacing during real playback: the share of requestAnimationFrame intervals longer than
   1.5 display frames (a frame was missed), with two busy processes competing for the CPU;
2. work per frame during that playback, early vs late while all four arms stream: DOM mutation
   records (a MutationObserver on the player), nodes appended, and the player's own frame callback
   time (JS plus the layout that follow-scrolling forces);
3. the cost of one forward frame step (render(t) for t 16.7 ms later), stepped 60 times while paused,
   on four copies of the slowest arm, with ~100 vs ~1,800 tokens already shown per pane: same append
   rate, different history, so any growth with the tokens already shown would show here.
Figures go in docs/replay.md. Simulated panes are fine here: the player treats every pane the same.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import statistics
import subprocess
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from playwright.sync_api import sync_playwright

from specreplay.recording.format import Event
from specreplay.replay.arms import PRESETS, preset
from specreplay.replay.html import player_html
from specreplay.replay.panes import Pane, simulated_pane
from specreplay.replay.payload import player_payload
from specreplay.replay.timeline import make_track, visible_chunks, visible_tokens

CHROMIUM = "/usr/bin/chromium"
# Same flags as tests/browser_fixtures.py: no sandbox as root, no GPU, no dialling out.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TOKENS = 2000
STEP_SAMPLES = 60  # one second of playback
LINE_TOKENS = 40

# Installed as play starts: one rAF callback per frame takes the mutation records since the last frame.
INSTRUMENT = """() => {
  const root = document.getElementById("player");
  let records = 0;
  let tickEnd = 0;
  let workEnd = 0;
  const count = (recs) => {
    workEnd = performance.now(); // the observer runs right after the player's frame callback
    records += recs.length;
  };
  // The callback runs right after each player frame; tick (the next frame) reads and resets the tally.
  const mo = new MutationObserver(count);
  mo.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
  const frames = [];
  window.__bench = {frames, done: false};
  function tick(ts) {
    count(mo.takeRecords());
    // the player's callback ran after the previous tick, in the same frame: its duration (JS + forced layout)
    frames.push([ts, records, Number(root.dataset.tUs), workEnd > tickEnd ? workEnd - tickEnd : null]);
    records = 0;
    if (window.specreplayPlayer.playing) requestAnimationFrame(tick);
    else window.__bench.done = true;
    tickEnd = performance.now();
  }
  window.specreplayPlayer.play();
  requestAnimationFrame(tick);
}"""

# Paused: time n forward steps of one frame each, starting at t0 (each step appends that frame's chunks).
STEP = """([t0, n, dt]) => {
  const p = window.specreplayPlayer;
  p.seek(t0);
  const start = performance.now();
  for (let i = 1; i <= n; i++) p.seek(t0 + i * dt);
  return (performance.now() - start) / n;
}"""


def burn() -> None:
    while True:
        pass


def with_lines(pane: Pane) -> Pane:
    """The same chunk times with word-like text and a line break every LINE_TOKENS tokens, like prose or code."""
    events, done = [], 0
    for t, n in zip(pane.track.t_us, pane.track.n):
        text = "".join("tok " for _ in range(n))
        if done // LINE_TOKENS != (done + n) // LINE_TOKENS:
            text += "\n"
        events.append(Event(t, n, text))
        done += n
    return replace(pane, track=make_track(events))


def panes(text: str, same: bool = False) -> list[Pane]:
    """Four arms (the article 000 ladder plus one in between); same=True: four copies of the slowest,
    so early and late frames append at the same rate and differ only in how much is already shown."""
    ladder = [preset(name) for name in PRESETS]
    ps = [simulated_pane(p.label, p.spec.tok_s, p.spec.ttft_s, p.spec.alpha, p.spec.gamma, TOKENS) for p in ladder]
    ps.insert(2, simulated_pane("custom", 250.0, 0.6, 0.6, 5, TOKENS))
    if same:
        ps = [replace(ps[0], key=f"slowest-{i}") for i in range(4)]
    return [with_lines(p) for p in ps] if text == "lines" else ps


def player_file(ps: list[Pane], speed: float) -> Path:
    html = Path(tempfile.mkdtemp(prefix="player-bench-")) / "player.html"
    html.write_text(player_html(player_payload(ps, speed=speed, lang="en")), encoding="utf-8")
    return html


def step_cost(browser, ps: list[Pane]) -> dict:
    """Paused, ms per one-frame forward step (16.7 ms of playback), ~100 vs ~1,800 tokens already shown per pane."""
    page = browser.new_page(viewport={"width": 1400, "height": 800})
    page.goto(player_file(ps, 1.0).as_uri())
    page.wait_for_function("window.specreplayPlayer !== undefined")
    end = max(p.track.end_us for p in ps)
    frame_us = 1_000_000 // 60
    starts = {"early": ps[0].track.t_us[0] + 1_000_000, "late": end - STEP_SAMPLES * frame_us - 100_000}
    out = {name: {"ms_per_step": round(page.evaluate(STEP, [t0, STEP_SAMPLES, frame_us]), 4),
                  "tokens_shown_per_pane": visible_tokens(ps[0].track, t0)} for name, t0 in starts.items()}
    page.close()
    return out


def chromium_version() -> str:
    return subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True).stdout.strip()


def analyse(frames: list[list[float]], ps, frame_us: int) -> dict:
    ts = [f[0] for f in frames]
    intervals = [b - a for a, b in zip(ts, ts[1:])]
    nominal = statistics.median(intervals)
    total = TOKENS * len(ps)
    # Records taken at tick i are the player's frame that moved the clock from frames[i-1] to frames[i].
    rows = []
    for prev, f in zip(frames[1:], frames[2:]):
        arrived = sum(visible_chunks(p.track, int(f[2])) - visible_chunks(p.track, int(prev[2])) for p in ps)
        rows.append({"records": f[1], "arrived": arrived, "other": f[1] - arrived, "work": f[3],
                     "shown": sum(visible_tokens(p.track, int(f[2])) for p in ps) / total})
    # Compare frames where every pane is streaming (all past their first token, none finished),
    # early vs late, so "late" is neither "fewer panes" nor "before any text".
    first_end = min(p.track.end_us for p in ps)
    last_ttft = max(p.track.t_us[0] for p in ps)
    live = [r for r, f in zip(rows, frames[2:]) if last_ttft < f[2] < first_end]
    cut = len(live) // 5
    early, late = live[:cut], live[-cut:]

    def summary(rs: list[dict]) -> dict:
        work = [r["work"] for r in rs if r["work"] is not None]
        return {"frames": len(rs), "tokens_shown_share": [round(rs[0]["shown"], 3), round(rs[-1]["shown"], 3)],
                "mutation_records_mean": round(statistics.mean(r["records"] for r in rs), 2),
                "chunks_arrived_mean": round(statistics.mean(r["arrived"] for r in rs), 2),
                # one record per arrived chunk; the rest (counters, time bars, new line blocks) is per frame
                "other_records_mean": round(statistics.mean(r["other"] for r in rs), 2),
                "other_records_max": max(r["other"] for r in rs),
                "player_ms_median": round(statistics.median(work), 3), "player_ms_max": round(max(work), 3)}

    return {
        "frames": len(intervals), "nominal_interval_ms": round(nominal, 2),
        "late_share": round(sum(i > 1.5 * nominal for i in intervals) / len(intervals), 4),
        "later_than_one_frame_ms_share": round(sum(i > 1.5 * 1000 / 60 for i in intervals) / len(intervals), 4),
        "p99_interval_ms": round(sorted(intervals)[int(0.99 * len(intervals))], 2),
        "max_interval_ms": round(max(intervals), 2),
        "early": summary(early), "late": summary(late), "frame_us": frame_us,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--speed", type=float, default=2.0, choices=[0.25, 0.5, 1.0, 2.0, 4.0])
    ap.add_argument("--busy", type=int, default=2, help="CPU-bound processes running during playback")
    ap.add_argument("--text", choices=["lines", "blocks"], default="lines",
                    help="lines: word-like text with a line break every 40 tokens; blocks: the simulated arms' "
                         "one ■ per token and no line break at all (the worst case for layout)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()

    ps = panes(args.text)
    html = player_file(ps, args.speed)
    busy = [mp.Process(target=burn, daemon=True) for _ in range(args.busy)]
    for proc in busy:
        proc.start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 800})
            page.goto(html.as_uri())
            page.wait_for_function("window.specreplayPlayer !== undefined")
            duration_us = int(page.locator("input.scrub").get_attribute("max"))
            page.evaluate(INSTRUMENT)
            page.wait_for_function("window.__bench.done", timeout=(duration_us / 1e6 / args.speed + 30) * 1000,
                                   polling=500)
            frames = page.evaluate("window.__bench.frames")
            frame_us = round(1_000_000 / 60 * args.speed)  # playback time one display frame covers
            page.close()
            steps = step_cost(browser, panes(args.text, same=True))
            browser.close()
    finally:
        for proc in busy:
            proc.terminate()
            proc.join()
    result = {"arms": len(ps), "tokens_per_arm": TOKENS, "text": args.text, "speed": args.speed,
              "busy_processes": args.busy, "cpu_count": os.cpu_count(), "load_average": os.getloadavg(), "chromium": chromium_version(), "python": platform.python_version(),
              "playback": analyse(frames, ps, frame_us), "forward_step": steps,
              "date": time.strftime("%Y-%m-%d")}
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
