"""The closing table of a sweep recording, from specreplay.sweeps (the same numbers the app shows)."""

from __future__ import annotations

from specreplay import format as fmt
from specreplay.sweeps import level_table, paired_speedups


def render(rec: fmt.Recording) -> str:
    def f(x: float | None, spec: str) -> str:
        return "—" if x is None else format(x, spec)

    pairs = {(s.arm, s.concurrency): s for s in paired_speedups(rec)}
    lines = [f"{'arm':<12} {'conc':>4} {'req':>4} {'tok/s p50':>9} {'p10':>6} {'p90':>6} {'system tok/s':>12} "
             f"{'TTFT p50':>8} {'acc.len':>7} {'speedup':>8} {'sys.speedup':>11}  greedy text = reference"]
    for s in level_table(rec):
        sp = pairs.get((s.arm, s.concurrency))
        lines.append(f"{s.arm:<12} {s.concurrency:>4} {s.requests:>4} {f(s.decode_median, '.1f'):>9} "
                     f"{f(s.decode_p10, '.1f'):>6} {f(s.decode_p90, '.1f'):>6} {f(s.throughput, '.1f'):>12} "
                     f"{f(s.ttft_median, '.3f'):>8} {f(s.acceptance_length, '.2f'):>7} "
                     f"{f(sp.decode if sp else None, '.2f'):>8} {f(sp.throughput if sp else None, '.2f'):>11}  "
                     f"{s.greedy_matches}/{s.greedy_runs}")
    return "\n".join(lines)
