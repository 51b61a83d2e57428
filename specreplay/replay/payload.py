"""The browser player's input: a list of Panes turned into plain JSON.

Each pane carries its chunks as three parallel arrays (t_us, n, text) so the
player applies the same visible-at-t rule as specreplay.replay.timeline; numbers that
only make sense for the whole run (final decode rate, speedup over the reference
arm, specreplay.replay.speedup) are computed here once, so the player and the video show
the same values. Labels lead with what differs between the arms (specreplay.replay.labels),
the full label rides along for hover and focus.
"""

from __future__ import annotations

from typing import Any

from specreplay.languages import LANGUAGES, Lang
from specreplay.replay.details import details, subtitle
from specreplay.replay.labels import pane_labels, reference_name
from specreplay.replay.panes import Pane
from specreplay.replay.playback import SPEEDS
from specreplay.replay.speedup import speedups
from specreplay.replay.text_checks import length
from specreplay.replay.timeline import Track, decode_rate, first_token_us
from specreplay.words import PLAYER_KEYS, arm_label, words

TAIL_US = 500_000  # the clock runs a little past the last chunk so every pane is seen finished


def pane_warnings(panes: list[Pane], reference: int | None, lang: str) -> list[list[str]]:
    """Each pane's engine defect behind its speed, its stored text warnings, and a token count that differs from the
    reference pane's."""
    ref = panes[reference] if reference is not None else None
    out = []
    for p in panes:
        found = list(p.warnings)
        if ref is not None and p is not ref and p.counts == ref.counts == "tokens" and p.kind != "simulated" \
                and ref.kind != "simulated" and (w := length(p.track.tokens, ref.track.tokens)):
            found.append(w)
        # the defect first: a video frame has room for two lines of warnings
        out.append(([p.defect.warning(lang)] if p.defect else []) + [w.text(lang) for w in found])
    return out


def _system(track: Track | None) -> dict[str, list[int]] | None:
    """A level's merged requests: times and tokens only (the player shows their running total tok/s)."""
    return None if track is None else {"t_us": list(track.t_us), "n": list(track.n)}


def pane_payload(pane: Pane, ratio: float | None, short: str, warnings: list[str], lang: Lang) -> dict[str, Any]:
    track = pane.track
    return {
        "key": pane.key,
        "label": short,
        "full_label": arm_label(pane.label, lang),
        "subtitle": subtitle(pane, lang),
        "kind": pane.kind,
        "details": details(pane, lang),
        "t_us": list(track.t_us),
        "n": list(track.n),
        "text": list(track.text),
        "tokens": track.tokens,
        "end_us": track.end_us,
        "ttft_us": first_token_us(track),
        "rate": decode_rate(track),
        "ratio": ratio,
        "counts": pane.counts,
        "warnings": warnings,
        # the defect's warning line links to its fix wherever the surface can (player, export)
        "defect": {"text": pane.defect.warning(lang), "href": pane.defect.link} if pane.defect else None,
        "level": pane.level,
        "system": _system(pane.system),
    }


def player_payload(panes: list[Pane], *, speed: float = 1.0, lang: Lang = LANGUAGES[0],
                   reference: int | None = None) -> dict[str, Any]:
    """Everything the player needs; the clock runs from 0 to duration_us. `reference` picks the speedup's reference
    pane (default: specreplay.replay.speedup.reference_index)."""
    if speed not in SPEEDS:
        raise ValueError(f"speed must be one of {SPEEDS}, got {speed}")
    ref, ratios = speedups(panes, reference)
    shorts = pane_labels(panes, lang)
    warnings = pane_warnings(panes, ref, lang)
    end = max((p.track.end_us for p in panes), default=0)
    return {
        "lang": lang,
        "speed": speed,
        "speeds": list(SPEEDS),
        "duration_us": end + TAIL_US,
        "labels": words(PLAYER_KEYS, lang),
        "reference": ref,
        "reference_name": "" if ref is None else reference_name(shorts, ref),
        "panes": [pane_payload(p, r, s, w, lang) for p, r, s, w in zip(panes, ratios, shorts, warnings)],
    }
