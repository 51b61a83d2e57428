"""Warnings about a pane's text: degenerate output, and output that is not like-for-like with its reference.

Detected from the recorded text alone and stored with the pane (`Pane.warnings`), so the player, the video and the
HTML export show the same warning with its reason:

- **repeats**: one word n-gram (n = 1–4) repeated at least MIN_REPEATS times and covering at least REPEAT_SHARE of
  the words ("aut aut aut …");
- **turn**: a line that is only a chat-template role name (system / user / assistant) or a special token such as
  `<|im_start|>`: the model ran past its answer (the recorder forces the output length) and started a new turn;
- **departs**: on a greedy prompt, a speculative arm's text leaves the text of the same weights without
  speculation (correct speculative decoding never changes greedy text);
- **length**: the pane produced a different number of tokens than the reference pane (the speedup would compare
  answers of different lengths).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from specreplay.words import arm_label, word

MIN_REPEATS = 8
REPEAT_SHARE = 0.3
ROLE_LINE = re.compile(r"^(?:system|user|assistant)$|<\|(?:im_start|im_end|endoftext|eot_id|start_header_id)\|>",
                       re.MULTILINE)


@dataclass(frozen=True)
class TextWarning:
    key: str  # repeats, turn, departs, length
    params: tuple[tuple[str, str], ...] = ()

    def text(self, lang: str) -> str:
        """In `lang`, the reference arm's (English) label in its words too."""
        return word(f"warn_{self.key}", lang).format(**{k: arm_label(v, lang) if k == "ref" else v
                                                         for k, v in self.params})


def repeats(text: str) -> TextWarning | None:
    words = text.split()
    for n in range(1, 5):
        grams = Counter(tuple(words[i:i + n]) for i in range(0, len(words) - n + 1))
        if not grams:
            break
        gram, count = grams.most_common(1)[0]
        if count >= MIN_REPEATS and count * n >= REPEAT_SHARE * len(words):
            shown = " ".join(gram)
            return TextWarning("repeats", (("x", shown[:40]), ("n", str(count))))
    return None


def turn(text: str) -> TextWarning | None:
    m = ROLE_LINE.search(text)
    return TextWarning("turn", (("x", m.group(0)), ("n", f"{m.start():,}"))) if m else None


def departs(text: str, reference: str, reference_label: str) -> TextWarning | None:
    """Where `text` first differs from `reference` (None if one is a prefix of the other)."""
    at = next((i for i, (a, b) in enumerate(zip(text, reference)) if a != b), None)
    if at is None:
        return None
    return TextWarning("departs", (("ref", reference_label), ("n", f"{at:,}")))


def length(tokens: int, reference_tokens: int) -> TextWarning | None:
    if tokens == reference_tokens:
        return None
    return TextWarning("length", (("n", f"{tokens:,}"), ("m", f"{reference_tokens:,}")))


def degenerate(text: str) -> tuple[TextWarning, ...]:
    return tuple(w for w in (repeats(text), turn(text)) if w)
