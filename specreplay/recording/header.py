"""A recording's header (line 1) as its readers see it: typed fields, built once by the loader
(specreplay.recording.format).

Pages, summaries and the recorder's resume read these fields, never the raw line. Arms and prompts are typed too
(specreplay.recording.arm, .prompt), each with its facts computed once; `Recording.arm` / `prompt` look them up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from specreplay.recording.kinds import Kind, recorded

if TYPE_CHECKING:  # arm.py reads Imported from here
    from specreplay.recording.arm import Arm
    from specreplay.recording.prompt import Prompt


@dataclass(frozen=True)
class Machine:
    """Where it was recorded."""

    accelerator: str | None  # nvidia-smi's GPU line; None without an NVIDIA GPU
    line: str  # in a few words, as the pages show it: the description, else the accelerator, else CPU and cores


@dataclass(frozen=True)
class Mix:
    """One prompt mix of a sweep: its id and its prompts' ids."""

    id: str
    prompts: tuple[str, ...]


@dataclass(frozen=True)
class RecorderSettings:
    """The recorder's settings block; empty (all None) in files it did not write (imports)."""

    mode: str | None = None  # "cells" or "sweep"
    max_tokens: int | None = None
    rounds: int | None = None  # sweeps: requests per stream
    mixes: tuple[Mix, ...] = ()  # in recording order; () without [[mixes]]


@dataclass(frozen=True)
class Imported:
    """Where an imported recording (or one imported arm) came from, and what its file lacks."""

    tool: str | None = None
    version: str | None = None
    file: str | None = None
    imported_at: str | None = None
    lacks: tuple[str, ...] = ()  # plain sentences, shown as they are
    notes: tuple[str, ...] = ()

    @staticmethod
    def of(block: dict[str, Any] | None) -> Imported | None:
        """From an `imported` object the loader has validated (the header's or an arm's); None without one."""
        if block is None:
            return None
        return Imported(tool=block.get("tool"), version=block.get("version"), file=block.get("file"),
                        imported_at=block.get("imported_at"), lacks=tuple(block.get("lacks") or ()),
                        notes=tuple(block.get("notes") or ()))


@dataclass(frozen=True)
class Header:
    title: str
    created: str  # ISO 8601 UTC time the file was started
    machine: Machine
    arms: tuple[Arm, ...]
    prompts: tuple[Prompt, ...]
    timing_only: bool = False  # dummy weights or a set acceptance: real timings, text that is not the model's
    recorder: RecorderSettings = field(default_factory=RecorderSettings)
    imported: Imported | None = None
    # id -> arm / prompt, built once: a page's per-click look-ups stay independent of the number of arms and prompts
    _arm_ids: dict[str, Arm] = field(init=False, repr=False, compare=False)
    _prompt_ids: dict[str, Prompt] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_arm_ids", {a.id: a for a in self.arms})
        object.__setattr__(self, "_prompt_ids", {p.id: p for p in self.prompts})

    def arm(self, arm_id: str) -> Arm:
        """An arm by id; StopIteration for an unknown id."""
        return _by_id(self._arm_ids, arm_id)

    def prompt(self, prompt_id: str) -> Prompt:
        """A prompt by id; StopIteration for an unknown id."""
        return _by_id(self._prompt_ids, prompt_id)

    def kind(self, arm_id: str | None = None) -> Kind:
        """Which kind of number the figures are (specreplay.recording.kinds.recorded), the file's or one arm's: an arm at a set
        acceptance is timing only though its file's weights are real."""
        imported = self.imported is not None
        if arm_id is None:
            return recorded(self.timing_only or all(a.timing_only for a in self.arms), imported)
        arm = self.arm(arm_id)
        return recorded(arm.timing_only, imported or arm.imported is not None)

    @property
    def date(self) -> str:
        """The day it was started (YYYY-MM-DD), as source lines show it."""
        return self.created[:10]


Entry = TypeVar("Entry")


def _by_id(found: dict[str, Entry], key: str) -> Entry:
    if key not in found:
        raise StopIteration(key)
    return found[key]
