"""The one timeline rule: what is visible at playback time t.

A chunk that arrived t_i microseconds after its request was sent is visible at
playback time t (microseconds since every pane started) iff t_i <= t. Video
frame k at f fps shows t = floor(k * 1_000_000 / f). The browser player
(assets/player/timeline.js) implements the same rule; both are tested against
assets/timeline_cases.json.

Bursts: a chunk is what the reader sees arrive at once. vLLM sends a verify step's accepted tokens in one SSE
event; llama.cpp's llama-server sends them as one event per token, written back to back. So events that
arrived close to the event before them are one chunk, shown at the last one's arrival (make_track). Close: within
BURST_GAP_US, or within a tenth of the stream's own step (the median gap above BURST_GAP_US). Steps of a real
decoder are further apart than 1 ms (a 1.5B model on 2 CPU cores: 30-150 ms; a 135M model on an H200: 1.8 ms);
back-to-back writes of one step are tens of µs apart, but a busy machine can delay one write by a few ms, which
the step-relative bound still joins without ever joining two steps.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate
from operator import sub

from specreplay.recording.events import Event, Events
from specreplay.recording.format import Run

US = 1_000_000
BURST_GAP_US = 1_000  # events closer than this to the one before are one burst (docs/recording-format.md)
BURST_STEP_FRACTION = 0.1  # ... and so are events closer than this share of the stream's median step


@dataclass(frozen=True)
class Track:
    """One pane's chunks in arrival order, ready for O(log n) lookups."""

    t_us: tuple[int, ...]
    n: tuple[int, ...]
    text: tuple[str, ...]
    cum_tokens: tuple[int, ...]  # cum_tokens[k] = tokens in the first k chunks (len = chunks + 1)

    @property
    def tokens(self) -> int:
        return self.cum_tokens[-1]

    @property
    def end_us(self) -> int:
        return self.t_us[-1] if self.t_us else 0


def burst_gap_us(events: Sequence[Event]) -> int:
    """The largest gap to the event before that still joins a burst: BURST_GAP_US, or a tenth of the stream's step
    (the median of its gaps above BURST_GAP_US) when that is larger."""
    return _join_gap(_gaps(_columns(events)[0]))


def _columns(events: Sequence[Event]) -> tuple[Sequence[int], Sequence[int], Sequence[str]]:
    """The events' times, tokens and texts; a recording's straight from its arrays (no Event built per chunk)."""
    if isinstance(events, Events):
        return events.t_us, events.n, events.texts()
    return [e.t_us for e in events], [e.n for e in events], [e.text for e in events]


def _gaps(t_us: Sequence[int]) -> list[int]:
    """Each event's distance to the one before (map over C-level subtraction: a sweep builds ~50,000 tracks)."""
    return list(map(sub, t_us[1:], t_us))


def _join_gap(gaps: list[int]) -> int:
    steps = sorted(filter(BURST_GAP_US.__lt__, gaps))
    step = steps[len(steps) // 2] if steps else 0
    return max(BURST_GAP_US, int(step * BURST_STEP_FRACTION))


def bursts(events: Sequence[Event]) -> list[tuple[int, int, str]]:
    """(t_us, tokens, text) per burst: events within burst_gap_us of the previous event joined, at the last one's
    time."""
    t_us, n, text = _columns(events)
    gaps = _gaps(t_us)
    gap = _join_gap(gaps)
    if min(gaps, default=gap + 1) > gap:  # nothing to join (one event per step, as vLLM sends them)
        return list(zip(t_us, n, text))
    out: list[tuple[int, int, str]] = []
    for t, k, chunk in zip(t_us, n, text):
        if out and t - out[-1][0] <= gap:
            _, joined, joined_text = out[-1]
            out[-1] = (t, joined + k, joined_text + chunk)
        else:
            out.append((t, k, chunk))
    return out


def make_track(events: Sequence[Event], join_bursts: bool = True) -> Track:
    """The track of recorded events (bursts joined). join_bursts=False for events that already are one per step, as
    a simulated arm's are: at 1000 tok/s its steps are 1 ms apart, and joining would make the stream one chunk."""
    grouped = bursts(events) if join_bursts else list(zip(*_columns(events)))
    t_us, n, text = zip(*grouped) if grouped else ((), (), ())  # one transpose: a sweep upload builds ~50,000 tracks
    return Track(t_us=t_us, n=n, text=text, cum_tokens=(0, *accumulate(n)))


def track_of(run: Run) -> Track:
    return make_track(run.events)


def frame_time_us(k: int, fps: int) -> int:
    """Playback time of video frame k, in whole microseconds (integer maths: no float drift)."""
    return k * US // fps


def visible_chunks(track: Track, t_us: int) -> int:
    """Number of chunks visible at playback time t_us (t_i <= t)."""
    return bisect_right(track.t_us, t_us)


def visible_tokens(track: Track, t_us: int) -> int:
    return track.cum_tokens[visible_chunks(track, t_us)]


def visible_text(track: Track, t_us: int) -> str:
    return "".join(track.text[: visible_chunks(track, t_us)])


def first_token_us(track: Track) -> int | None:
    """Arrival of the first chunk that carried a token (TTFT)."""
    return next((t for t, n in zip(track.t_us, track.n) if n > 0), None)


def decode_rate(track: Track, t_us: int | None = None) -> float | None:
    """Decode tok/s from the first token to t (default: the end), first token excluded.

    This is the articles' "decode speed": tokens after the first divided by the
    time they took, so TTFT does not dilute it.
    """
    first_idx = next((i for i, n in enumerate(track.n) if n > 0), None)
    if first_idx is None:
        return None
    first = track.t_us[first_idx]  # not t_us.index(first): an empty role chunk may share the first token's time
    k = visible_chunks(track, track.end_us if t_us is None else t_us)
    if k <= first_idx:
        return None
    last_t = track.t_us[k - 1] if t_us is None else t_us
    span = last_t - first
    after_first = track.cum_tokens[k] - track.cum_tokens[first_idx + 1]
    return after_first * US / span if span > 0 and after_first > 0 else None
