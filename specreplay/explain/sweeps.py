"""Concurrency sweeps: per-level aggregates of a sweep recording, and the paired speedup of each speculative arm.

A sweep recording holds, for each arm, prompt mix and concurrency level, the level's runs
(one per stream and round; `concurrency` = the level, `mix` = the mix id) and one `level` line with
the /metrics speculative-decoding deltas over the level. Files without mixes have one implicit mix
(id None) of all prompts. Warm-up runs are left out.

    table = level_table(rec)          # one LevelStats per (arm, mix, level), arms in header order
    pairs = paired_speedups(rec)      # one Speedup per (speculative arm, mix, level) that has a baseline

No numpy here: the recorder prints its closing table with this module on machines with only httpx.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from specreplay.explain.derived import ratio
from specreplay.recording.format import Level, Recording, Run


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
    greedy_matches: int  # ... whose text equals the reference: see _single_stream_texts
    mix: str | None = None  # the prompt mix (None: the implicit mix of a file without mixes)
    greedy_own: int = 0  # ... that differ from the reference but equal this arm's own single-stream text
    sampled_runs: int = 0  # runs of sampled prompts: their text is not checkable
    host_busy: float | None = None  # host CPU busy share before the level, as recorded
    mixed_sampling: bool = False  # greedy batched with sampled prompts (recorded with allow_mixed_sampling)

    @property
    def greedy_diverged(self) -> int:
        """Greedy runs whose text is neither the reference nor this arm's own single-stream text: batching changed
        them."""
        return self.greedy_runs - self.greedy_matches - self.greedy_own


@dataclass(frozen=True)
class Speedup:
    arm: str
    baseline: str
    concurrency: int
    decode: float | None  # median per-request decode tok/s, arm / baseline
    throughput: float | None  # system output tok/s, arm / baseline
    mix: str | None = None


def run_end_mono(run: Run) -> float:
    """When the run's last chunk arrived, on the recorder's monotonic clock."""
    return run.started_mono + (run.events[-1].t_us / 1e6 if run.events else 0.0)


def mixes_of(rec: Recording) -> list[str | None]:
    """The prompt mixes, in the header's order (recorder.mixes), else in order of appearance; [None] without mixes."""
    named = [m.id for m in rec.header.recorder.mixes]
    seen = named + [m for m in dict.fromkeys([lv.mix for lv in rec.levels] + [r.mix for r in rec.runs]) if m not in named]
    return seen or [None]


_Key = tuple[str, str | None, int]  # (arm, mix, concurrency)


@dataclass(frozen=True)
class _Levels:
    """A sweep file read once: every level's finished non-warm-up runs, its level line, and the single-stream texts
    greedy runs are checked against. Every table below is built from this, so a file with thousands of levels or
    mixes costs one pass, not one pass per level."""

    runs: dict[_Key, list[Run]]
    lines: dict[_Key, Level]
    reference: dict[str, str]  # greedy prompt -> the reference text (see _single_stream_texts)
    own: dict[tuple[str, str], str]  # (arm, greedy prompt) -> that arm's own single-stream text


def _single_stream_texts(rec: Recording) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """What a greedy prompt should produce, and each arm's own text of it: the first finished run at concurrency 1.

    Greedy decoding is deterministic, and correct speculative decoding does not change it, so a run of the same
    prompt with different text is not like-for-like (vLLM CPU 0.32.0's batched ngram speculation does this). The
    reference is the baseline arms' (in header order), lacking one the first arm's with such a run.
    """
    greedy = {p.id for p in rec.prompts if p.greedy}
    own: dict[tuple[str, str], str] = {}
    for r in rec.runs:
        if r.concurrency == 1 and r.ok and not r.warmup and r.prompt in greedy and (r.arm, r.prompt) not in own:
            own[(r.arm, r.prompt)] = r.events.text
    bases = {a.baseline for a in rec.arms} - {None}
    rank = {a.id: i for i, a in enumerate(sorted(rec.arms, key=lambda a: a.id not in bases))}
    best: dict[str, tuple[int, str]] = {}
    for (arm, prompt), text in own.items():
        if prompt not in best or rank[arm] < best[prompt][0]:
            best[prompt] = (rank[arm], text)
    return {p: text for p, (_, text) in best.items()}, own


def finished_by_level(rec: Recording) -> dict[_Key, list[Run]]:
    """Every finished non-warm-up run, grouped by (arm, mix, concurrency) in file order: one pass over the file,
    kept per recording (Recording.derived), so a page asking for many levels does not scan the file per level."""
    at = (len(rec.runs), len(rec.levels))
    kept = rec.derived.get("finished_by_level")
    if kept is None or kept[0] != at:
        runs: dict[_Key, list[Run]] = {}
        for r in rec.runs:
            if r.ok and not r.warmup:
                runs.setdefault((r.arm, r.mix, r.concurrency), []).append(r)
        kept = (at, runs)
        rec.derived["finished_by_level"] = kept
    return kept[1]


def _read_levels(rec: Recording) -> _Levels:
    runs = finished_by_level(rec)
    lines: dict[_Key, Level] = {}
    for lv in rec.levels:
        lines.setdefault((lv.arm, lv.mix, lv.concurrency), lv)  # the first line of a level counts
    reference, own = _single_stream_texts(rec)
    return _Levels(runs, lines, reference, own)


def _pct(xs: list[float], q: float) -> float | None:
    """The q-th percentile, linear between closest ranks (numpy.percentile's default)."""
    if not xs:
        return None
    v = sorted(xs)
    pos = (len(v) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return float(v[lo] + (v[hi] - v[lo]) * (pos - lo))


def _level_stats(rec: Recording, read: _Levels, key: _Key) -> LevelStats:
    arm, mix, concurrency = key
    runs = read.runs.get(key, [])
    rates = [run.decode_rate for run in runs if run.decode_rate is not None]
    ttfts = [run.ttft_us / 1e6 for run in runs if run.ttft_us is not None]
    tokens = sum(run.tokens for run in runs)
    span = (max(map(run_end_mono, runs)) - min(r.started_mono for r in runs)) if runs else 0.0
    level = read.lines.get(key)
    spec = level.spec if level else None
    checked = [run for run in runs if run.prompt in read.reference]
    texts = [run.events.text for run in checked]
    refs = [read.reference[run.prompt] for run in checked]
    own = [read.own.get((arm, run.prompt)) for run in checked]
    return LevelStats(
        arm=arm, concurrency=concurrency, requests=len(runs), tokens=tokens,
        decode_median=_pct(rates, 50), decode_p10=_pct(rates, 10), decode_p90=_pct(rates, 90),
        throughput=tokens / span if span > 0 else None,
        ttft_median=_pct(ttfts, 50), ttft_p90=_pct(ttfts, 90),
        acceptance_length=spec.acceptance_length if spec else None,
        acceptance_rate=spec.acceptance_rate if spec else None,
        greedy_runs=len(checked),
        greedy_matches=sum(t == ref for t, ref in zip(texts, refs)),
        greedy_own=sum(t != ref and t == mine for t, ref, mine in zip(texts, refs, own)),
        mix=mix, sampled_runs=sum(not rec.prompt(run.prompt).greedy for run in runs),
        host_busy=level.host_busy if level else None, mixed_sampling=level.mixed_sampling if level else False,
    )


def level_table(rec: Recording) -> list[LevelStats]:
    """One LevelStats per (arm, mix, level) that has a level line or a finished non-warm-up run: arms in header
    order, then mixes (mixes_of), then levels ascending. One pass over the file, kept per recording
    (Recording.derived) for the several charts of a page run."""
    at = (len(rec.runs), len(rec.levels))
    kept = rec.derived.get("level_table")
    if kept is None or kept[0] != at:
        read = _read_levels(rec)
        levels: dict[tuple[str, str | None], list[int]] = {}
        for arm, mix, c in {*read.runs, *read.lines}:
            levels.setdefault((arm, mix), []).append(c)
        mixes = mixes_of(rec)
        kept = (at, tuple(_level_stats(rec, read, (a.id, m, c)) for a in rec.arms for m in mixes
                          for c in sorted(levels.get((a.id, m), ()))))
        rec.derived["level_table"] = kept
    return list(kept[1])


def paired_speedups(rec: Recording) -> list[Speedup]:
    """One Speedup per (speculative arm, mix, level) whose baseline has the same level, in level_table's order."""
    table = level_table(rec)
    stats = {(s.arm, s.mix, s.concurrency): s for s in table}
    out = []
    for s in table:
        base = rec.arm(s.arm).baseline
        b = stats.get((base, s.mix, s.concurrency)) if base is not None else None
        if b:
            out.append(Speedup(s.arm, b.arm, s.concurrency, ratio(s.decode_median, b.decode_median),
                               ratio(s.throughput, b.throughput), s.mix))
    return out


def like_for_like(spec: LevelStats, base: LevelStats) -> bool:
    """Did the two arms do the same work at this level? The like-for-like rule for greedy text.

    A speculative arm's greedy run may equal the baseline's single-stream text, or its own single-stream text:
    on a GPU, bf16 verify steps round differently from one-token steps and can flip a near-tie (SmolLM2 on the
    H200: code-refactor leaves the baseline's text at character 247, alone and at every level). Neither is a
    fault. A run that equals neither was changed by batching; large batches do that to the baseline too (other
    kernels), so the level counts as like-for-like while the speculative arm has no larger share of such runs
    than the baseline at the same level. vLLM CPU 0.32.0's greedy+sampled batches fail this: the baseline has
    none, the ngram arm many.
    """
    return spec.greedy_diverged * max(base.greedy_runs, 1) <= base.greedy_diverged * spec.greedy_runs


@dataclass(frozen=True)
class PairRow:
    """One (speculative arm, mix, level) with its baseline: what the concurrency page lists per recorded level."""

    speedup: Speedup
    stats: LevelStats  # the speculative arm's level
    base: LevelStats  # the baseline's level

    @property
    def checkable(self) -> bool:
        return self.stats.greedy_runs > 0

    @property
    def like_for_like(self) -> bool:
        return like_for_like(self.stats, self.base)


def pair_rows(rec: Recording) -> list[PairRow]:
    stats = {(s.arm, s.mix, s.concurrency): s for s in level_table(rec)}
    return [PairRow(p, stats[(p.arm, p.mix, p.concurrency)], stats[(p.baseline, p.mix, p.concurrency)])
            for p in paired_speedups(rec)]
