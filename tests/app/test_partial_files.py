"""Every page that reads recordings, fed every bundled recording in each shape a file can have at some moment:
header only (its first seconds of recording), one arm (the recorder still on the first arm), renamed arms (a
copy whose arm ids differ from the names a page looks for), truncated (cut mid-line) and damaged (a bad line).
A page shows an empty state or the file's one-line problem for what it lacks, never the generic error panel
(under tests the shell raises instead: SPECREPLAY_RAISE, tests/conftest.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.apptest_helpers import open_page
from tests.browser_fixtures import ROOT

PAGES = ("home", "replay", "acceptance", "concurrency", "ladder", "roofline")
KINDS = ("header_only", "one_arm", "renamed_arms", "truncated", "damaged")


def _renamed(line: dict) -> dict:
    if line.get("type") == "header":
        arms = [{**a, "id": f"r-{a['id']}", **({"baseline": f"r-{a['baseline']}"} if a.get("baseline") else {})}
                for a in line["arms"]]
        return {**line, "arms": arms}
    return {**line, "arm": f"r-{line['arm']}"}


def variant(kind: str, text: str) -> str:
    """The recording `text` as it looks in the shape `kind`."""
    lines = text.splitlines()
    if kind == "header_only":
        return lines[0] + "\n"
    if kind == "one_arm":
        first = json.loads(lines[0])["arms"][0]["id"]
        return "\n".join([lines[0], *(x for x in lines[1:] if json.loads(x).get("arm") == first)]) + "\n"
    if kind == "renamed_arms":
        return "".join(json.dumps(_renamed(json.loads(x))) + "\n" for x in lines)
    if kind == "truncated":
        half = max(len(lines) // 2, 1)
        return "\n".join(lines[:half]) + "\n" + lines[half if half < len(lines) else 0][:40]
    assert kind == "damaged"
    return "\n".join([lines[0], "{not json", *lines[1:]]) + "\n"


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for kind in KINDS:
        folder = tmp_path_factory.mktemp(kind)
        for path in (ROOT / "recordings").glob("*.jsonl"):
            (folder / path.name).write_text(variant(kind, path.read_text(encoding="utf-8")), encoding="utf-8")
        out[kind] = folder
    return out


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("view", PAGES)
def test_every_page_survives_every_partial_file(folders: dict[str, Path], kind: str, view: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(folders[kind]))
    at = open_page(view, "en", timeout=120)
    assert not at.exception, [e.value for e in at.exception]


@pytest.mark.parametrize("view", ["concurrency", "roofline"])
def test_a_header_only_27b_sweep_says_what_is_missing(folders: dict[str, Path], view: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(folders["header_only"]))
    at = open_page(view, "en", timeout=120)
    assert any("timing-only-27b-h200-ladder-sweep.jsonl` has nothing to compare yet" in i.value for i in at.info)
