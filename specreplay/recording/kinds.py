"""The six kinds of number every figure is badged with, and the one rule for which kind a recorded figure is.

    recorded(timing_only=True, imported=False)  # 'timing_only'
"""

from __future__ import annotations

from typing import Literal

from specreplay import languages

Kind = Literal["measured", "timing_only", "quoted", "computed", "simulated", "imported"]
# The legend's order: ours first, then what others measured, then what no one measured.
KINDS: tuple[Kind, ...] = ("measured", "timing_only", "quoted", "computed", "simulated", "imported")


def recorded(timing_only: bool, imported: bool) -> Kind:
    """A recorded figure's kind: another tool's file is imported; dummy weights or an acceptance set by hand (the
    header's `timing_only`, or an arm's set acceptance: the typed Arm folds both into `timing_only`) give real
    timings of text that is not the model's, so timing only; anything else our recorder measured here."""
    if imported:
        return "imported"
    return "timing_only" if timing_only else "measured"


def kind_line(kind: Kind) -> str:
    """What a kind of number means, as one plain English line for the command-line summaries (the language files'
    `kinds` table without its Markdown)."""
    return languages.text("en", f"kinds.{kind}").replace("**", "")
