"""The break-even map: a drafter arm's measured speedup over its own target alone, at acceptance lengths that
were *set* (llama-server's benchmark-only `--spec-synth-len L`) × concurrency levels.

The timing is measured; the acceptance is chosen, not the drafter's own. So the map answers "at this acceptance
length and this many streams, does this drafter pay on this machine?", and its 1.0 contour is where it stops.

    grids = breakeven_grids(rec)   # one Grid per target arm (the arms' `baseline`)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from specreplay.explain.artefacts import Reason, left_out
from specreplay.explain.derived import bracket, ratio
from specreplay.explain.sweeps import level_table
from specreplay.recording.format import Recording


@dataclass(frozen=True)
class Grid:
    target: str  # the baseline arm: the target model alone
    lengths: tuple[float, ...]  # set acceptance lengths, ascending
    levels: tuple[int, ...]  # concurrency levels, ascending
    throughput: tuple[tuple[float | None, ...], ...]  # [length][level]: system tok/s, drafter ÷ target
    decode: tuple[tuple[float | None, ...], ...]  # [length][level]: median per-request tok/s, drafter ÷ target
    arms: tuple[str, ...]  # the drafter arm of each length
    # (length, level) → why the cell is an engine's artefact (specreplay.explain.artefacts): drawn marked, never read off
    left_out: dict[tuple[float, int], Reason] = field(default_factory=dict)

    def below_one(self, metric: str = "throughput") -> list[tuple[float, int]]:
        """(length, level) cells where the drafter loses."""
        z = self.throughput if metric == "throughput" else self.decode
        return [(L, lv) for i, L in enumerate(self.lengths) for j, lv in enumerate(self.levels)
                if z[i][j] is not None and z[i][j] < 1]  # type: ignore[operator]

    def break_even_length(self, level: int, metric: str = "throughput") -> tuple[float, float] | None:
        """At one level, the set lengths either side of 1.0 (last losing, first paying), read between measured
        cells only, marked ones left out; None when the row never crosses."""
        z = self.throughput if metric == "throughput" else self.decode
        j = self.levels.index(level)
        around = bracket((L, v) for i, L in enumerate(self.lengths)
                         if (v := z[i][j]) is not None and (L, level) not in self.left_out)
        return (around[0][0], around[1][0]) if around else None


def breakeven_grids(rec: Recording) -> list[Grid]:
    """One grid per target arm that has drafter arms at set acceptance lengths; [] for any other recording."""
    stats = {(s.arm, s.concurrency): s for s in level_table(rec)}
    by_target: dict[str, dict[float, str]] = {}
    for arm in rec.arms:
        L, base = arm.set_acceptance, arm.baseline
        if L is not None and base:
            by_target.setdefault(base, {})[L] = arm.id
    grids = []
    for target, arms in by_target.items():
        lengths = tuple(sorted(arms))
        levels = tuple(sorted({lv for (a, lv) in stats if a == target}))
        thr, dec = [], []
        for L in lengths:
            row_t, row_d = [], []
            for lv in levels:
                s, b = stats.get((arms[L], lv)), stats.get((target, lv))
                row_t.append(ratio(s.throughput, b.throughput) if s and b else None)
                row_d.append(ratio(s.decode_median, b.decode_median) if s and b else None)
            thr.append(tuple(row_t))
            dec.append(tuple(row_d))
        marked = {(L, lv): why for L in lengths for lv in levels if (why := left_out(rec, arms[L], lv))}
        grids.append(Grid(target, lengths, levels, tuple(thr), tuple(dec), tuple(arms[L] for L in lengths), marked))
    return grids
