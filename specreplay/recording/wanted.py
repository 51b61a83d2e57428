"""Which recording a panel shows, decided by the recordings' headers, never by their file names.

A panel says what it shows in header facts, and the recording folders answer from header lines alone
(specreplay.recording.catalogue.entries):

    CPU_LADDER = Wanted(mode="cells", engine="llama.cpp", gpu=False, timing_only=False, some=(quantized,))
    name = newest(CPU_LADDER)     # the newest file whose header says so ('….jsonl'), or None
    got = read(CPU_LADDER)        # that file parsed once: a Recording, its one-line problem, or None
    names = matching(SIZES)       # every such file, oldest first

So a new recording with the same facts shows on the panel with no code change: a panel of one file shows the
newest, a panel of several shows them all. A file whose header cannot be read matches nothing, but `read` names
its problem where nothing matches: it may be the file the panel waits for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from specreplay.recording import catalogue
from specreplay.recording.arm import Arm
from specreplay.recording.format import Recording
from specreplay.recording.header import Header

ArmTest = Callable[[Arm], bool]


@dataclass(frozen=True)
class Wanted:
    """A kind of recording, in its header's facts; a field left None holds either way."""

    mode: str | None = None  # the recorder's mode: "cells" or "sweep"
    engine: str | None = None  # every arm's engine (Engine.name: "vllm", "llama.cpp")
    gpu: bool | None = None  # recorded with an accelerator (machine.accelerator) or on the CPU
    timing_only: bool | None = None  # the header's timing_only: dummy weights or set acceptance lengths
    model: str | None = None  # every arm's model
    some: tuple[ArmTest, ...] = ()  # for each test, an arm that passes it
    no: tuple[ArmTest, ...] = ()  # for each test, no arm passes it

    def matches(self, header: Header) -> bool:
        arms = header.arms
        return ((self.mode is None or header.recorder.mode == self.mode)
                and (self.engine is None or all(a.engine.name == self.engine for a in arms))
                and (self.gpu is None or (header.machine.accelerator is not None) == self.gpu)
                and (self.timing_only is None or header.timing_only == self.timing_only)
                and (self.model is None or all(a.model == self.model for a in arms))
                and all(any(test(a) for a in arms) for test in self.some)
                and not any(test(a) for test in self.no for a in arms))


def matching(wanted: Wanted) -> list[str]:
    """The file names (….jsonl) of every recording in the folders that is `wanted`, oldest first."""
    found = [e for e in catalogue.entries() if e.header is not None and wanted.matches(e.header)]
    return [e.path.name for e in sorted(found, key=lambda e: (e.header.created if e.header else "", e.name))]


def newest(wanted: Wanted) -> str | None:
    """The newest `wanted` recording's file name; None while none is in the folders."""
    names = matching(wanted)
    return names[-1] if names else None


def read(wanted: Wanted) -> Recording | str | None:
    """The newest `wanted` recording, parsed once (catalogue.read): a Recording, or its one-line problem; where none
    matches, the problem of a file whose header cannot be read, else None (none is here)."""
    name = newest(wanted)
    if name is not None:
        return catalogue.read(name)
    return next((e.problem for e in catalogue.entries() if e.header is None), None)


def landed(wanted: Wanted) -> bool:
    """A `wanted` recording is in the folders and reads."""
    return isinstance(read(wanted), Recording)
