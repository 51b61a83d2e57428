"""Concurrency sweeps: per-level aggregates of a sweep recording, and the paired speedup of each speculative arm.

A sweep recording holds, for each arm and concurrency level, the level's runs
(one per stream and round; `concurrency` = the level) and one `level` line with
the /metrics speculative-decoding deltas over the level. Warm-up runs are left out.

    table = level_table(rec)          # one LevelStats per (arm, level), arms in header order
    pairs = paired_speedups(rec)      # one Speedup per (speculative arm, level) that has a baseline
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from specreplay.format import Recording, Run
from specreplay.timeline import decode_rate, track_of


@dataclass(frozen=True)
class LevelStats:
    arm: str
    concurrency: int
    requests: int  # finished, non-warm-up requests in the level
    tokens: int  # their output tokens
    decode_median: float | None  # per-request decode tok/s (first token excluded, as in the app)
    decode_p10: float | None
    decode_p90: float | None
    throughput: float | None  # system output tok/s: all tokens / (last chunk - first request sent)
    ttft_median: float | None  # seconds
    ttft_p90: float | None
    acceptance_length: float | None  # 1 + accepted / drafts over the level (None: no speculation)
    acceptance_rate: float | None  # accepted / draft tokens
    greedy_runs: int  # runs of greedy (temperature 0) prompts that can be checked against the reference text
    greedy_matches: int  # ... whose text equals the reference: see reference_text




@dataclass(frozen=True)
class Speedup:
    arm: str
    baseline: str
    concurrency: int
    decode: float | None  # median per-request decode tok/s, arm / baseline
    throughput: float | None  # system output tok/s, arm / baseline


def run_end_mono(run: Run) -> float:
    """When the run's last chunk arrived, on the recorder's monotonic clock."""
    return run.started_mono + (run.events[-1].t_us / 1e6 if run.events else 0.0)


def level_runs(rec: Recording, arm: str, concurrency: int) -> list[Run]:
    return rec.select(arm, None, warmup=False, concurrency=concurrency)


def reference_text(rec: Recording, prompt: str) -> str | None:
    """What a greedy prompt should produce: the baseline (or, lacking one, the first) arm's text at concurrency 1.

    Greedy decoding is deterministic, and correct speculative decoding does not change it, so a run of the same
    prompt with different text is not like-for-like (vLLM CPU 0.32.0's batched ngram speculation does this).
    """
    p = rec.prompt(prompt)
    if p.get("sampling", {}).get("temperature", 1.0) != 0:
        return None
    bases = {a.get("baseline") for a in rec.arms} - {None}
    order = sorted(rec.arms, key=lambda a: a["id"] not in bases)
    for arm in order:
        runs = rec.select(arm["id"], prompt, concurrency=1)
        if runs:
            return "".join(e.text for e in runs[0].events)
    return None


def _pct(xs: list[float], q: float) -> float | None:
    return float(np.percentile(xs, q)) if xs else None


def level_stats(rec: Recording, arm: str, concurrency: int) -> LevelStats:
    runs = level_runs(rec, arm, concurrency)
    rates = [r for r in (decode_rate(track_of(run)) for run in runs) if r is not None]
    ttfts = [run.ttft_us / 1e6 for run in runs if run.ttft_us is not None]
    tokens = sum(run.tokens for run in runs)
    span = (max(map(run_end_mono, runs)) - min(r.started_mono for r in runs)) if runs else 0.0
    level = next((lv for lv in rec.levels if lv.arm == arm and lv.concurrency == concurrency), None)
    spec = level.spec if level else None
    refs = {p["id"]: reference_text(rec, p["id"]) for p in rec.prompts}
    checked = [run for run in runs if refs.get(run.prompt) is not None]
    return LevelStats(
        arm=arm, concurrency=concurrency, requests=len(runs), tokens=tokens,
        decode_median=_pct(rates, 50), decode_p10=_pct(rates, 10), decode_p90=_pct(rates, 90),
        throughput=tokens / span if span > 0 else None,
        ttft_median=_pct(ttfts, 50), ttft_p90=_pct(ttfts, 90),
        acceptance_length=spec.acceptance_length if spec else None,
        acceptance_rate=spec.acceptance_rate if spec else None,
        greedy_runs=len(checked),
        greedy_matches=sum("".join(e.text for e in run.events) == refs[run.prompt] for run in checked),
    )


def levels_of(rec: Recording, arm: str) -> list[int]:
    """The concurrency levels this arm has (a level line, or at least one non-warm-up run), ascending."""
    have = {lv.concurrency for lv in rec.levels if lv.arm == arm}
    have |= {r.concurrency for r in rec.runs if r.arm == arm and not r.warmup and r.ok}
    return sorted(have)


def level_table(rec: Recording) -> list[LevelStats]:
    return [level_stats(rec, a["id"], c) for a in rec.arms for c in levels_of(rec, a["id"])]


def baseline_of(rec: Recording, arm: str) -> str | None:
    """The arm this one is compared against: the header's `baseline`, else None."""
    return rec.arm(arm).get("baseline")


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def paired_speedups(rec: Recording) -> list[Speedup]:
    stats = {(s.arm, s.concurrency): s for s in level_table(rec)}
    out = []
    for a in rec.arms:
        base = baseline_of(rec, a["id"])
        if base is None:
            continue
        for c in levels_of(rec, a["id"]):
            s, b = stats.get((a["id"], c)), stats.get((base, c))
            if s and b:
                out.append(Speedup(a["id"], base, c, _ratio(s.decode_median, b.decode_median),
                                   _ratio(s.throughput, b.throughput)))
    return out
