"""What one replay pane shows: a recorded run or a simulated arm, as a Track plus its labels.

The browser player and the video renderer both draw a list of Panes, so they
show the same thing for the same selection.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from specreplay.engines.defects import EngineDefect, draft_graphs_defect
from specreplay.importers.imported import imported_info, source_line
from specreplay.recording.arm import Arm, Counts, same_weights
from specreplay.recording.format import Event, Recording, Run
from specreplay.recording.kinds import Kind
from specreplay.replay.text_checks import TextWarning, degenerate, departs
from specreplay.replay.timeline import Track, make_track

SIM_TOKEN = "■"  # simulated arms have no real text: one block per token, plainly not language


@dataclass(frozen=True)
class Pane:
    key: str
    label: str
    subtitle: str  # model · engine (a simulated pane's is said in the reader's language: replay.details)
    kind: Kind  # of a recorded pane: Recording.kind(arm); else simulated
    track: Track
    # provenance or simulation parameters, shown on hover: keys of the `pane_details` table (replay.details)
    details: dict[str, str] = field(default_factory=dict)
    counts: Counts = "tokens"  # "chunks" for an imported arm whose file has no tokens per chunk
    arm: str = ""  # the recorded arm's id ("" for a simulated pane)
    baseline: str | None = None  # the arm's `baseline` in its recording: the speedup's reference when shown
    warnings: tuple[TextWarning, ...] = ()  # degenerate or not like-for-like text (specreplay.replay.text_checks)
    system: Track | None = None  # concurrency replay: every request of the level, on this request's clock
    level: int | None = None  # concurrency replay: requests in flight at once
    defect: EngineDefect | None = None  # an engine defect behind the arm's speed (specreplay.engines.defects)


def engine_line(arm: Arm) -> str:
    return f"{arm.model} · {arm.engine.line}"


def median_run(runs: list[Run]) -> Run:
    """The run whose decode rate is the median (the lower middle of an even count); runs must not be empty."""
    rated = sorted(runs, key=lambda r: (r.decode_rate or 0.0, r.repeat, r.stream))
    return rated[(len(rated) - 1) // 2]


def median_repeat(rec: Recording, arm: str, prompt: str) -> Run:
    """The finished, non-warm-up single-stream run whose decode rate is the median (lower middle on ties)."""
    runs = rec.select(arm, prompt)
    if not runs:
        raise LookupError(f"no finished run of arm {arm!r} on prompt {prompt!r}")
    return median_run(runs)


MAX_DETAIL_CHARS = 300  # a hover line, not a dump: a huge header field must not ride along in every pane


def _clip(value: str) -> str:
    return value if len(value) <= MAX_DETAIL_CHARS else value[:MAX_DETAIL_CHARS - 1] + "…"


def recorded_pane(rec: Recording, arm_id: str, run: Run) -> Pane:
    arm = rec.arm(arm_id)
    events: Sequence[Event] = run.events
    if arm.timing_only:  # noise text (dummy weights, or acceptance set by a benchmark mode): blocks, never output;
        # the pane's badge says timing only
        events = tuple(Event(e.t_us, e.n, SIM_TOKEN * e.n) for e in events)
    details = {
        "recording": rec.title,
        "file": Path(rec.path).name,
        "machine": rec.machine_line,
        "created": rec.header.created,
        "repeat": str(run.repeat),
        "flags": arm.flags_line,
    }
    info = imported_info(rec, arm_id)
    if info:
        details = {"imported_from": source_line(info), **details, "lacks": " / ".join(info.lacks)}
    details = {k: _clip(v) for k, v in details.items()}
    return Pane(key=f"{arm_id}/{run.prompt}/{run.repeat}", label=arm.label, subtitle=engine_line(arm),
                kind=rec.kind(arm_id), track=make_track(events), details=details,
                counts=arm.counts, arm=arm_id, baseline=arm.baseline,
                warnings=() if arm.timing_only or info else text_warnings(rec, arm_id, run),
                defect=draft_graphs_defect(arm))


def text_warnings(rec: Recording, arm_id: str, run: Run) -> tuple[TextWarning, ...]:
    """Degenerate text, and on a greedy prompt a speculative arm's text leaving that of its own weights without
    speculation (median repeat of the same prompt)."""
    text = run.events.text
    found = degenerate(text)
    plain_arm = same_weights(rec.arms, rec.arm(arm_id))
    greedy = rec.prompt(run.prompt).greedy
    # the reference text is the plain arm's single-stream run (batching may change greedy text on some engines)
    ref_runs = rec.select(plain_arm, run.prompt) or rec.select(plain_arm, run.prompt, concurrency=run.concurrency) \
        if plain_arm and greedy else []
    if plain_arm and ref_runs:
        ref = median_run(ref_runs)
        left = departs(text, ref.events.text, rec.arm(plain_arm).label)
        found += (left,) if left else ()
    return found


def recorded_arm_pane(rec: Recording, arm: str, prompt: str, repeat: int | None = None) -> Pane:
    """The pane of one recorded arm on one prompt: the given repeat, or the median-rate one (the replay page, the
    HTML export and the video all pick it here). LookupError names what is missing and what there is."""
    name = Path(rec.path).name
    if arm not in (known := [a.id for a in rec.arms]):
        raise LookupError(f"no arm {arm!r} in {name}: it has {', '.join(known)}")
    if prompt not in (prompts := [p.id for p in rec.prompts]):
        raise LookupError(f"no prompt {prompt!r} in {name}: it has {', '.join(prompts)}")
    if repeat is None:
        return recorded_pane(rec, arm, median_repeat(rec, arm, prompt))
    runs = rec.select(arm, prompt)
    run = next((r for r in runs if r.repeat == repeat), None)
    if run is None:
        raise LookupError(f"arm {arm!r} has no finished repeat {repeat} of prompt {prompt!r} "
                          f"(repeats: {', '.join(str(r) for r in sorted({r.repeat for r in runs})) or 'none'})")
    return recorded_pane(rec, arm, run)


def simulate_events(tok_s: float, ttft_s: float, alpha: float, gamma: int, tokens: int, seed: int = 0) -> list[Event]:
    """Chunks of a simulated speculative arm.

    Each verification step emits 1 + (accepted drafts) tokens, each draft accepted
    with probability alpha until the first rejection, at most gamma. Step length is
    fixed so the long-run decode rate equals tok_s. Seeded: same inputs, same events.
    """
    if tok_s <= 0 or tokens <= 0 or not 0 <= alpha <= 1 or gamma < 0 or ttft_s < 0:
        raise ValueError("need tok_s > 0, tokens > 0, 0 <= alpha <= 1, gamma >= 0, ttft_s >= 0")
    mean_tau = sum(alpha**i for i in range(gamma + 1))
    step_us = mean_tau / tok_s * 1_000_000
    rng = random.Random(seed)
    events = [Event(round(ttft_s * 1_000_000), 1, SIM_TOKEN)]
    emitted, step = 1, 0
    while emitted < tokens:
        step += 1
        tau = 1
        while tau <= gamma and rng.random() < alpha:
            tau += 1
        tau = min(tau, tokens - emitted)
        events.append(Event(events[0].t_us + round(step * step_us), tau, SIM_TOKEN * tau))
        emitted += tau
    return events


def simulated_pane(label: str, tok_s: float, ttft_s: float, alpha: float, gamma: int, tokens: int,
                   seed: int = 0) -> Pane:
    params = {"tok_s": f"{tok_s:g}", "ttft_s": f"{ttft_s:g}", "alpha": f"{alpha:g}", "gamma": str(gamma),
              "tokens": str(tokens)}
    return Pane(key=f"sim/{label}/{tok_s:g}/{ttft_s:g}/{alpha:g}/{gamma}/{tokens}/{seed}", label=label,
                subtitle="", kind="simulated",
                track=make_track(simulate_events(tok_s, ttft_s, alpha, gamma, tokens, seed), join_bursts=False),
                details=params)


def median_rate(runs: list[Run]) -> float | None:
    """The decode rate of the median run (median_run): the rate the replay shows for these runs."""
    rated = [r for r in runs if r.decode_rate]
    return median_run(rated).decode_rate if rated else None
