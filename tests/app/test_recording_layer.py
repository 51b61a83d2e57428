"""The recording layer as the pages use it: every file parsed at most once per process, a replay rerun parsing
nothing, and one replay selection for the page, `specreplay export-html` and `specreplay video`."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
import streamlit as st

from specreplay import cli
from specreplay.explain import acceptance_measured, chooser, sweep_series
from specreplay.recording import catalogue
from specreplay.recording import format as fmt
from specreplay.replay.arms import prompts_with_runs
from specreplay.replay.selection import selection
from specreplay.video import cli as video_cli
from specreplay.views.pages import PAGES
from tests.apptest_helpers import open_page
from tests.browser_fixtures import ROOT

BUNDLED = sorted((ROOT / "recordings").glob("*.jsonl"))
TIMEOUT = 900  # a limit, not a measurement: a cold tour parses every bundled file on a busy 2-core machine
PAYLOAD = re.compile(r'<script type="application/json" id="specreplay-payload">(.*?)</script>')


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Counter:
    """Full parses per file from here on (format.loads, which every full read goes through), with every cache that
    holds a parsed recording or a table made from one emptied first: the process is cold."""
    catalogue._parsed.cache_clear()
    catalogue._header.cache_clear()
    for cached in (sweep_series._recorded_sweeps, acceptance_measured._recorded_cells, chooser.rules):
        cached.cache_clear()
    st.cache_data.clear()
    counts: Counter = Counter()
    real = fmt.loads

    def counting(text: str, path: str = "<recording>", **kw):
        counts[Path(path).name] += 1
        return real(text, path, **kw)

    monkeypatch.setattr(fmt, "loads", counting)
    return counts


def test_a_cold_tour_of_every_page_parses_each_recording_at_most_once(parses: Counter) -> None:
    for name in (page.name for page in PAGES):
        at = open_page(name, "en", timeout=TIMEOUT)
        assert not at.exception, (name, at.exception)
    assert parses and max(parses.values()) == 1, parses


def test_a_replay_rerun_parses_nothing(parses: Counter) -> None:
    at = open_page("replay", "en", timeout=TIMEOUT)
    assert parses and not at.exception
    parses.clear()
    at.run()
    assert not at.exception and not parses


def _page_panes(name: str) -> list[str]:
    """The pane keys (arm/prompt/repeat) the replay page opens on for this recording."""
    at = open_page("replay", "en", timeout=TIMEOUT, recording=name)
    assert not at.exception, at.exception
    (iframe,) = at.get("iframe")
    m = PAYLOAD.search(iframe.proto.srcdoc)
    assert m, "no payload in the player"
    return [p["key"] for p in json.loads(m.group(1))["panes"]]


def _video(argv: list[str]) -> int:
    try:
        return video_cli.main(argv)
    except SystemExit as e:  # argparse's error(): the one-line problem, status 2
        return int(e.code or 0)


@pytest.mark.parametrize("path", BUNDLED, ids=[p.stem for p in BUNDLED])
def test_video_and_export_html_choose_what_the_page_chooses(path: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """On every bundled recording, with no choice given: the page's panes, the export's and the video's are one."""
    rendered: list[list[str]] = []
    real_render = video_cli.render

    def watched(panes, out, **kw):  # the real renderer, told which panes it drew
        rendered.append([p.key for p in panes])
        return real_render(panes, out, **kw)

    monkeypatch.setattr(video_cli, "render", watched)
    html, video = tmp_path / "replay.html", tmp_path / "replay.mp4"
    code = cli.main(["export-html", str(path), "-o", str(html)])
    video_code = _video([str(path), "--fps", "1", "--speed", "4", "--hold", "0", "-q", "-o", str(video)])
    err = capsys.readouterr().err
    if not prompts_with_runs(catalogue.recording(path, repair=True)):
        # only concurrency levels: the page replays those; a prompt replay is refused with the reason
        assert code == video_code == 2 and "no finished single-stream run" in err
        return
    assert code == 0 and video_code == 0, err
    page = _page_panes(path.stem)
    m = PAYLOAD.search(html.read_text(encoding="utf-8"))
    assert m and [p["key"] for p in json.loads(m.group(1))["panes"]] == page
    assert rendered == [page] and video.stat().st_size > 0
    sel = selection(catalogue.recording(path, repair=True))
    assert [f"{a}/{sel.prompt}" for a in sel.arms] == [k.rsplit("/", 1)[0] for k in page]


def test_the_headline_video_renders_by_default(tmp_path: Path) -> None:
    """`specreplay video recordings/qwen-coder-1.5b-llamacpp-cpu.jsonl --prompt code` rendered every arm (five), more
    than a video shows; it now takes the page's arms."""
    rec = ROOT / "recordings/qwen-coder-1.5b-llamacpp-cpu.jsonl"
    out = tmp_path / "code.mp4"
    assert _video([str(rec), "--prompt", "code", "--fps", "1", "--speed", "4", "--hold", "0", "-q",
                   "-o", str(out)]) == 0
    assert out.stat().st_size > 0
