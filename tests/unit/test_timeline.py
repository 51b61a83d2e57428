"""The one timeline rule, checked against the cases the JS player is tested with too."""

import json
from itertools import accumulate

import pytest

from specreplay.recording.format import Event
from specreplay.replay.panes import simulate_events, simulated_pane
from specreplay.replay.timeline import (
    BURST_GAP_US,
    Track,
    burst_gap_us,
    bursts,
    decode_rate,
    first_token_us,
    frame_time_us,
    make_track,
    visible_chunks,
    visible_text,
    visible_tokens,
)
from tests.browser_fixtures import ROOT

CASES = json.loads((ROOT / "assets" / "timeline_cases.json").read_text())["tracks"]


def _track(case: dict) -> Track:
    """The case's events as chunks, as the JS player receives them (already grouped into bursts)."""
    t = tuple(round(e["t"] * 1_000_000) for e in case["events"])
    n = tuple(e["n"] for e in case["events"])
    return Track(t, n, tuple(e["text"] for e in case["events"]), (0, *accumulate(n)))


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


def test_a_fast_simulated_arm_streams_step_by_step() -> None:
    """At 1000 tok/s with no drafter the steps are exactly 1 ms apart: the simulated pane shows them one by one (the
    burst rule is for recorded streams), so 3 s in, about 2900 tokens are visible, not none."""
    track = simulated_pane("s", 1000, 0.1, 0.0, 0, 5000).track
    assert len(track.t_us) == 5000 and set(track.n) == {1}
    assert 2_899 <= visible_tokens(track, 3_000_000) <= 2_901


def test_per_token_events_of_one_verify_step_are_one_burst() -> None:
    """llama-server writes a verify step's tokens as one SSE event each, microseconds apart: one chunk on screen,
    shown when its last token arrived; the next step (tens of ms later) is the next chunk."""
    step1 = [Event(40_000 + 30 * i, 1, c) for i, c in enumerate("abcd")]
    step2 = [Event(90_000, 1, "e"), Event(90_000 + BURST_GAP_US, 1, "f")]  # the gap itself still joins
    late = [Event(90_000 + 2 * BURST_GAP_US + 1, 1, "g")]  # a step of its own: one microsecond past it does not
    # a stream whose steps are 1 ms apart: the 1 ms bound alone
    assert bursts(step2 + late) == [(91_000, 2, "ef"), (92_001, 1, "g")]
    events = step1 + step2
    assert bursts(events) == [(40_090, 4, "abcd"), (91_000, 2, "ef")]
    track = make_track(events)
    assert track.n == (4, 2) and track.tokens == 6
    assert visible_text(track, 40_089) == "" and visible_text(track, 40_090) == "abcd"


def test_a_write_delayed_by_a_busy_machine_stays_in_its_step() -> None:
    """Steps about 50 ms apart: one token of a step written 3 ms late (a busy CI machine) still joins its step, since
    the bound is also a tenth of the stream's median step; a token 5 ms after the last step is a step of its own."""
    events = [Event(40_000, 1, "a"), Event(40_030, 1, "b"), Event(90_000, 1, "c"), Event(93_000, 1, "d"),
              Event(140_000, 1, "e"), Event(190_000, 1, "f"), Event(195_001, 1, "g")]
    # gaps above 1 ms: 3.0, 5.0, 47, 49.97, 50 ms → median 47 ms → bound 4.7 ms
    assert burst_gap_us(events) == 4_700
    assert bursts(events) == [(40_030, 2, "ab"), (93_000, 2, "cd"), (140_000, 1, "e"), (190_000, 1, "f"),
                              (195_001, 1, "g")]
