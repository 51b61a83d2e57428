"""A recording dropped into the recordings folder shows on the panel its header says it belongs to, with no code
change (specreplay.explain.panels asks specreplay.recording.wanted; tests/unit/test_panels.py pins the bundled
choice)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.apptest_helpers import open_page
from tests.replay_recordings import add_copy, before_the_bundled


@pytest.fixture
def extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return before_the_bundled(tmp_path, monkeypatch)


def test_a_newer_trained_head_recording_is_the_start_pages_gpu_replay(extra: Path) -> None:
    add_copy(extra, "qwen-coder-1.5b-vllm026-eagle3.jsonl", "my-head-rerun.jsonl")
    at = open_page("home", "en", timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    queries = [p.proto.query_string for p in at.get("page_link")]
    assert any(q.startswith("recording=my-head-rerun&") for q in queries), queries
    assert not any("recording=qwen-coder-1.5b-vllm026-eagle3&" in q for q in queries)


def test_a_new_sweep_gets_a_pareto_front(extra: Path) -> None:
    add_copy(extra, "smollm2-h200-sweep-greedy.jsonl", "my-run.jsonl")  # no "sweep" in its name: its header says so
    at = open_page("concurrency", "en", timeout=120)
    assert "my-run.jsonl" in at.selectbox(key="pareto_recording").options
