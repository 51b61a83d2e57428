"""One recorded prompt as readers see it: its header entry typed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Prompt:
    id: str
    kind: str  # one of format.PROMPT_KINDS: chat, reasoning, long-prose, code, copy-quote
    text: str
    sampling: Mapping[str, Any]  # temperature, top_p, seed, max_tokens as sent (each typed at load, each optional)
    api: str  # the OpenAI endpoint it was sent to: "chat" or "completions"
    entry: Mapping[str, Any] = field(repr=False, compare=False)  # the object as written, for the recorder's resume

    @property
    def temperature(self) -> float | None:
        t = self.sampling.get("temperature")
        return None if t is None else float(t)

    @property
    def greedy(self) -> bool:
        """Temperature 0 or unset: the same weights give the same text."""
        return not self.temperature

    @staticmethod
    def of(entry: Mapping[str, Any]) -> Prompt:
        """From a header entry the loader has validated (specreplay.recording.format)."""
        return Prompt(id=entry["id"], kind=entry["kind"], text=entry["text"], sampling=entry.get("sampling") or {},
                      api=entry.get("api") or "chat", entry=entry)
