"""The closing summary of a cells-mode file: one row per arm x prompt, over repeats (warm-ups excluded).

Decode tok/s comes from specreplay.timeline.decode_rate, so the recorder and the app agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

from specreplay import format as fmt
from specreplay.timeline import decode_rate, track_of


@dataclass(frozen=True)
class Row:
    arm: str
    prompt: str
    kind: str
    repeats: int
    decode_tps: float | None  # median over repeats
    decode_spread: float | None  # max - min over repeats
    ttft_s: float | None  # median
    tokens: tuple[int, ...]  # per repeat
    acceptance_length: float | None  # 1 + sum(accepted) / sum(drafts) over repeats
    speedup: float | None  # decode_tps / the baseline arm's, same prompt
    like_for_like: bool  # every arm produced the same token count on every repeat of this prompt
    errors: int


def _med(xs: list[float]) -> float | None:
    return median(xs) if xs else None


def rows(rec: fmt.Recording) -> list[Row]:
    out: list[Row] = []
    for prompt in rec.prompts:
        counts = {a["id"]: [r.tokens for r in rec.select(a["id"], prompt["id"])] for a in rec.arms}
        same = len({t for ts in counts.values() for t in ts}) == 1
        base_tps: dict[str, float | None] = {}
        for arm in rec.arms:
            runs = rec.select(arm["id"], prompt["id"])
            rates = [x for x in (decode_rate(track_of(r)) for r in runs) if x is not None]
            ttfts = [r.ttft_us / 1e6 for r in runs if r.ttft_us is not None]
            specs = [r.spec for r in runs if r.spec is not None]
            drafts = sum(s.drafts for s in specs)
            base_tps[arm["id"]] = _med(rates)
            out.append(Row(
                arm=arm["id"], prompt=prompt["id"], kind=prompt["kind"], repeats=len(runs),
                decode_tps=_med(rates), decode_spread=(max(rates) - min(rates)) if rates else None,
                ttft_s=_med(ttfts), tokens=tuple(r.tokens for r in runs),
                acceptance_length=1 + sum(s.accepted for s in specs) / drafts if drafts else None,
                speedup=None, like_for_like=same,
                errors=len([r for r in rec.select(arm["id"], prompt["id"], ok=False) if not r.ok]),
            ))
        for i, row in enumerate(out):
            base = rec.arm(row.arm).get("baseline")
            if row.prompt == prompt["id"] and base and row.decode_tps and (base_rate := base_tps.get(base)):
                out[i] = Row(**{**row.__dict__, "speedup": row.decode_tps / base_rate})
    return out


def render(rec: fmt.Recording) -> str:
    def f(x: float | None, spec: str) -> str:
        return "—" if x is None else format(x, spec)

    lines = [f"{'arm':<12} {'prompt':<14} {'kind':<10} {'n':>2} {'tok/s':>7} {'±':>5} {'speedup':>7} "
             f"{'TTFT s':>7} {'tokens':>7} {'acc.len':>7}  like-for-like"]
    for r in rows(rec):
        toks = str(r.tokens[0]) if len(set(r.tokens)) == 1 else f"{min(r.tokens, default=0)}-{max(r.tokens, default=0)}"
        lines.append(f"{r.arm:<12} {r.prompt:<14} {r.kind:<10} {r.repeats:>2} {f(r.decode_tps, '.1f'):>7} "
                     f"{f(r.decode_spread, '.1f'):>5} {f(r.speedup, '.2f') + ('x' if r.speedup else ''):>7} "
                     f"{f(r.ttft_s, '.3f'):>7} {toks:>7} {f(r.acceptance_length, '.2f'):>7}  "
                     f"{'yes' if r.like_for_like else 'NO: token counts differ between arms'}"
                     + (f"  ({r.errors} failed)" if r.errors else ""))
    return "\n".join(lines)
