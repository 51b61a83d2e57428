"""The engine's Prometheus /metrics: speculative-decoding counters and the request queue.

Each engine module (specreplay/engines/) maps its own names onto the ones read here: vLLM and llama.cpp's
llama-server (started with --metrics) export the same four speculative counters under their own prefix
(`vllm:` / `llamacpp:`): drafts (verify steps), draft tokens, accepted tokens, accepted per position. Counters
are summed over `engine` labels (one sample per vLLM engine core); only the `_total` series are read, so the
`_created` timestamps never count as values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from specreplay import engines
from specreplay.engines.engine import ACCEPTED, DRAFT_TOKENS, DRAFTS, PER_POS, RUNNING, WAITING

_LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?\s+(\S+)')
_POS = re.compile(r'position="(\d+)"')


@dataclass(frozen=True)
class Snapshot:
    running: float
    waiting: float
    drafts: int
    draft_tokens: int
    accepted: int
    per_position: tuple[int, ...]
    has_spec: bool  # the server exports speculative-decoding counters at all

    @property
    def busy(self) -> float:
        return self.running + self.waiting


def parse(text: str) -> Snapshot:
    names = {theirs: ours for engine in engines.ENGINES for theirs, ours in engine.metrics.items()}
    sums: dict[str, float] = {}
    pos: dict[int, float] = {}
    for line in text.splitlines():
        if not line or line[0] == "#":
            continue
        m = _LINE.match(line)
        if not m:
            continue
        name, labels, value = names.get(m.group(1)), m.group(3) or "", m.group(4)
        if name is None:
            continue
        try:
            v = float(value)
        except ValueError:
            continue
        if name == PER_POS:
            pm = _POS.search(labels)
            if pm:
                k = int(pm.group(1))
                pos[k] = pos.get(k, 0.0) + v
        else:
            sums[name] = sums.get(name, 0.0) + v
    per_pos = tuple(int(pos.get(k, 0)) for k in range(max(pos) + 1)) if pos else ()
    return Snapshot(
        running=sums.get(RUNNING, 0.0), waiting=sums.get(WAITING, 0.0),
        drafts=int(sums.get(DRAFTS, 0)), draft_tokens=int(sums.get(DRAFT_TOKENS, 0)),
        accepted=int(sums.get(ACCEPTED, 0)), per_position=per_pos, has_spec=DRAFTS in sums,
    )


def spec_delta(before: Snapshot, after: Snapshot) -> tuple[dict[str, object] | None, str | None]:
    """The run's (or level's) share of the counters, as the recording's `spec` object, and why it is None when
    it is: (None, None) without speculative decoding (callers also pass None for arms not configured to
    speculate: llama-server exports the counters, at 0, either way); (None, reason) when a counter went backwards between the
    two snapshots (the server restarted, or replicas behind a load balancer answered them), because a negative
    delta is not a measurement."""
    if not (before.has_spec and after.has_spec):
        return None, None
    width = max(len(before.per_position), len(after.per_position))
    b = before.per_position + (0,) * (width - len(before.per_position))
    a = after.per_position + (0,) * (width - len(after.per_position))
    spec: dict[str, Any] = {"drafts": after.drafts - before.drafts, "draft_tokens": after.draft_tokens - before.draft_tokens,
            "accepted": after.accepted - before.accepted, "per_position": [y - x for x, y in zip(b, a)]}
    if min(spec["drafts"], spec["draft_tokens"], spec["accepted"], *spec["per_position"]) < 0:
        return None, ("speculative counters went backwards between the /metrics snapshots before and after (the "
                      "server restarted, or different replicas answered): acceptance not measured here")
    return spec, None
