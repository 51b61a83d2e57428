"""Pane labels that lead with what differs between the arms ("bf16" rather than "Qwen2.5-7B-shaped bf16 · …").

Four arms of one model often share a long prefix ("Qwen2.5-7B-shaped …"), and a narrow pane cut its label off exactly
where the arms differ. The short label puts the differing words first and keeps the shared words after a "·"; the
full label stays on hover/focus and in the video's legend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from specreplay.words import word

if TYPE_CHECKING:
    from specreplay.panes import Pane

SHARED = "…"
SHORT = 24  # labels this short fit a pane whole: left as they are


def _common_prefix(rows: list[list[str]]) -> int:
    n = 0
    while all(len(r) > n for r in rows) and len({r[n] for r in rows}) == 1:
        n += 1
    return n


def distinct_labels(labels: list[str]) -> list[str]:
    """Each label with its differing words first, then the words every label shares (prefix, then suffix).

    Labels that share nothing, a single label, or labels that all fit a pane (≤ SHORT characters) come back
    unchanged; so does a label whose differing part would be empty (it equals the shared part)."""
    if len(labels) < 2 or len(set(labels)) < 2 or max(map(len, labels)) <= SHORT:
        return list(labels)
    rows = [label.split() for label in labels]
    head = _common_prefix(rows)
    tail = _common_prefix([r[head:][::-1] for r in rows])
    if head == 0 and tail == 0:
        return list(labels)
    owns = [words[head:len(words) - tail] for words in rows]
    out = []
    for label, words, own in zip(labels, rows, owns):
        shared = words[:head] + ([SHARED] if head and tail else []) + (words[len(words) - tail:] if tail else [])
        own = _added_first(own, owns)
        own_text = " ".join(own).strip(" ·,") or label
        out.append(own_text if not own else f"{own_text} · {' '.join(shared).strip(' ·,')}")
    return out


def _added_first(own: list[str], owns: list[list[str]]) -> list[str]:
    """An arm that adds to another ("Q4_K_M 4-bit + 0.5B draft model" beside "Q4_K_M 4-bit") leads with what it adds:
    "+ 0.5B draft model · Q4_K_M 4-bit". The base is the longest other label part it starts with."""
    bases = [o for o in owns if 0 < len(o) < len(own) and own[:len(o)] == o]
    if not bases:
        return own
    base = max(bases, key=len)
    return [*own[len(base):], "·", *base]


def pane_labels(panes: list[Pane], lang: str) -> list[str]:
    """What each pane's label shows: a concurrency replay's level first ("64 concurrent requests · …"), then the
    label's differing words (distinct_labels). The player and the video both call this."""
    shorts = distinct_labels([p.label for p in panes])
    return [(word("level", lang).format(n=p.level) + " · " if p.level else "") + s for p, s in zip(panes, shorts)]
