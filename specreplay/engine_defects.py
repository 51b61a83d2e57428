"""Known engine defects that make an arm's figures say nothing about the method it ran.

One so far: vLLM 0.23.x gives a draft model (`speculative_config.method = "draft_model"`) no CUDA-graph dispatch
keys, so every drafter pass runs eagerly and a speculative step takes 43-79 ms where a plain step takes 2 ms
(docs/gpu.md). Upstream fixed it in vllm-project/vllm PR #47460; gpu/draft_graphs.py applies that change, and arms
recorded with it say so in their flags (`draft_graphs` containing "defect patched"). Pages, the player, the video
and the export label such an arm's figures with the defect instead of showing them as a draft model's cost.

    defect = draft_graphs_defect(rec.header, "q4-draft")   # None, or the defect's label and link
"""

from __future__ import annotations

from dataclasses import dataclass

from specreplay.header import Header
from specreplay.words import word


@dataclass(frozen=True)
class EngineDefect:
    key: str  # its words: warn_<key> in specreplay.words
    label: tuple[str, str]  # Korean, English
    link: str  # where the fix is

    def text(self, lang: str) -> str:
        return self.label[1] if lang == "en" else self.label[0]

    def markdown(self, lang: str) -> str:
        return f"[{self.text(lang)}]({self.link})"

    def warning(self, lang: str) -> str:
        """The line a replay pane, a video frame, an export and the summary show beside the arm's figures."""
        return word(f"warn_{self.key}", lang).format(defect=self.text(lang))


DRAFT_GRAPHS = EngineDefect("draft_graphs", ("vLLM 0.23.0 결함 — 업스트림 PR #47460에서 수정",
                                             "vLLM 0.23.0 defect, fixed upstream in PR #47460"),
                            "https://github.com/vllm-project/vllm/pull/47460")
PATCHED = "defect patched"  # in flags.draft_graphs of arms served with gpu/draft_graphs.py


def draft_graphs_defect(header: Header, arm_id: str) -> EngineDefect | None:
    """DRAFT_GRAPHS when the arm is a vLLM 0.23.x draft-model arm served without the graph patch, else None.
    The engine is the arm's own block in the header (each arm's server reports its version)."""
    arm = next((a for a in header.arms if a["id"] == arm_id), None)
    if arm is None:
        return None
    engine = arm.get("engine") or {}
    version = str(engine.get("version") or "")
    flags = arm.get("flags") or {}
    method = (flags.get("speculative_config") or {}).get("method")
    if engine.get("name") != "vllm" or not (version == "0.23" or version.startswith("0.23.")):
        return None
    if method != "draft_model" or PATCHED in str(flags.get("draft_graphs") or ""):
        return None
    return DRAFT_GRAPHS


def defect_lines(header: Header) -> list[str]:
    """The command-line summaries' footnotes (English, as the rest of their tables): one line per arm whose figures
    an engine defect bent, with the fix's address."""
    return [f"* {a['id']}: {d.warning('en')} — {d.link}" for a in header.arms
            if (d := draft_graphs_defect(header, a["id"]))]
