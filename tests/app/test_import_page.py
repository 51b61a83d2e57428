"""The replay page on an imported recording (AppTest): badged imported, says what the file lacks, exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.test_replay_page import payload
from tests.apptest_helpers import open_page, shown
from tests.unit.test_importers import VLLM, import_cli


def test_the_replay_page_shows_an_import_as_imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert import_cli("vllm-bench", *map(str, VLLM), "-o", str(tmp_path / "imp.jsonl")).returncode == 0
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(tmp_path))
    at = open_page("replay", "en", recording="imp")
    assert not at.exception and not at.error
    captions = "\n".join(shown(str(c.value)) for c in at.caption)
    assert "Not in the source file (nothing was made up)" in captions and "Tokens per chunk" in captions
    badges = [shown(m.value) for m in at.markdown if m.value.startswith(":gray-badge[")]  # st.badge renders as markdown
    assert ":gray-badge[imported · vllm bench serve 0.32.0 · vllm-bench-baseline.json, vllm-bench-ngram.json]" in badges
    data = payload(at)
    assert [p["kind"] for p in data["panes"]] == ["imported", "imported"]
    assert [p["counts"] for p in data["panes"]] == ["tokens", "chunks"]
    download = at.get("download_button")  # the static export of what is on screen (tests/unit/test_export_html.py)
    assert [b.proto.label for b in download] == ["Download this replay as one HTML file"]
