"""Which recording each panel shows is decided by the recordings' headers (specreplay.explain.panels through
specreplay.recording.wanted): the bundled files match the panels they showed when file names decided it, and a new
recording whose header says the same shows up with no code change."""

from __future__ import annotations

from pathlib import Path

import pytest

from specreplay.explain import drafter_sizes, panels
from specreplay.recording import catalogue, wanted
from specreplay.recording.format import Recording
from specreplay.recording.wanted import Wanted
from specreplay.resources import RECORDINGS
from tests.replay_recordings import add_copy, before_the_bundled

# The choice each panel made by file name before issue #40: the header queries must pick exactly these.
BEFORE = {
    "CPU_LADDER": ["qwen-coder-1.5b-llamacpp-cpu.jsonl"],
    "CPU_SWEEP": ["qwen-coder-1.5b-llamacpp-cpu-sweep.jsonl"],
    "CPU_BREAKEVEN": ["qwen-coder-1.5b-llamacpp-cpu-breakeven.jsonl"],
    "GPU_NGRAM_LADDER": ["qwen-coder-1.5b-vllm-h200.jsonl"],
    "GPU_DRAFT_LADDER": ["qwen-coder-1.5b-vllm-h200-q4-draft.jsonl"],
    "GPU_SWEEP": ["qwen-coder-1.5b-vllm-h200-sweep.jsonl"],
    "HEAD_CELLS": ["qwen-coder-1.5b-vllm026-eagle3.jsonl"],
    "HEAD_SWEEP": ["qwen-coder-1.5b-vllm026-eagle3-sweep.jsonl"],
    "SMOLLM2_GPU": ["smollm2-h200.jsonl"],
    "FULL_LADDER": ["timing-only-27b-h200-ladder.jsonl"],
    "FULL_LADDER_SWEEP": ["timing-only-27b-h200-ladder-sweep.jsonl"],
    "FULL_DRAFTER": ["timing-only-27b-h200-drafter.jsonl"],
    "FULL_DRAFTER_SWEEP": ["timing-only-27b-h200-drafter-sweep.jsonl"],
    "QUANT_TIMING_SWEEP": ["timing-only-qwen7b-shape-h200-sweep.jsonl"],
    "SIZES": ["timing-only-sizes-1.5b-h200.jsonl", "timing-only-sizes-7b-h200.jsonl",
              "timing-only-sizes-14b-h200.jsonl", "timing-only-sizes-27b-h200.jsonl",
              "timing-only-sizes-27b-drafters-h200.jsonl"],
}


def _queries() -> dict[str, Wanted]:
    return {name: w for name, w in vars(panels).items() if isinstance(w, Wanted)}


def test_every_panel_query_is_pinned_here() -> None:
    assert set(_queries()) == set(BEFORE) | {"SWEEPS"}


@pytest.mark.parametrize("name", sorted(BEFORE))
def test_each_query_picks_the_bundled_files_the_panel_showed(name: str) -> None:
    assert wanted.matching(_queries()[name]) == BEFORE[name]


def test_the_sweeps_are_the_files_named_so() -> None:
    """The Pareto list found sweeps by `…sweep…` in the name (the break-even file is a sweep without it)."""
    assert {p.name for p in RECORDINGS.glob("*sweep*.jsonl")} | set(BEFORE["CPU_BREAKEVEN"]) \
        == set(wanted.matching(panels.SWEEPS))


@pytest.fixture
def extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return before_the_bundled(tmp_path, monkeypatch)


def test_a_newer_recording_of_the_same_kind_replaces_the_old_on_its_panel(extra: Path) -> None:
    add_copy(extra, "qwen-coder-1.5b-llamacpp-cpu.jsonl", "my-cpu-ladder.jsonl")
    assert wanted.newest(panels.CPU_LADDER) == "my-cpu-ladder.jsonl"
    got = wanted.read(panels.CPU_LADDER)
    assert isinstance(got, Recording) and Path(got.path).name == "my-cpu-ladder.jsonl"
    assert wanted.newest(panels.CPU_SWEEP) == BEFORE["CPU_SWEEP"][0]  # the other panels keep theirs


def test_a_new_size_recording_joins_the_size_table_by_target_size(extra: Path) -> None:
    add_copy(extra, "timing-only-sizes-7b-h200.jsonl", "another-7b.jsonl")
    names = [name for name, _ in drafter_sizes.recordings()]
    assert names == [*BEFORE["SIZES"][:2], "another-7b.jsonl", *BEFORE["SIZES"][2:]]  # smallest target first


def test_a_file_whose_header_cannot_be_read_is_named_where_nothing_matches(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """It may be the recording a panel waits for: its problem is said, not an empty state."""
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    assert wanted.read(panels.CPU_LADDER) is None
    (tmp_path / "broken.jsonl").write_bytes(b"\x00\x01binary")
    got = wanted.read(panels.CPU_LADDER)
    assert isinstance(got, str) and got.startswith("broken.jsonl")
    assert wanted.matching(panels.CPU_LADDER) == []


@pytest.mark.parametrize(("query", "matches"), [
    (Wanted(), True), (Wanted(mode="cells"), True), (Wanted(mode="sweep"), False),
    (Wanted(engine="llama.cpp"), True), (Wanted(engine="vllm"), False),
    (Wanted(gpu=False), True), (Wanted(gpu=True), False),
    (Wanted(timing_only=False), True), (Wanted(timing_only=True), False),
    (Wanted(model="qwen2.5-coder-1.5b"), True), (Wanted(model="smollm2-135m"), False),
    (Wanted(some=(panels.quantized_ngram,)), True), (Wanted(some=(panels.dflash,)), False),
    (Wanted(no=(panels.size_study,)), True), (Wanted(no=(panels.quantized,)), False),
])
def test_each_header_fact(query: Wanted, matches: bool) -> None:
    assert query.matches(catalogue.header(RECORDINGS / BEFORE["CPU_LADDER"][0])) is matches
