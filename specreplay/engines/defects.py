"""Known engine defects that make an arm's figures say nothing about the method it ran.

One so far: vLLM 0.23.x gives a draft model (`speculative_config.method = "draft_model"`) no CUDA-graph dispatch
keys, so every drafter pass runs eagerly and a speculative step takes 43-79 ms where a plain step takes 2 ms
(docs/gpu.md). Upstream fixed it in vllm-project/vllm PR #47460; gpu/draft_graphs.py applies that change, and arms
recorded with it say so in their flags (`draft_graphs` containing "defect patched", read by `Arm`). Pages, the player, the video
and the export label such an arm's figures with the defect instead of showing them as a draft model's cost.

    defect = draft_graphs_defect(rec.arm("q4-draft"))   # None, or the defect's label and link
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from specreplay import languages
from specreplay.words import word

if TYPE_CHECKING:
    from specreplay.recording.arm import Arm


@dataclass(frozen=True)
class EngineDefect:
    key: str  # its words: its label at defects.<key>, its warning at words.warn_<key> (specreplay.languages)
    link: str  # where the fix is

    def text(self, lang: str) -> str:
        return languages.text(lang, f"defects.{self.key}")

    def markdown(self, lang: str) -> str:
        return f"[{self.text(lang)}]({self.link})"

    def warning(self, lang: str) -> str:
        """The line a replay pane, a video frame, an export and the summary show beside the arm's figures."""
        return word(f"warn_{self.key}", lang).format(defect=self.text(lang))


DRAFT_GRAPHS = EngineDefect("draft_graphs", "https://github.com/vllm-project/vllm/pull/47460")


def draft_graphs_defect(arm: Arm) -> EngineDefect | None:
    """DRAFT_GRAPHS when the arm is a vLLM 0.23.x draft-model arm served without the graph patch, else None.
    The engine is the arm's own (each arm's server reports its version)."""
    version = arm.engine.version or ""
    if not arm.draft_graphs_unpatched or not (version == "0.23" or version.startswith("0.23.")):
        return None
    return DRAFT_GRAPHS


def defect_lines(arms: Iterable[Arm]) -> list[str]:
    """The command-line summaries' footnotes (English, as the rest of their tables): one line per arm whose figures
    an engine defect bent, with the fix's address."""
    return [f"* {a.id}: {d.warning('en')} — {d.link}" for a in arms if (d := draft_graphs_defect(a))]
