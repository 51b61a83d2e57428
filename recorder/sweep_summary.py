"""The closing table of a sweep recording, from specreplay.explain.sweeps (the same numbers the app shows)."""

from __future__ import annotations

from recorder.summary import timing_only_lines, timing_only_mark
from specreplay.engines.defects import defect_lines, draft_graphs_defect
from specreplay.explain.sweeps import level_table, paired_speedups
from specreplay.recording import format as fmt


def text_column(s) -> str:
    """Greedy runs whose text equals the baseline's single-stream text; sampled runs cannot be checked."""
    parts = []
    if s.greedy_runs:
        parts.append(f"{s.greedy_matches}/{s.greedy_runs}")
    if s.sampled_runs:
        parts.append("text not checkable (sampled)" if not s.greedy_runs else f"+{s.sampled_runs} sampled")
    if s.mixed_sampling:
        parts.append("MIXED greedy+sampled batch")
    return " ".join(parts) or "—"


def render(rec: fmt.Recording) -> str:
    def f(x: float | None, spec: str) -> str:
        return "—" if x is None else format(x, spec)

    pairs = {(s.arm, s.mix, s.concurrency): s for s in paired_speedups(rec)}
    mixes = any(s.mix for s in level_table(rec))
    compare = len(rec.arms) > 1  # a one-arm file (an imported load test) has nothing to compare
    lines = [f"{'arm':<12} " + (f"{'mix':<9} " if mixes else "")
             + f"{'conc':>4} {'req':>4} {'tok/s p50':>9} {'p10':>6} {'p90':>6} {'system tok/s':>12} "
             f"{'TTFT p50':>8} {'acc.len':>7} " + (f"{'speedup':>8} {'sys.speedup':>11} " if compare else "")
             + f"{'host':>5}  greedy text = reference"]
    for s in level_table(rec):
        sp = pairs.get((s.arm, s.mix, s.concurrency))
        lines.append(f"{s.arm:<12} " + (f"{s.mix or '—':<9} " if mixes else "")
                     + f"{s.concurrency:>4} {s.requests:>4} {f(s.decode_median, '.1f'):>9} "
                     f"{f(s.decode_p10, '.1f'):>6} {f(s.decode_p90, '.1f'):>6} {f(s.throughput, '.1f'):>12} "
                     f"{f(s.ttft_median, '.3f'):>8} {f(s.acceptance_length, '.2f'):>7} "
                     + (f"{f(sp.decode if sp else None, '.2f'):>8} {f(sp.throughput if sp else None, '.2f'):>11} "
                        if compare else "")
                     + f"{f(s.host_busy * 100 if s.host_busy is not None else None, '.0f') + ('%' if s.host_busy is not None else ''):>5}  "
                     f"{text_column(s)}" + ("  *" if draft_graphs_defect(rec.arm(s.arm)) else "")
                     + timing_only_mark(rec, s.arm))
    return "\n".join(lines + timing_only_lines(rec) + defect_lines(rec.arms))
