"""One speed range (specreplay.replay.playback.SLOWEST … FASTEST): the page offers speeds within it, and the video
plan, `video --speed` and `export-html --speed` take exactly it. Before, a video took 0.01–100 while the page offered
0.05–4."""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest

from specreplay import cli
from specreplay.replay.playback import FASTEST, SLOWEST, SPEEDS
from specreplay.video import cli as video_cli
from specreplay.video.plan import parse_speed


def _takes(ap: argparse.ArgumentParser, args: list[str]) -> bool:
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            ap.parse_args(args)
    except SystemExit:
        return False
    return True


def test_the_page_offers_speeds_within_the_one_range() -> None:
    assert (min(SPEEDS), max(SPEEDS)) == (SLOWEST, FASTEST)


@pytest.mark.parametrize("speed", [SLOWEST, *SPEEDS, FASTEST, 0.3, 3])
def test_the_video_takes_every_speed_of_the_range(speed: float) -> None:
    assert parse_speed(f"{speed:g}") == pytest.approx(speed)
    assert _takes(video_cli.parser(), ["r.jsonl", "--speed", f"{speed:g}"])


@pytest.mark.parametrize("speed", [SLOWEST * 0.9, FASTEST * 1.01, 0.01, 100])
def test_the_video_refuses_a_speed_outside_it(speed: float) -> None:
    with pytest.raises(ValueError, match=f"outside {SLOWEST:g}..{FASTEST:g}"):
        parse_speed(f"{speed:g}")
    assert not _takes(video_cli.parser(), ["r.jsonl", "--speed", f"{speed:g}"])


def test_export_html_takes_the_pages_speeds_and_nothing_outside() -> None:
    ap = cli.interop_parser()
    assert all(_takes(ap, ["export-html", "r.jsonl", "-o", "x.html", "--speed", f"{s:g}"]) for s in SPEEDS)
    assert not _takes(ap, ["export-html", "r.jsonl", "-o", "x.html", "--speed", f"{FASTEST * 2:g}"])
