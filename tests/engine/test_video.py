"""Video export: frame k shows the timeline at k / fps, the same bytes every run, real Hangul glyphs.

The timelines here are made-up test data, not measurements.
"""

from __future__ import annotations

import hashlib
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import imageio_ffmpeg
import numpy as np
import pytest
from PIL import Image

from specreplay.output import FILE_MODE
from specreplay.recording import format as fmt
from specreplay.recording.format import Event
from specreplay.replay.arms import sim_pane
from specreplay.replay.panes import Pane
from specreplay.replay.playback import speed_note
from specreplay.replay.timeline import frame_time_us, make_track, visible_text
from specreplay.video.cli import main
from specreplay.video.draw import PANE, FrameDrawer
from specreplay.video.glyphs import face
from specreplay.video.plan import PRESETS, content_frames, frame_times, parse_speed
from specreplay.video.render import render
from specreplay.video.text import Wrapper

W, H = PRESETS["720p"]
BLOCK_LINE = "■" * 12 + "\n"  # one event = one line of solid blocks: easy to count in a decoded frame


def pane(label: str, events: list[tuple[int, int, str]], kind: str = "measured") -> Pane:
    """A pane from (t_us, n, text) triples."""
    return Pane(key=label, label=label, subtitle="model · engine 1.0", kind=kind,  # type: ignore[arg-type]
                track=make_track([Event(t, n, s) for t, n, s in events]))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def decode(path: Path, width: int = W, height: int = H) -> np.ndarray:
    """Every stored frame as RGB (BT.709 limited range for MP4), no frame-rate conversion."""
    raw = subprocess.run(
        [imageio_ffmpeg.get_ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-i", str(path),
         "-fps_mode", "passthrough",
         "-vf", "scale=in_color_matrix=bt709:in_range=tv:flags=accurate_rnd+full_chroma_int,format=rgb24",
         "-f", "rawvideo", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, height, width, 3)


# Chunks placed on and just after 10 fps frame boundaries (frame k shows t = k * 100 ms).
BOUNDARY_EVENTS = [(100_000, 1, BLOCK_LINE), (200_001, 2, BLOCK_LINE), (250_000, 1, BLOCK_LINE),
                   (300_000, 3, BLOCK_LINE), (700_000, 1, BLOCK_LINE), (700_001, 1, BLOCK_LINE),
                   (1_000_000, 1, BLOCK_LINE)]


def lines_shown(frame: np.ndarray, text_box, line_h: int) -> int:
    """How many text rows carry ink: each chunk of the test timeline is one row of blocks."""
    rows = 0
    for r in range(text_box.h // line_h):
        band = frame[text_box.y + r * line_h:text_box.y + (r + 1) * line_h, text_box.x:text_box.x + text_box.w]
        ink = (np.abs(band.astype(int) - PANE).sum(axis=2) > 90).sum()  # pixels clearly not pane background
        rows += int(ink > 300)
    return rows


# ------------------------------------------------------------------ frame plan

@pytest.mark.parametrize("end_us,fps,speed", [(1_000_000, 10, "1"), (1_000_001, 30, "1"), (2_345_678, 25, "1"),
                                              (7_000_000, 30, "2"), (7_000_000, 30, "0.5"), (1, 50, "1")])
def test_frame_count_is_duration_times_fps_plus_hold(end_us: int, fps: int, speed: str) -> None:
    p = pane("a", [(0, 1, "x"), (end_us, 1, "y")])
    factor = parse_speed(speed)
    times = frame_times([p], fps, factor, hold_s=2.0)
    run = math.ceil(Fraction(end_us, 1_000_000) / factor * fps)
    assert len(times) == run + 2 * fps
    assert content_frames(end_us, fps, factor) == run
    assert all(t < end_us for t in times[:run]) and times[run:] == [end_us] * (2 * fps)
    if factor == 1:
        assert times[:run] == [frame_time_us(k, fps) for k in range(run)]


def test_last_state_is_shown_even_without_hold() -> None:
    times = frame_times([pane("a", [(0, 1, "x"), (500_000, 1, "y")])], 10, Fraction(1), hold_s=0)
    assert times == [0, 100_000, 200_000, 300_000, 400_000, 500_000]


def test_speed_scales_frame_times_with_integer_maths() -> None:
    times = frame_times([pane("a", [(9_000_000, 1, "x")])], 3, parse_speed("2.5"), hold_s=0)
    assert times[:4] == [0, 833_332, 1_666_665, 2_500_000]  # floor(k * 1e6 / 3) * 5 // 2


@pytest.mark.parametrize("bad", ["0", "-1", "abc", "1000"])
def test_bad_speed_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="speed"):
        parse_speed(bad)


# ------------------------------------------------------------------ text and glyphs

def test_wrapping_chunk_by_chunk_equals_wrapping_all_at_once() -> None:
    fnt = face("regular", 16)
    chunks = ["안녕하세요, ", "스트리밍 ", "텍스트", "입니다. The quick", " brown fox\n", "jumps ", "over",
              " the lazy dog. ", "Supercalifragilisticexpialidocious" * 3, " end"]
    step = Wrapper(200, fnt.getlength)
    closed_so_far: list = []
    for i, c in enumerate(chunks):
        step.feed(c, i % 3)
        assert step.closed[:len(closed_so_far)] == closed_so_far  # a closed line never changes
        closed_so_far = list(step.closed)
    one = Wrapper(200, fnt.getlength)
    one.feed("".join(chunks), 0)
    assert ["".join(s for s, _ in line) for line in step.lines()] == ["".join(s for s, _ in line) for line in one.lines()]
    for line in one.lines():
        assert sum(fnt.getlength(s) for s, _ in line) <= 200
    assert len(one.lines()) > 5


def test_hangul_is_drawn_with_glyphs_not_boxes() -> None:
    fnt = face("regular", 48)
    picked = {ch: fnt.font_for(ch) for ch in ["한", "국", "어"]}
    assert all(picked.values()) and not fnt.has("\ue000")  # U+E000: no font has it
    masks = [np.array(f.getmask(ch)) for ch, f in picked.items()]
    assert not np.array_equal(masks[0], masks[1]) and not np.array_equal(masks[1], masks[2])


def test_drawing_only_what_changed_gives_the_same_frame_as_drawing_afresh() -> None:
    words = [(200_000 + i * 40_000, 1 + (i % 4 == 0), f"단어{i} word{i} ") for i in range(400)]
    panes = [pane("a", words), pane("b", [(t * 2, n, s) for t, n, s in words])]
    running = FrameDrawer(panes, W, H, "en")
    for t in range(0, 34_000_000, 33_333):
        frame = running.draw(running.state(t))
        if t % (100 * 33_333) == 0 or t > 33_000_000:
            fresh = FrameDrawer(panes, W, H, "en")
            assert np.array_equal(frame, fresh.draw(fresh.state(t))), t


def test_korean_frame_draws_the_korean_note_and_badge() -> None:
    sim = sim_pane("sim:100/0.2/0.7/4/300", "시뮬레이션")  # as the page builds one: its subtitle says its parameters
    ko = FrameDrawer([pane("기준", [(0, 1, "가"), (1_000_000, 1, "나")]), sim], W, H, "ko")
    en = FrameDrawer([pane("기준", [(0, 1, "가"), (1_000_000, 1, "나")]), sim], W, H, "en")
    lay = ko.lay
    footer = (slice(H - lay.margin - 30, H), slice(0, W))
    a, b = ko.draw(ko.state(0))[footer], en.draw(en.state(0))[footer]
    assert (np.abs(a.astype(int) - b).sum(axis=2) > 60).sum() > 200  # different text in the note line
    assert ko.state(0)[1][1][2].endswith("0.0 s") and "토큰" in ko.state(0)[1][1][2]
    assert "tokens" in en.state(0)[1][1][2]


# ------------------------------------------------------------------ encoded files

@pytest.fixture(scope="module")
def boundary_panes() -> list[Pane]:
    slow = [(t * 3, n, s) for t, n, s in BOUNDARY_EVENTS]
    return [pane("빠른 팔", BOUNDARY_EVENTS), pane("느린 팔", slow[:4])]


@pytest.mark.parametrize("kind,fps", [("mp4", 10), ("gif", 10)])
def test_decoded_frame_k_shows_the_timeline_at_k_over_fps(tmp_path: Path, boundary_panes: list[Pane], kind: str,
                                                           fps: int) -> None:
    out = render(boundary_panes, tmp_path / f"v.{kind}", fmt=kind, fps=fps, hold_s=1.0)
    frames = decode(out)
    times = frame_times(boundary_panes, fps, Fraction(1), 1.0)
    assert len(frames) == len(times) == math.ceil(1.0 * fps) + fps  # the last chunk arrives at 1.0 s
    ref = FrameDrawer(boundary_panes, W, H, "ko", speed_note(1, "ko"))  # every frame says its speed
    lay = ref.lay  # the drawer's own geometry (a warning row or a legend moves the text boxes)
    for k, t in enumerate(times):
        for p, box in zip(boundary_panes, lay.text_boxes):
            # 700_000 and 700_001 are one burst (timeline.bursts): its two lines appear in the same frame
            shown = visible_text(p.track, t).count("\n")
            assert lines_shown(frames[k], box, lay.line_height) == shown, (k, t, p.label)
        drawn = ref.draw(ref.state(t)).astype(int)
        assert np.abs(frames[k].astype(int) - drawn).mean() < 3, k  # only encoding loss


def test_mp4_is_byte_identical_across_runs_even_with_a_busy_core(tmp_path: Path, boundary_panes: list[Pane]) -> None:
    first = render(boundary_panes, tmp_path / "a.mp4", fps=30, speed=2)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        second = render(boundary_panes, tmp_path / "b.mp4", fps=30, speed=2)
    finally:
        busy.kill()
        busy.wait()
    assert sha256(first) == sha256(second)
    data = first.read_bytes()
    assert b"Lavf" not in data and b"x264 - core" not in data  # no encoder strings, no version-dependent SEI


def test_gif_is_byte_identical_and_timed_exactly(tmp_path: Path, boundary_panes: list[Pane]) -> None:
    a = render(boundary_panes, tmp_path / "a.gif", fmt="gif", fps=25, preset="square")
    b = render(boundary_panes, tmp_path / "b.gif", fmt="gif", fps=25, preset="square")
    assert sha256(a) == sha256(b)
    with Image.open(a) as im:
        assert im.size == PRESETS["square"]
        durations = []
        for i in range(im.n_frames):
            im.seek(i)
            durations.append(im.info["duration"])
    assert len(durations) == math.ceil(1.0 * 25) + 2 * 25
    assert set(durations) == {40}


@pytest.mark.parametrize("kwargs,message", [
    ({"fmt": "gif", "fps": 30}, "10 ms"), ({"fmt": "webm"}, "unknown format"), ({"preset": "4k"}, "unknown preset"),
    ({"speed": 0}, "speed"), ({"hold_s": -1}, "outside 0..60"), ({"hold_s": 1e9}, "outside 0..60"),
])
def test_bad_settings_are_refused_with_a_reason(tmp_path: Path, boundary_panes: list[Pane], kwargs: dict,
                                                 message: str) -> None:
    with pytest.raises(ValueError, match=message):
        render(boundary_panes, tmp_path / "x.mp4", **kwargs)
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_five_panes_or_no_chunks_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="1 to 4 panes"):
        render([pane(str(i), [(0, 1, "x")]) for i in range(5)], tmp_path / "x.mp4")
    with pytest.raises(ValueError, match="no pane has any chunks"):
        render([pane("a", [])], tmp_path / "x.mp4")


# ------------------------------------------------------------------ command line

def _recording(path: Path) -> Path:
    fmt.create(path, {"title": "test", "created": "2026-01-01", "machine": {"description": "test"},
                      "arms": [{"id": "base", "label": "BF16", "model": "m", "engine": {"name": "e"}, "flags": {}},
                               {"id": "spec", "label": "4-bit + 스펙", "model": "m", "engine": {"name": "e"},
                                "flags": {}}],
                      "prompts": [{"id": "p", "kind": "chat", "text": "hi", "sampling": {}}]})
    for arm, step in (("base", 0.3), ("spec", 0.1)):
        for repeat in range(3):
            events = [fmt.event_dict(0.2 + i * step * (1 + repeat / 10), 1, f"w{i} ", None) for i in range(8)]
            fmt.append(path, {"type": "run", "arm": arm, "prompt": "p", "repeat": repeat, "warmup": False,
                              "concurrency": 1, "stream": 0, "started_wall": "x", "started_mono": 0.0,
                              "events": events, "ttft": 0.2, "usage": None, "finish_reason": "length", "spec": None,
                              "request_metrics": None, "status": "ok", "error": None})
    return path


def test_cli_help_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for option in ("--prompt", "--arms", "--repeat", "--preset", "--fps", "--speed", "--format", "--lang", "--output"):
        assert option in out


def test_cli_renders_with_a_progress_bar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = _recording(tmp_path / "r.jsonl")
    out = tmp_path / "r.gif"
    assert main([str(rec), "--prompt", "p", "--arms", "base,spec", "-o", str(out), "--lang", "en"]) == 0
    err = capsys.readouterr().err
    assert "100%" in err and "frames" in err
    assert out.stat().st_mode & 0o777 == FILE_MODE  # as a plain open() makes it, not mkstemp's 0600
    with Image.open(out) as im:
        # the median repeat (1) of base ends at 0.2 + 7 * 0.33 = 2.51 s, under 5 s: the video opens at 0.5× as the
        # player does (specreplay.replay.playback.default_speed), ceil(2.51 · 10 / 0.5) = 51 frames, then a 2 s hold
        assert im.n_frames == 51 + 20


@pytest.mark.parametrize("args,message", [
    (["--arms", "base,nope"], "unknown arm 'nope'.*base, spec"), (["--repeat", "9"], "no finished repeat 9"),
    (["--fps", "30", "-o", "x.gif"], "10 ms"), (["-o", "x.mov"], "does not end in .mp4"),
])
def test_cli_explains_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                message: str) -> None:
    rec = _recording(tmp_path / "r.jsonl")
    with pytest.raises(SystemExit) as exc:
        main([str(rec), "--prompt", "p", *[str(tmp_path / a) if a.startswith("x.") else a for a in args]])
    assert exc.value.code == 2
    assert re.search(message, capsys.readouterr().err)
