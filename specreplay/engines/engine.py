"""What the recorder knows about one kind of server (specreplay/engines/<kind>.py fills one in), and the names it
stores every engine's /metrics counters under. Plain data and functions: the core never talks HTTP (the recorder
does, in recorder/server.py), so a page can name an engine without the recorder's packages installed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

# The speculative-decoding counters, by the names recorder/metrics.py reads them as: verify steps (drafts), draft
# tokens, accepted tokens, accepted tokens per draft position; and the request queue for the idle check.
DRAFTS = "spec_decode_num_drafts_total"
DRAFT_TOKENS = "spec_decode_num_draft_tokens_total"
ACCEPTED = "spec_decode_num_accepted_tokens_total"
PER_POS = "spec_decode_num_accepted_tokens_per_pos_total"
SPEC_COUNTERS = (DRAFTS, DRAFT_TOKENS, ACCEPTED, PER_POS)
RUNNING = "running"
WAITING = "waiting"


@dataclass(frozen=True)
class Identity:
    """What a server says about itself at its info path."""

    version: str | None  # a release ("0.23.0") or a build ("b6980-c2e7f15"); None when it does not say
    name: str | None = None  # the engine's name when the server states it; None keeps the config's `engine`
    served: dict[str, Any] = field(default_factory=dict)  # facts about the served model beyond /v1/models


# (program, model, served name, host, port, the engine's own options) → the command line that serves it
ServeCommand = Callable[[str, str, str, str, int, Sequence[str]], list[str]]


def no_counters(chunk: dict[str, Any]) -> dict[str, Any] | None:
    """An engine that puts no per-request counters into its stream chunks."""
    return None


@dataclass(frozen=True)
class Engine:
    name: str  # as a recording stores it (arms[].engine.name) and a config's `engine` names it
    label: str  # as the pages show it
    info_path: str | None  # GET path that answers with the server's version or build (None: the server has none)
    identify: Callable[[dict[str, Any]], Identity]  # that answer (a JSON object) → what the server is
    metrics: dict[str, str]  # its /metrics names → the names above; a counter not listed here is not read
    health_path: str  # answers 200 once the server takes requests: the default [arms.launch] health_url
    serve_command: ServeCommand | None  # how to start one with what the recorder reads on; None: started elsewhere
    # a stream chunk's per-request counters and times, kept in the run's request_metrics (None: none in it)
    request_counters: Callable[[dict[str, Any]], dict[str, Any] | None] = no_counters
