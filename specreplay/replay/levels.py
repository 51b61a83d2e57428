"""Replay one user's stream at several concurrency levels side by side, with the system's total tok/s underneath.

Any recording with runs at more than one request in flight plays this way: a sweep (`specreplay sweep`: every
level of every arm and prompt mix) and an imported `vllm bench serve` / AIPerf file (all its requests at the
level the file ran at). For one arm at one level the pane shows the request with the median decode rate (the
same pick as a single-stream replay's median repeat); under it, the level's total output tok/s: every request's
tokens of that level (all streams and rounds) that had arrived by t, divided by t, on the shown request's clock
(t = 0 when it was sent; tokens of requests that arrived before that are not counted).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import accumulate

from specreplay.explain.sweeps import finished_by_level, mixes_of
from specreplay.recording.format import Event, Recording, Run
from specreplay.replay.panes import Pane, median_run, recorded_pane
from specreplay.replay.timeline import Track

WANTED = (1, 8, 32, 64)  # the levels a sweep opens on, where it has them


@dataclass(frozen=True)
class LevelKey:
    arm: str
    concurrency: int
    mix: str | None = None

    def token(self) -> str:
        """The URL's form: arm@level (arm@level@mix for a sweep with prompt mixes)."""
        return f"{self.arm}@{self.concurrency}" + (f"@{self.mix}" if self.mix else "")


def parse_token(token: str) -> LevelKey | None:
    """arm@level or arm@level@mix, read from the right: an arm id may hold '@' itself (a served name NAME@L of a
    synthetic-acceptance arm, e.g. w4-dflash@2.2@8 is arm w4-dflash@2.2 at 8 streams)."""
    parts = token.split("@")
    for mix in ((None,) if len(parts) < 3 else (None, parts[-1])):
        head = parts if mix is None else parts[:-1]
        level = head[-1]
        if len(head) >= 2 and level.isdigit() and len(level) <= 6 and all(head[:-1]):
            return LevelKey("@".join(head[:-1]), int(level), mix)
    return None


def level_runs(rec: Recording, key: LevelKey) -> list[Run]:
    return list(finished_by_level(rec).get((key.arm, key.mix, key.concurrency), ()))


def level_keys(rec: Recording) -> list[LevelKey]:
    """Every (arm, level, mix) with finished requests, arms in header order, then mix, then level."""
    levels: dict[tuple[str, str | None], set[int]] = {}
    for arm, mix, concurrency in finished_by_level(rec):  # one pass, however many levels and mixes
        levels.setdefault((arm, mix), set()).add(concurrency)
    mixes = mixes_of(rec)
    return [LevelKey(a, c, m) for a in (arm.id for arm in rec.arms) for m in mixes
            for c in sorted(levels.get((a, m), ()))]


def has_levels(rec: Recording) -> bool:
    """True when some finished request ran with others in flight (a sweep, or an imported load test)."""
    return any(concurrency > 1 for _, _, concurrency in finished_by_level(rec))


def default_keys(rec: Recording, limit: int = 4) -> list[LevelKey]:
    """One arm (the first speculative arm named against a baseline, else the first arm) at up to `limit` levels:
    all of them when it has no more; else 1, 8, 32 and 64 where it has them; else its lowest, highest and evenly
    spaced ones between."""
    keys = level_keys(rec)
    if not keys:
        return []
    spec = [a.id for a in rec.arms if a.baseline]
    arm = next((k.arm for k in keys if k.arm in spec), keys[0].arm)
    mix = next(k.mix for k in keys if k.arm == arm)
    mine = [k for k in keys if k.arm == arm and k.mix == mix]
    if len(mine) <= limit:
        return mine
    wanted = [k for k in mine if k.concurrency in WANTED]
    if len(wanted) > 1:
        return wanted[:limit]
    step = (len(mine) - 1) / (limit - 1)
    return [mine[round(i * step)] for i in range(limit)]


def system_events(runs: list[Run], shown: Run) -> list[Event]:
    """Every request's chunks on `shown`'s clock, from the time it was sent (earlier arrivals left out)."""
    merged: list[Event] = []
    for run in runs:
        offset = round((run.started_mono - shown.started_mono) * 1_000_000)
        merged.extend(Event(t + offset, n, "") for t, n in zip(run.events.t_us, run.events.n) if t + offset >= 0)
    return sorted(merged, key=lambda e: e.t_us)


def system_track(events: list[Event]) -> Track:
    """The level's merged arrivals as they came, not grouped into bursts: make_track's burst rule joins events
    within 1 ms of the one before, and 64 streams' events are that close to each other all the way through."""
    return Track(t_us=tuple(e.t_us for e in events), n=tuple(e.n for e in events), text=tuple("" for _ in events),
                 cum_tokens=(0, *accumulate(e.n for e in events)))


def level_pane(rec: Recording, key: LevelKey) -> Pane:
    """The median-rate request of this arm at this level, with the level's system track."""
    runs = level_runs(rec, key)
    if not runs:
        raise LookupError(f"arm {key.arm!r} has no finished request at concurrency {key.concurrency}"
                          + (f" in mix {key.mix!r}" if key.mix else ""))
    shown = median_run(runs)
    pane = recorded_pane(rec, key.arm, shown)
    return replace(pane, key=f"{key.token()}/{shown.prompt}/{shown.repeat}/{shown.stream}",
                   system=system_track(system_events(runs, shown)), level=key.concurrency,
                   details={**pane.details, "prompt": shown.prompt, "stream": str(shown.stream), "round": str(shown.repeat),
                            "in_flight": str(key.concurrency), "requests": str(len(runs))})
