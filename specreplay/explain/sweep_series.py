"""Recorded concurrency sweeps (recordings/*.jsonl) as series of paired speedups, next to the articles' series."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from specreplay import engines
from specreplay.explain import artefacts
from specreplay.explain.axis_series import Series
from specreplay.multiplier import times
from specreplay.recording.locations import recording_files


def recorded_series(points: Mapping[int, float | None], provenance: Mapping[str, str], label: str,
                    label_en: str = "", excluded: Mapping[int, float | None] | None = None, metric: str = "",
                    family: str = "", short: str = "", arm: str = "", engine: str = "", sampled: bool = False,
                    marked: Mapping[int, tuple[float | None, str]] | None = None) -> Series:
    """A recorded concurrency sweep (speedup of a speculative arm over its baseline) as just another series.

    provenance needs 'recording' (file) and should name engine, model, machine and date. `excluded`: levels
    measured but not like-for-like (their points are None), with the value measured there. `marked`: levels an
    engine defect or a start-up stall produced (their points are None too), with the value and the reason.
    """
    if not points:
        raise ValueError("a recorded sweep series needs at least one (concurrency → speedup) point")
    if any(int(k) != k or k < 1 for k in points):
        raise ValueError(f"concurrency levels must be whole numbers ≥ 1, got {sorted(points)}")
    if "recording" not in provenance:
        raise ValueError("provenance must name the recording file")
    conditions = {k: str(provenance.get(k, "")) for k in ("engine", "model", "machine", "date")}
    return Series(key=f"recording/{provenance['recording']}/{label}", label=label, label_en=label_en or label,
                  kind="measured", source=str(provenance["recording"]), section="", unit="×",
                  axis="concurrency", points=tuple(sorted((int(k), v) for k, v in points.items())),
                  conditions=conditions, excluded=tuple(sorted((int(k), v) for k, v in (excluded or {}).items())),
                  metric=metric, family=family, short=short, arm=arm, engine=engine, sampled=sampled,
                  marked=tuple(sorted((int(k), v, why) for k, (v, why) in (marked or {}).items())))


def recorded_sweeps(folder: Path | None = None) -> tuple[list[Series], list[str], list[str]]:
    """Every speculative arm x prompt mix of every sweep recording in `folder` (default: the recording folders,
    specreplay.recording.locations), as two series of paired speedups
    over its baseline: system throughput, then per-request decode (median tok/s).

    A recording is a sweep when some non-warm-up run has concurrency > 1. Returns the series; one message
    per recording that could not be read (shown, not raised: one bad file must not hide the article data);
    and one message per level left out because it is not like-for-like, with its measured values.
    """
    paths = sorted(folder.glob("*.jsonl")) if folder else recording_files()
    files = tuple((p, p.stat().st_mtime_ns, p.stat().st_size) for p in paths)
    series, problems, excluded = _recorded_sweeps(files)
    return list(series), list(problems), list(excluded)


@lru_cache(maxsize=8)
def _recorded_sweeps(files: tuple[tuple[Path, int, int], ...]) -> tuple[tuple[Series, ...], tuple[str, ...], tuple[str, ...]]:
    """recorded_sweeps, cached on the files' (path, mtime, size): reading the bundled sweep takes ~0.2 s, too slow
    for every slider move; a new or rewritten recording changes the key and is read again."""
    from specreplay.explain.sweeps import pair_rows
    from specreplay.recording import catalogue
    from specreplay.recording.format import RecordingError

    out: list[Series] = []
    problems: list[str] = []
    excluded: list[str] = []
    for path, _, _ in files:
        try:
            rec = catalogue.recording(path)
        except (RecordingError, OSError) as e:
            problems.append(str(e))
            continue
        if rec.timing_only or not any(r.concurrency > 1 and not r.warmup for r in rec.runs):
            continue  # timing-only sweeps (dummy weights) compare quantizations, not speculative decoding
        curves: dict[tuple[str, str | None], dict[str, dict[int, float | None]]] = {}
        left_out: dict[tuple[str, str | None], dict[str, dict[int, float | None]]] = {}
        marked: dict[tuple[str, str | None], dict[str, dict[int, tuple[float | None, str]]]] = {}
        unchecked: set[tuple[str, str | None]] = set()
        for row in pair_rows(rec):
            s, stats = row.speedup, row.stats
            drafts = rec.arm(s.arm).speculative or any(lv.spec for lv in rec.levels if lv.arm == s.arm)
            if rec.arm(s.arm).set_acceptance is not None or not drafts:
                continue  # a set acceptance length (the break-even map), or a pair without a drafter (4-bit ÷ 16-bit)
            if not row.checkable:
                unchecked.add((s.arm, s.mix))
            # Like-for-like rule (sweeps.like_for_like): where batching changed the speculative arm's greedy text
            # more than the baseline's, the two arms did different work, so the level is not plotted; its measured
            # values are listed instead.
            why = artefacts.left_out(rec, s.arm, s.concurrency, s.mix)
            if why:  # an engine's artefact, drawn marked: never a point of the curve
                m = marked.setdefault((s.arm, s.mix), {"throughput": {}, "decode": {}})
                m["throughput"][s.concurrency] = (None if s.throughput is None else round(s.throughput, 2), why)
                m["decode"][s.concurrency] = (None if s.decode is None else round(s.decode, 2), why)
            differs = not row.like_for_like and not why
            if differs:
                where = " · ".join(x for x in (path.name, s.arm, s.mix, str(s.concurrency)) if x)
                excluded.append(f"{where}: {stats.greedy_diverged}/{stats.greedy_runs} greedy runs changed by "
                                f"batching (baseline {row.base.greedy_diverged}/{row.base.greedy_runs}); system "
                                f"{times(s.throughput)}, per-request {times(s.decode)} not plotted")
            c = curves.setdefault((s.arm, s.mix), {"throughput": {}, "decode": {}})
            gone = differs or why is not None
            c["throughput"][s.concurrency] = None if gone or s.throughput is None else round(s.throughput, 2)
            c["decode"][s.concurrency] = None if gone or s.decode is None else round(s.decode, 2)
            if differs:
                x = left_out.setdefault((s.arm, s.mix), {"throughput": {}, "decode": {}})
                x["throughput"][s.concurrency] = None if s.throughput is None else round(s.throughput, 2)
                x["decode"][s.concurrency] = None if s.decode is None else round(s.decode, 2)
        family = "gpu" if rec.header.machine.accelerator else "cpu"
        mixes = {m.id: m.prompts for m in rec.header.recorder.mixes}
        for (arm_id, mix), by_metric in curves.items():
            arm = rec.arm(arm_id)
            engine = engines.label(arm.engine.name)
            ran = [p for p in rec.prompts if not mix or p.id in mixes.get(mix, ())]
            temps = {not p.greedy for p in ran}
            tag = mix or ("sampled" if temps == {True} else "greedy" if temps == {False} else "")
            short = f"{arm_id} ÷ {arm.baseline}{f' · {tag}' if tag else ''} · {engine} {family.upper()}"
            base = f"{arm.label} ÷ {rec.arm(str(arm.baseline)).label}"
            mix_ko = f" · {mix}" if mix else ""
            note = (" · 텍스트 확인 불가 (샘플링)", " · text not checkable (sampled)") if (arm_id, mix) in unchecked \
                else ("", "")
            for metric, (ko, en) in (("throughput", ("시스템 처리량", "system throughput")),
                                     ("decode", ("요청당 디코드", "per-request decode"))):
                out.append(recorded_series(by_metric[metric], {
                    "recording": path.name,
                    "engine": arm.engine.line,
                    "model": arm.model,
                    "machine": rec.machine_line,
                    "date": rec.header.created,
                }, label=f"{base}{mix_ko} · {ko}{note[0]}", label_en=f"{base}{mix_ko} · {en}{note[1]}",
                   excluded=left_out.get((arm_id, mix), {}).get(metric), metric=metric, family=family, short=short,
                   arm=arm_id, engine=arm.engine.name, sampled=temps == {True},
                   marked=marked.get((arm_id, mix), {}).get(metric)))
    return tuple(out), tuple(problems), tuple(excluded)
