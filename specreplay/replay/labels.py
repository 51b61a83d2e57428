"""Pane labels that lead with what differs between the arms ("bf16" rather than "Qwen2.5-7B-shaped bf16 · …").

Four arms of one model often share a long prefix ("Qwen2.5-7B-shaped …"), and a narrow pane cut its label off exactly
where the arms differ. The short label puts the differing words first and keeps the shared words after a "·"; the
full label stays on hover/focus and in the video's legend.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from specreplay.words import arm_label, word

if TYPE_CHECKING:
    from specreplay.replay.panes import Pane

SHARED = "…"
SHORT = 24  # labels this short fit a pane whole: left as they are


def _common_prefix(rows: list[list[str]]) -> int:
    n = 0
    while all(len(r) > n for r in rows) and len({r[n] for r in rows}) == 1:
        n += 1
    return n


ASIDE = re.compile(r"\s*\([^()]*\)")  # "(16-bit weights, 4-bit values)": kept for hover, left out of the short label
NUMBER = re.compile(r"^[\d.]+[×x%]?,?$")


def reference_name(labels: list[str], ref: int) -> str:
    """What "×2.05 vs …" calls the reference pane (player and video): the first part of its label that not every
    label has, without its aside ("bf16", not the model all the arms run); its first part where every part is shared."""
    parts = labels[ref].split(" · ")
    own = next((p for p in parts if not all(p in label.split(" · ") for label in labels)), parts[0])
    return ASIDE.sub("", own).strip() or own


def distinct_labels(labels: list[str]) -> list[str]:
    """Each label with its differing words first, then the words every label shares (prefix, then suffix);
    asides in parentheses are left out (the full label shows on hover and focus) unless they alone tell two
    labels apart.

    Labels that share nothing, a single label, or labels that all fit a pane (≤ SHORT characters) come back
    unchanged; so does a label whose differing part would be empty (it equals the shared part)."""
    if len(labels) < 2 or len(set(labels)) < 2 or max(map(len, labels)) <= SHORT:
        return list(labels)
    bare = [ASIDE.sub("", label) for label in labels]
    rows = [b.split() for b in (bare if len(set(bare)) == len(set(labels)) else labels)]
    head = _common_prefix(rows)
    tail = _common_prefix([r[head:][::-1] for r in rows])
    if head == 0 and tail == 0:
        return list(labels)
    owns = [words[head:len(words) - tail] for words in rows]
    owns = _within_groups([_added_first(own, owns) for own in owns])
    out = []
    for label, words, own in zip(labels, rows, owns):
        shared = words[:head] + ([SHARED] if head and tail else []) + (words[len(words) - tail:] if tail else [])
        own_text = _tidy(" ".join(own)) or label
        out.append(own_text if not own else f"{own_text} · {_tidy(' '.join(shared))}")
    return out


def _tidy(text: str) -> str:
    """No comma before a "·", no "·" twice in a row, none at either end."""
    text = re.sub(r"\s*,\s*(·|$)", r" \1", text)
    text = re.sub(r"·(\s*·)+", "·", text)
    return text.strip(" ·,")


def _added_first(own: list[str], owns: list[list[str]]) -> list[str]:
    """An arm that adds to another ("Q4_K_M 4-bit + 0.5B draft model" beside "Q4_K_M 4-bit") leads with what it adds:
    "+ 0.5B draft model · Q4_K_M 4-bit". The base is the longest other label part it starts with."""
    bases = [o for o in owns if 0 < len(o) < len(own) and own[:len(o)] == o]
    if not bases:
        return own
    base = max(bases, key=len)
    return [*own[len(base):], "·", *base]


def _within_groups(owns: list[list[str]]) -> list[list[str]]:
    """First parts (up to a "·") that still share their first words ("+ DFlash drafter K=7, acceptance 2.2", "… 2.5")
    lead with the words that tell them apart, a lone number with its words back to the comma before it:
    "acceptance 2.2 · + DFlash drafter K=7"."""
    firsts = [own[:own.index("·")] if "·" in own else own for own in owns]
    out = []
    for own, first in zip(owns, firsts):
        group = [f for f in firsts if f[:1] == first[:1] and f]
        head = _common_prefix(group)
        if len({tuple(f) for f in group}) < 2 or head < 2:
            out.append(own)
            continue
        end = len(first) - _common_prefix([f[head:][::-1] for f in group])
        lead = head
        if all(NUMBER.match(w) for w in first[head:end]):
            while lead > 1 and not first[lead - 1].endswith(","):
                lead -= 1
        out.append([*first[lead:end], "·", *first[:lead], *first[end:], *own[len(first):]])
    return out


def shared_tail(labels: list[str]) -> tuple[list[str], str]:
    """Short labels (pane_labels) without the last parts every one of them ends in, and those parts: the model (and
    kind, machine) all arms share ("Qwen2.5-Coder-1.5B", "timing only · H200"), said once in a header instead of in
    every narrow cell. Nothing is taken from a single label, and every label keeps its first part."""
    rows = [label.split(" · ") for label in labels]
    if len(rows) < 2:
        return list(labels), ""
    tail = _common_prefix([r[:0:-1] for r in rows])  # reversed, the first part never counted
    if not tail:
        return list(labels), ""
    return [" · ".join(r[:-tail]) for r in rows], " · ".join(rows[0][-tail:])


def titles(labels: list[str]) -> list[str]:
    """What a narrow pane's title says (the video's four panes): the short labels without the words every one
    shares (shared_tail: the model, which the subtitle names), a drafter read after its base ("+ 0.5B draft model
    K=4 · F16" as "F16 + 0.5B draft model K=4"), so two drafters on two targets differ in their first word."""
    owns = shared_tail(labels)[0]
    parts = [own.split(" · ") for own in owns]
    return [f"{p[1]} {p[0]}" if len(p) == 2 and p[0].startswith("+ ") else own for p, own in zip(parts, owns)]


def pane_labels(panes: list[Pane], lang: str) -> list[str]:
    """What each pane's label shows: a concurrency replay's level first ("64 concurrent requests · …"), then the
    label's differing words (distinct_labels), its terms in Korean on a Korean page (words.arm_label). The player
    and the video both call this."""
    shorts = distinct_labels([p.label for p in panes])
    return [(word("level", lang).format(n=p.level) + " · " if p.level else "") + arm_label(s, lang)
            for p, s in zip(panes, shorts)]
