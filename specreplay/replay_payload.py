"""The browser player's input: a list of Panes turned into plain JSON.

Each pane carries its chunks as three parallel arrays (t_us, n, text) so the
player applies the same visible-at-t rule as specreplay.timeline; numbers that
only make sense for the whole run (final decode rate, ratio to the slowest
arm) are computed here once, so the player and the video show the same values.
"""

from __future__ import annotations

from typing import Any, Literal

from specreplay.panes import Pane, finish_ratio
from specreplay.timeline import decode_rate, first_token_us

Lang = Literal["ko", "en"]
SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)
TAIL_US = 500_000  # the clock runs a little past the last chunk so every pane is seen finished

_LABELS: dict[str, tuple[str, str]] = {
    "play": ("재생", "Play"),
    "pause": ("일시정지", "Pause"),
    "restart": ("처음부터", "Restart"),
    "speed": ("속도", "Speed"),
    "bursts": ("한 번에 도착한 토큰 묶음 강조", "Highlight tokens that arrived together"),
    "tokens": ("토큰", "tokens"),
    "elapsed": ("경과", "elapsed"),
    "rate": ("디코드 tok/s", "decode tok/s"),
    "ttft": ("첫 토큰", "TTFT"),
    "waiting": ("첫 토큰 대기 중…", "waiting for the first token…"),
    "finished": ("완료", "finished"),
    "ratio": ("가장 느린 팔 대비 디코드 속도", "decode speed vs the slowest arm"),
    "keys": ("스페이스: 재생/정지 · ←/→: 1초 이동 · ↑/↓: 속도", "space: play/pause · ←/→: seek 1 s · ↑/↓: speed"),
    "measured": ("실측", "measured"),
    "simulated": ("시뮬레이션", "simulated"),
    "imported": ("가져옴", "imported"),
    "chunks": ("청크", "chunks"),
    "chunk_rate": ("청크/s", "chunks/s"),
}


def labels(lang: Lang) -> dict[str, str]:
    i = 1 if lang == "en" else 0
    return {key: pair[i] for key, pair in _LABELS.items()}


def pane_payload(pane: Pane, ratio: float | None) -> dict[str, Any]:
    tr = pane.track
    return {
        "key": pane.key,
        "label": pane.label,
        "subtitle": pane.subtitle,
        "kind": pane.kind,
        "details": pane.details,
        "t_us": list(tr.t_us),
        "n": list(tr.n),
        "text": list(tr.text),
        "tokens": tr.tokens,
        "end_us": tr.end_us,
        "ttft_us": first_token_us(tr),
        "rate": decode_rate(tr),
        "ratio": ratio,
        "counts": pane.counts,
    }


def player_payload(panes: list[Pane], *, speed: float = 1.0, lang: Lang = "ko") -> dict[str, Any]:
    """Everything the player needs; the clock runs from 0 to duration_us."""
    if speed not in SPEEDS:
        raise ValueError(f"speed must be one of {SPEEDS}, got {speed}")
    ratios = finish_ratio(panes)
    end = max((p.track.end_us for p in panes), default=0)
    return {
        "lang": lang,
        "speed": speed,
        "speeds": list(SPEEDS),
        "duration_us": end + TAIL_US,
        "labels": labels(lang),
        "panes": [pane_payload(p, r) for p, r in zip(panes, ratios)],
    }
