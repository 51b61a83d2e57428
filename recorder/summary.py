"""The closing summary of a cells-mode file: one row per arm x prompt, over repeats (warm-ups excluded).

Decode tok/s and the speedups come from specreplay.replay.speedup (the median repeat's specreplay.replay.timeline.decode_rate,
divided by the reference arm's), so the recorder, the replay, the video and the pages print one figure for one pair.
Each row names two references: the arm's baseline (the rung before) and the original (the root of the baseline
chain, the player's default reference). A file with one arm has nothing to compare: no speedup and no like-for-like
column. The % of the physics ceiling comes from specreplay.explain.ceiling.
"""

from __future__ import annotations

from dataclasses import dataclass

from specreplay.engines.defects import defect_lines, draft_graphs_defect
from specreplay.explain.ceiling import Ceiling, ceiling, percent
from specreplay.recording import format as fmt
from specreplay.recording.counts import total
from specreplay.recording.kinds import kind_line
from specreplay.replay.panes import median_repeat, recorded_pane
from specreplay.replay.speedup import arm_rate, speedup
from specreplay.replay.timeline import decode_rate, track_of


@dataclass(frozen=True)
class Row:
    arm: str
    prompt: str
    kind: str
    repeats: int
    decode_tps: float | None  # the median repeat's (as the replay shows it)
    decode_spread: float | None  # max - min over repeats
    ttft_s: float | None  # median repeat's
    tokens: tuple[int, ...]  # per repeat
    acceptance_length: float | None  # 1 + sum(accepted) / sum(drafts) over repeats
    speedup: float | None  # decode_tps / the reference arm's, same prompt (specreplay.replay.speedup)
    like_for_like: bool  # every arm produced the same token count on every repeat of this prompt
    errors: int
    reference: str | None = None  # the arm the speedup is relative to
    text: tuple[str, ...] = ()  # the median repeat's text warnings (specreplay.replay.text_checks), in English
    original: str | None = None  # the root of the baseline chain (the player's default reference)
    vs_original: float | None = None  # decode_tps / the original arm's, same prompt
    ceiling: Ceiling | None = None  # the physics ceiling (specreplay.explain.ceiling)


def reference_of(rec: fmt.Recording, arm: str) -> str | None:
    """The arm's `baseline`; in a file where no arm names one, the first arm (as the replay's reference pane)."""
    if len(rec.arms) < 2:
        return None
    named = rec.arm(arm).baseline
    if named or any(a.baseline for a in rec.arms):
        return named
    first = rec.arms[0].id
    return None if arm == first else first


def original_of(rec: fmt.Recording, arm: str) -> str | None:
    """The root of the arm's baseline chain (f16 for q4-ngram → q4 → f16); None for the root itself."""
    seen = [arm]
    while (ref := reference_of(rec, seen[-1])) and ref not in seen:
        seen.append(ref)
    return seen[-1] if len(seen) > 1 else None


def _median_ttft(runs: list[fmt.Run]) -> float | None:
    ttfts = sorted(r.ttft_us / 1e6 for r in runs if r.ttft_us is not None)
    return ttfts[(len(ttfts) - 1) // 2] if ttfts else None


def _text(rec: fmt.Recording, arm: str, prompt: str) -> tuple[str, ...]:
    try:
        pane = recorded_pane(rec, arm, median_repeat(rec, arm, prompt))
    except LookupError:
        return ()
    return tuple(w.text("en") for w in pane.warnings)


def rows(rec: fmt.Recording) -> list[Row]:
    out: list[Row] = []
    for prompt in rec.prompts:
        # arms counted in chunks (imported without tokens per chunk) have no token counts to compare
        counts = {a.id: [r.tokens for r in rec.select(a.id, prompt.id)] for a in rec.arms if a.counts != "chunks"}
        same = len({t for ts in counts.values() for t in ts}) <= 1
        for arm in rec.arms:
            runs = rec.select(arm.id, prompt.id)
            rates = [x for x in (decode_rate(track_of(r)) for r in runs) if x is not None]
            # a run's own counters; else the arm's single-stream level line (an imported file's totals)
            spec = total(r.spec for r in runs) or total(
                lv.spec for lv in rec.levels if lv.arm == arm.id and lv.concurrency == 1)
            ref, orig = reference_of(rec, arm.id), original_of(rec, arm.id)
            rate = arm_rate(rec, arm.id, prompt.id)
            out.append(Row(
                arm=arm.id, prompt=prompt.id, kind=prompt.kind, repeats=len(runs),
                decode_tps=rate, decode_spread=(max(rates) - min(rates)) if rates and arm.counts != "chunks" else None,
                ttft_s=_median_ttft(runs), tokens=tuple(r.tokens for r in runs),
                acceptance_length=spec.acceptance_length if spec else None,
                speedup=speedup(rate, arm_rate(rec, ref, prompt.id)) if ref else None, like_for_like=same,
                errors=len([r for r in rec.select(arm.id, prompt.id, ok=False) if not r.ok]), reference=ref,
                text=_text(rec, arm.id, prompt.id), original=orig,
                vs_original=speedup(rate, arm_rate(rec, orig, prompt.id)) if orig else None,
                ceiling=ceiling(rec, arm.id, prompt.id),
            ))
    return out


def _like_for_like(r: Row) -> str:
    if not r.like_for_like:
        return "NO: token counts differ between arms"
    departs = [w for w in r.text if w.startswith("not like-for-like")]
    return f"NO: {departs[0].removeprefix('not like-for-like: ')}" if departs else "yes"


def timing_only_mark(rec: fmt.Recording, arm: str) -> str:
    """A row's mark when its figures are timing only (dummy weights or a set acceptance), footnoted below."""
    return "  †" if rec.kind(arm) == "timing_only" else ""


def timing_only_lines(rec: fmt.Recording) -> list[str]:
    return [f"† {kind_line('timing_only')}"] if any(rec.kind(a.id) == "timing_only" for a in rec.arms) else []


def render(rec: fmt.Recording) -> str:
    def f(x: float | None, spec: str) -> str:
        return "—" if x is None else format(x, spec)

    def x(v: float | None) -> str:
        return f(v, ".2f") + ("x" if v else "")

    compare = len(rec.arms) > 1
    lines = [f"{'arm':<12} {'prompt':<14} {'kind':<10} {'n':>2} {'tok/s':>7} {'±':>5} "
             + (f"{'×base':>7} {'×orig':>7} " if compare else "") + f"{'TTFT s':>7} {'tokens':>7} {'acc.len':>7} "
             + f"{'ceil%':>5}" + ("  like-for-like" if compare else "")]
    table = rows(rec)
    for r in table:
        toks = str(r.tokens[0]) if len(set(r.tokens)) == 1 else f"{min(r.tokens, default=0)}-{max(r.tokens, default=0)}"
        lines.append(f"{r.arm:<12} {r.prompt:<14} {r.kind:<10} {r.repeats:>2} {f(r.decode_tps, '.1f'):>7} "
                     f"{f(r.decode_spread, '.1f'):>5} "
                     + (f"{x(r.speedup):>7} {x(r.vs_original):>7} " if compare else "")
                     + f"{f(r.ttft_s, '.3f'):>7} {toks:>7} {f(r.acceptance_length, '.2f'):>7} "
                     + f"{percent(r.ceiling).replace(' ', ''):>5}"
                     + (f"  {_like_for_like(r)}" if compare else "")
                     + (f"  ({r.errors} failed)" if r.errors else "")
                     + "".join(f"  [{w}]" for w in r.text if not w.startswith("not like-for-like"))
                     + ("  *" if draft_graphs_defect(rec.arm(r.arm)) else "")
                     + timing_only_mark(rec, r.arm))
    refs = sorted({r.reference for r in table if r.reference})
    origs = sorted({r.original for r in table if r.original})
    if compare and refs:
        lines.append(f"×base = decode tok/s ÷ the arm's baseline's, the rung before ({', '.join(refs)}); ×orig = ÷ "
                     f"the original arm's ({', '.join(origs)}); same prompt, each arm's median repeat (first token "
                     "excluded): the figures the replay, video, export and pages show for the same pair")
    band = next((r.ceiling.bandwidth for r in table if r.ceiling), None)
    if band:
        lines.append(f"ceil% = decode tok/s ÷ (memory bandwidth {band.bytes_per_s / 1e9:,.0f} GB/s, measured on "
                     f"{band.where} [{band.file}], ÷ weight bytes per token × tokens per step): the physics ceiling")
    return "\n".join(lines + timing_only_lines(rec) + defect_lines(rec.arms))
