"""The replay page's arms: recorded arms of a recording, and simulated arms (presets or custom).

An arm is named by one token, the same in the widget and in the URL's ?arms=
(comma-separated): a recorded arm's id, `sim:<preset>` or
`sim:<tok/s>/<TTFT s>/<α>/<γ>/<tokens>`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from specreplay.quoted.article_tables import cell
from specreplay.recording.format import RESERVED_ARM_PREFIX, Recording
from specreplay.replay.panes import Pane, simulated_pane

SIM_PREFIX = RESERVED_ARM_PREFIX  # the loader refuses recorded arms named so
MAX_ARMS = 4
MAX_SIM_TOKENS = 5000
MAX_SIM_TOK_S = 5000.0  # the custom-arm form's limits; a URL may not exceed them either
MIN_SIM_TOK_S = 1.0  # below it a step takes longer than any replay (sim:1e-310/… overflowed the clock)
MAX_SIM_TTFT_S = 30.0
MAX_URL_ARMS = 16  # ?arms= entries read from a link; a page shows at most MAX_ARMS


@dataclass(frozen=True)
class SimSpec:
    tok_s: float
    ttft_s: float
    alpha: float
    gamma: int
    tokens: int

    def token(self) -> str:
        return f"{SIM_PREFIX}{self.tok_s:g}/{self.ttft_s:g}/{self.alpha:g}/{self.gamma}/{self.tokens}"


@dataclass(frozen=True)
class Preset:
    label: str
    spec: SimSpec


# Article 000's ladder table (Qwen3.8-27B, one B200, medians of 3 repeats) and its TTFTs: each preset's decode rate
# and TTFT are read from its rows of assets/articles_measured.csv (tables ladder_overall and ttft), not copied here.
# α for the drafter is our assumption: 0.72 with γ=7 gives a mean block of ~3.3 tokens, between the
# article's prose (2.2–2.5) and code (5.3–5.6) acceptance lengths. Without a drafter every chunk is one token.
# The pane's hover says so (the `sim_source` words, specreplay.replay.details).
PRESET_TOKENS = 600


@dataclass(frozen=True)
class PresetRows:
    """Which article rows a preset's numbers come from, and what we assume on top."""

    label: str
    ladder_row: str  # series of table ladder_overall: decode tok/s
    ttft_row: str  # series of table ttft
    alpha: float = 0.0  # assumed, never quoted
    gamma: int = 0


PRESETS: dict[str, PresetRows] = {
    "p000-bf16": PresetRows("Qwen3.8-27B bf16", "① 원본", "① 원본"),
    "p000-nvfp4": PresetRows("Qwen3.8-27B NVFP4", "② 양자화", "② 양자화"),
    "p000-dflash2": PresetRows("NVFP4 + DFlash2 (K=7)", "③ 드래프터", "드래프터 켬", 0.72, 7),
}


@cache
def preset(name: str) -> Preset:
    """A simulated preset with its article numbers; KeyError for an unknown name."""
    rows = PRESETS[name]
    tok_s = cell("ladder_overall", rows.ladder_row, "decode_rate").value
    ttft_s = cell("ttft", rows.ttft_row, "ttft").value
    assert tok_s is not None and ttft_s is not None, f"preset {name}: its article cells are empty"
    return Preset(rows.label, SimSpec(tok_s, ttft_s, rows.alpha, rows.gamma, PRESET_TOKENS))


def preset_token(name: str) -> str:
    return SIM_PREFIX + name


def is_sim(token: str) -> bool:
    return token.startswith(SIM_PREFIX)


def parse_sim(token: str) -> SimSpec:
    """A custom simulated arm from its token; ValueError says which part is wrong."""
    parts = token.removeprefix(SIM_PREFIX).split("/")
    names = ("tok/s", "TTFT", "α", "γ", "tokens")
    if len(parts) != len(names):
        raise ValueError(f"simulated arm {token[:60]!r}: expected sim:tok_s/ttft_s/alpha/gamma/tokens")
    try:
        spec = SimSpec(float(parts[0]), float(parts[1]), float(parts[2]), int(parts[3]), int(parts[4]))
    except ValueError:
        raise ValueError(f"simulated arm {token[:60]!r}: every part must be a number (γ and tokens whole)") from None
    checks = ((MIN_SIM_TOK_S <= spec.tok_s <= MAX_SIM_TOK_S, f"tok/s must be {MIN_SIM_TOK_S:g}–{MAX_SIM_TOK_S:g}"),
              (0 <= spec.ttft_s <= MAX_SIM_TTFT_S, f"TTFT must be 0–{MAX_SIM_TTFT_S:g} s"),
              (0 <= spec.alpha <= 1, "α must be between 0 and 1"), (0 <= spec.gamma <= 16, "γ must be 0–16"),
              (0 < spec.tokens <= MAX_SIM_TOKENS, f"tokens must be 1–{MAX_SIM_TOKENS}"))
    for ok, problem in checks:
        if not ok:
            raise ValueError(f"simulated arm {token[:60]!r}: {problem}")
    return spec


def sim_pane(token: str, sim_word: str) -> Pane:
    """A simulated pane for a preset or custom token; sim_word ('시뮬레이션'/'simulated') goes in its label."""
    name = token.removeprefix(SIM_PREFIX)
    known = preset(name) if name in PRESETS else None
    spec = known.spec if known else parse_sim(token)
    label = known.label if known else f"{spec.tok_s:g} tok/s"
    pane = simulated_pane(f"{label} ({sim_word})", spec.tok_s, spec.ttft_s, spec.alpha, spec.gamma, spec.tokens)
    return replace(pane, details={**pane.details, "source": "article_000" if known else "custom"})


def sim_label(token: str, sim_word: str) -> str:
    name = token.removeprefix(SIM_PREFIX)
    if name in PRESETS:
        return f"{preset(name).label} · {preset(name).spec.tok_s:g} tok/s ({sim_word})"
    spec = parse_sim(token)
    return f"{spec.tok_s:g} tok/s · TTFT {spec.ttft_s:g} s · α {spec.alpha:g} · γ {spec.gamma} ({sim_word})"


def prompts_with_runs(rec: Recording) -> list[str]:
    """Prompt ids that at least one arm finished (single stream, not a warm-up), in header order."""
    have = {r.prompt for r in rec.select()}
    return [p.id for p in rec.prompts if p.id in have]


def repeats(rec: Recording, arms: list[str], prompt: str) -> list[int]:
    """Repeat numbers every chosen recorded arm has for this prompt."""
    sets = [{r.repeat for r in rec.select(a, prompt)} for a in arms]
    return sorted(set.intersection(*sets)) if sets else []
