"""The one timeline rule, checked against the cases the JS player is tested with too."""

import json

import pytest

from specreplay.format import Event
from specreplay.panes import simulate_events
from specreplay.timeline import (decode_rate, first_token_us, frame_time_us, make_track, visible_chunks,
                                 visible_text, visible_tokens)
from tests.browser_fixtures import ROOT

CASES = json.loads((ROOT / "assets" / "timeline_cases.json").read_text())["tracks"]


def _track(case: dict):
    return make_track([Event(round(e["t"] * 1_000_000), e["n"], e["text"]) for e in case["events"]])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_visible_at_t_matches_shared_cases(case: dict) -> None:
    track = _track(case)
    for at in case["at"]:
        assert visible_chunks(track, at["t_us"]) == at["chunks"], at
        assert visible_tokens(track, at["t_us"]) == at["tokens"], at
        assert visible_text(track, at["t_us"]) == at["text"], at


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_video_frames_match_shared_cases(case: dict) -> None:
    track = _track(case)
    for fr in case["frames"]:
        assert frame_time_us(fr["k"], fr["fps"]) == fr["t_us"], fr
        assert visible_chunks(track, frame_time_us(fr["k"], fr["fps"])) == fr["chunks"], fr


def test_decode_rate_excludes_the_first_token() -> None:
    # first token at 0.5 s, then 10 more tokens over 1 s → 10 tok/s whatever the TTFT was
    track = make_track([Event(500_000, 1, "a"), Event(1_000_000, 5, "bcdef"), Event(1_500_000, 5, "ghijk")])
    assert first_token_us(track) == 500_000
    assert decode_rate(track) == pytest.approx(10.0)
    assert decode_rate(track, 1_000_000) == pytest.approx(10.0)
    assert decode_rate(track, 500_000) is None


def test_decode_rate_skips_an_empty_role_chunk_at_the_same_time() -> None:
    track = make_track([Event(500_000, 0, ""), Event(500_000, 1, "a"), Event(1_500_000, 10, "bcdefghijk")])
    assert decode_rate(track) == pytest.approx(10.0)


def test_simulated_arm_is_seeded_and_hits_its_rate() -> None:
    a = simulate_events(458.5, 0.62, 0.8, 7, 2000, seed=3)
    assert a == simulate_events(458.5, 0.62, 0.8, 7, 2000, seed=3)
    track = make_track(a)
    assert track.tokens == 2000
    assert first_token_us(track) == 620_000
    assert decode_rate(track) == pytest.approx(458.5, rel=0.05)
    assert max(track.n) <= 8 and max(track.n) > 1
    assert all(n == 1 for n in make_track(simulate_events(97.1, 0.74, 0.0, 7, 100)).n)
