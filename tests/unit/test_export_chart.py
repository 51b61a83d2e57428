"""`specreplay export-chart`: every chart exports as one file under 1.5 MB that names no network resource, the same
inputs give the same bytes, the app's URL state opens the chart in that state, and bad input is one line."""

from __future__ import annotations

import base64
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from specreplay.embeds.cli import main
from specreplay.embeds.export import CHARTS, STATE_KEYS, export_chart
from specreplay.explain import axis_series, panels
from specreplay.multiplier import times
from specreplay.recording.wanted import newest

LIMIT = 1_500_000  # bytes: the 1.5 MB


def embedded_data(html: str) -> dict[str, Any]:
    """The chart's data as the browser inflates it."""
    b64 = re.search(r'<script type="application/octet-stream" id="chart-data">([^<]*)</script>', html)
    assert b64
    return json.loads(gzip.decompress(base64.b64decode(b64.group(1))))


def export_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "specreplay", "export-chart", *args], capture_output=True, text=True,
                          timeout=120)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """The command in this process (the recordings read once for every test): exit status and stderr."""
    code = main(list(args), prog="specreplay export-chart")
    return code, capsys.readouterr().err


@pytest.mark.parametrize("name", list(CHARTS))
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_each_chart_is_one_small_file_that_names_no_network_resource(name: str, lang: str) -> None:
    html = export_chart(name, lang)
    assert len(html.encode()) <= LIMIT
    assert "default-src 'none'" in html  # the policy: nothing may be fetched, whatever the page holds
    markup = re.sub(r"<script\b[^>]*>.*?</script>", "", html, flags=re.S)
    assert not re.search(r"<(link|img|iframe|object|embed|script)\b|\bsrc=", markup)  # no external resource
    # the only web addresses are links a reader may follow (the formula's paper), never loaded
    assert {u for u in re.findall(r"https?://[^\s\"'<>)]+", html)} <= {"https://arxiv.org/abs/2211.17192",
                                                                       "http://www.w3.org/2000/svg"}
    data = embedded_data(html)
    assert data["chart"] == name and set(data["state"]) >= set(STATE_KEYS[name])
    assert f'<html lang="{lang}">' in html


def test_the_same_inputs_write_the_same_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two processes (nothing cached between them), then every chart twice in one."""
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    for out in (a, b):
        got = export_cli("ladder", "--lang", "en", "--state", "our_machine=h200", "-o", str(out))
        assert got.returncode == 0, got.stderr
    assert a.read_bytes() == b.read_bytes()
    for name in CHARTS:
        for out in (a, b):
            assert run_cli(capsys, name, "--state", "alpha=0.7&level=16", "-o", str(out), "--force")[0] == 0
        assert a.read_bytes() == b.read_bytes(), name


def test_a_link_opens_the_chart_in_its_state() -> None:
    link = "http://127.0.0.1:8501/acceptance?alpha=0.55&gamma=14&c=0.45&lang=en&arms=x"
    assert embedded_data(export_chart("acceptance", "en", {"alpha": "0.55", "gamma": "14", "c": "0.45",
                                                             "lang": "en", "arms": "x"}))["state"] == {
        "alpha": 0.55, "gamma": 14, "c": 0.45}
    from specreplay.embeds.export import state_of
    assert state_of(link) == {"alpha": "0.55", "gamma": "14", "c": "0.45", "lang": "en", "arms": "x"}
    assert state_of("?level=16") == state_of("level=16") == {"level": "16"}
    state = embedded_data(export_chart("concurrency", "ko", {"family": "quant", "level": "16"}))["state"]
    assert state["family"] == "quant" and state["level"] == 16
    assert state["source"] in ("cpu", "002")  # the page's default source when it is one of quant's, else 002


@pytest.mark.parametrize("args, says", [
    (["acceptance", "--state", "gamma=4.5"], "gamma=4.5: give a whole number from 1 to 16"),
    (["acceptance", "--state", "alpha=2"], "alpha=2: out of range; give one from 0 to 1"),
    (["concurrency", "--state", "family=spec&source=002"], "source=002: not one of 001, 004, gpu, cpu"),
    (["concurrency", "--state", "level=3"], "level=3: not one of 1, 2, 4, 8, 16, 32, 64"),
    (["ladder", "--size", "wide"], "--size wide: give WIDTH or WIDTHxHEIGHT in pixels"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                                  says: str) -> None:
    out = tmp_path / "chart.html"
    code, err = run_cli(capsys, *args, "-o", str(out))
    assert code == 2 and not out.exists()
    assert err.startswith("specreplay export-chart: ") and says in err
    assert len(err.strip().splitlines()) == 1


def test_an_existing_file_is_kept_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "chart.html"
    out.write_text("mine")
    assert run_cli(capsys, "breakeven", "-o", str(out))[0] == 2 and out.read_text() == "mine"
    assert run_cli(capsys, "breakeven", "-o", str(out), "--force")[0] == 0 and "<!doctype html>" in out.read_text()


def test_the_concurrency_readout_is_the_pages() -> None:
    """Article 001's series: each level's text is the page's multiplier of the table's value, or 'not measured'."""
    data = embedded_data(export_chart("concurrency", "en"))
    rows = data["views"]["spec/001/throughput"]["rows"]
    table = axis_series.series("concurrency_speedup", "speedup")
    assert len(rows) == len(table)
    for row, s in zip(rows, table):
        for level, text in row["at"].items():
            v = s.value_at(int(level))
            assert text == (times(v) if v is not None else text), (s.key, level)
            assert v is not None or "not" in text


def test_the_exported_concurrency_chart_marks_the_defect_era_lines_as_the_page_does() -> None:
    view = embedded_data(export_chart("concurrency", "en"))["views"]["spec/gpu/throughput"]
    marked = [s for s in view["chart"]["series"] if s.get("marked") == "defect"]
    assert len(marked) == 2 and all(s["hollow"] and s["dash"] == "dash" for s in marked)
    assert "engine defect: left out" in [s["name"] for s in view["chart"]["series"]]
    rows = {r["name"]: r for r in view["rows"] if "draft" in r["name"]}
    assert all("engine defect: left out" in r["below"] and "engine defect" in r["at"]["1"] for r in rows.values())


def test_the_exported_acceptance_chart_keeps_its_axis_to_the_cells_as_the_page_does() -> None:
    """One copy prompt's acceptance length of ~37 is drawn off scale at the top, not stretching the axis."""
    from specreplay.charts import on_scale
    from specreplay.explain.acceptance_measured import recorded_cells

    etau = embedded_data(export_chart("acceptance", "en"))["etau"]
    lengths = [c.acceptance_length for c in recorded_cells()[0]]
    assert max(lengths) > 30 and etau["y"]["cells_cap"] == on_scale(lengths) < 10


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the bundled recordings as the folder the charts read (SPECREPLAY_RECORDINGS)."""
    recs = tmp_path / "recs"
    recs.mkdir()
    for path in (Path(__file__).parents[2] / "recordings").glob("*.jsonl"):
        (recs / path.name).write_bytes(path.read_bytes())
    monkeypatch.setenv("SPECREPLAY_RECORDINGS", str(recs))
    return recs


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    path.write_bytes({"header-only": data.split(b"\n", 1)[0] + b"\n", "truncated": data[:len(data) // 2],
                      "binary": b"\x00\x01binary" * 8, "empty": b""}[how])


@pytest.mark.parametrize("how", ["header-only", "truncated", "binary", "empty"])
def test_a_breakeven_map_without_its_data_is_refused_in_one_line(how: str, folder: Path, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A header-only file gave `list index out of range`; a damaged one is named with its loader's line."""
    breakeven = newest(panels.CPU_BREAKEVEN)
    _damage(folder / str(breakeven), how)
    out = tmp_path / "b.html"
    code, err = run_cli(capsys, "breakeven", "-o", str(out), "--lang", "en")
    assert code == 2 and not out.exists() and err.count("\n") == 1
    if how == "header-only":
        assert err == (f"specreplay export-chart: recordings/{breakeven} has nothing to map yet: no "
                       "finished level of a drafter arm and its target — a file still being recorded, or one whose "
                       "arms were renamed.\n")
    else:
        assert err.startswith(f"specreplay export-chart: {breakeven}"), err


@pytest.mark.parametrize(("name", "damaged", "how"), [
    ("acceptance", "smollm2-vllm-cpu.jsonl", "truncated"), ("acceptance", "smollm2-vllm-cpu.jsonl", "header-only"),
    ("concurrency", "smollm2-vllm-cpu-sweep.jsonl", "binary"), ("ladder", "qwen-coder-1.5b-llamacpp-cpu.jsonl", "empty"),
    ("ladder", "qwen-coder-1.5b-llamacpp-cpu.jsonl", "header-only")])
def test_a_chart_missing_a_recording_says_so_inside_and_exits_1(name: str, damaged: str, how: str, folder: Path,
                                                               tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """These charts used to say `wrote …` and exit 0 with the recording's data silently gone (the acceptance
    chart's payload 56 → 6 KB). A header-only file has no data to lose, except the ladder's own file."""
    _damage(folder / damaged, how)
    out = tmp_path / "c.html"
    code, err = run_cli(capsys, name, "-o", str(out), "--lang", "en")
    html = out.read_text(encoding="utf-8")
    if how == "header-only" and name != "ladder":
        assert code == 0 and err == "" and 'class="ex-skipped"' not in html
        return
    lines = err.splitlines()
    assert code == 1 and lines and all(line.startswith(f"specreplay export-chart: left out of {out} (the chart says "
                                                        "so at its top): ") for line in lines), err
    assert all(damaged in line for line in lines), err
    box = re.search(r'<div class="ex-skipped" role="alert"><strong>Missing from this chart</strong><ul>(.*?)</ul></div>',
                    html)
    assert box and damaged in box.group(1)
    assert html.index('class="ex-skipped"') < html.index('id="controls"')  # at the top, before the chart
