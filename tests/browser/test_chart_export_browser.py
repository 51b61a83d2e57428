"""The exported charts (`specreplay export-chart`) in Debian's chromium: each file is opened from file:// with every
request that is not file: or data: aborted (and counted), each control is moved, and the chart's numbers are read
off the page: they equal the Python formulas (the shared cases of assets/formula_cases.json) and the figures the
app shows for the same state. Then the same checks inside an <iframe> of a page served from another local port."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from specreplay import theory
from specreplay.charts import concurrency as concurrency_chart
from specreplay.embeds.export import CHARTS, export_chart
from specreplay.explain import acceptance_measured, breakeven, panels, real_ladder
from specreplay.multiplier import times
from specreplay.quoted import article_tables
from specreplay.recording import catalogue
from specreplay.recording.format import Recording
from specreplay.recording.wanted import newest
from specreplay.resources import ASSETS
from tests.browser_fixtures import LABELS_APART
from tests.local_server import free_port, local_server

# the bundled files these panels show, found by their headers (specreplay.explain.panels)
CPU_BREAKEVEN = newest(panels.CPU_BREAKEVEN)


CASES = json.loads((ASSETS / "formula_cases.json").read_text(encoding="utf-8"))["cases"]


@pytest.fixture(scope="module")
def charts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every chart exported once, in English, at the app's opening state."""
    folder = tmp_path_factory.mktemp("charts")
    for name in CHARTS:
        (folder / f"{name}.html").write_text(export_chart(name, "en"), encoding="utf-8")
    return folder


def guard(page, allowed: tuple[str, ...]) -> list[str]:
    """Abort every request whose URL does not start with one of `allowed`; returns the list of aborted URLs."""
    aborted: list[str] = []

    def route(r) -> None:
        if r.request.url.startswith(allowed):
            r.continue_()
        else:
            aborted.append(r.request.url)
            r.abort()

    page.context.route("**/*", route)
    return aborted


def opened(page, url: str) -> list[str]:
    aborted = guard(page, ("file:", "data:"))
    page.goto(url)
    page.wait_for_selector("#chart[data-ready='1']", timeout=30_000)
    return aborted


def move(where, name: str, value: object) -> None:
    """Set a control as a reader would: a range input is filled (input and change events), a select chosen."""
    control = where.locator(f"[data-control='{name}']")
    if control.evaluate("e => e.tagName") == "SELECT":
        control.select_option(str(value))
    else:
        control.fill(str(value))


def readout(where, name: str) -> str:
    return where.locator(f"[data-readout='{name}']").first.text_content()


def state(where) -> dict:
    return json.loads(where.locator("#chart").get_attribute("data-state"))


def table(where, name: str) -> list[list[str]]:
    rows = where.locator(f"table[data-table='{name}'] tr").all()
    return [[c.text_content() for c in row.locator("td").all()] for row in rows[1:]]


# ---------------------------------------------------------------- the checks, on a page or inside a frame


def check_acceptance(where) -> None:
    """Every shared case: the three numbers as the app prints them (f"{x:.2f}"), the two live charts' current
    points as the formulas give them, and the nearest measured cell as the page picks it."""
    cells, _ = acceptance_measured.recorded_cells()
    assert len(CASES) >= 20
    for k in CASES:
        a, g, c = k["alpha"], k["gamma"], k["c"]
        for name, value in (("alpha", a), ("gamma", g), ("c", c)):
            move(where, name, value)
        assert state(where) == {"alpha": a, "gamma": g, "c": c}
        assert readout(where, "expected_tokens") == f"{theory.expected_tokens(a, g):.2f}" == f"{k['expected_tokens']:.2f}"
        assert readout(where, "speedup") == f"{theory.speedup(a, g, c):.2f}×"
        assert readout(where, "compute") == f"{theory.compute_overhead(a, g, c):.2f}×"
        etau = json.loads(where.locator("#etau").get_attribute("data-current-ys"))
        gain = json.loads(where.locator("#gamma").get_attribute("data-current-ys"))
        assert etau == [round(k["expected_tokens"], 4)]
        assert gain == [round(k["speedup"], 4), round(k["compute"], 4)]
        near = acceptance_measured.nearest(cells, a, g)
        assert near is not None and where.locator("#etau").get_attribute("data-nearest") == near.id


def check_concurrency(where) -> None:
    """Every source and metric at every level: each series' value reads as the page's readout (its multiplier, or
    no number where it was not measured), and the chart's marker stands at the level."""
    checked = 0
    for family, sources in concurrency_chart.SOURCES.items():
        move(where, "family", family)
        for source in sources:
            move(where, "source", source)
            for metric in concurrency_chart.METRICS:
                move(where, "metric", metric)
                every = concurrency_chart.view(family, source, metric, "en").series
                for i, level in enumerate(concurrency_chart.LEVELS):
                    move(where, "level", i)
                    assert state(where) == {"family": family, "source": source, "metric": metric, "level": level}
                    assert where.locator("#level").get_attribute("data-current-x") == str(level)
                    rows = table(where, "readout")
                    assert len(rows) == len(every)
                    for row, s in zip(rows, every):
                        v = s.value_at(level)
                        assert row[2] == times(v) if v is not None else not row[2].endswith("×") or "(" in row[2]
                        checked += v is not None
    assert checked >= 20


def check_ladder(where) -> None:
    """Article 000's ladder for every prompt and ours for every machine, drafter and prompt: tok/s and both
    multiplier columns as the page computes them (article_tables.ladder, real_ladder.prompt_ladders)."""
    article = {"overall": article_tables.ladder("ladder_overall")}
    for w in article_tables.workloads("ladder_by_prompt"):
        article[w["workload_en"].split(" (")[0].strip().lower().replace(" ", "-")] = article_tables.ladder(
            "ladder_by_prompt", workload=w["workload"], series_names=["original", "quantized", "drafter"])
    for pid, steps in article.items():
        move(where, "prompt", pid)
        assert table(where, "article") == [[s.label_en, f"{s.value:g}", times(s.vs_previous), times(s.vs_first)]
                                           for s in steps]
    for machine, ladders in real_ladder.MACHINE_LADDERS.items():
        for drafter, (what, arms) in ladders.items():
            got = catalogue.read(str(newest(what)))
            if not isinstance(got, Recording):
                continue
            move(where, "our_machine", machine)
            move(where, "our_drafter", drafter)
            for pl in real_ladder.prompt_ladders(got, arms):
                move(where, "our_prompt", pl.prompt)
                rows = table(where, "ours")
                first = pl.rungs[0].rate
                assert [r[1:] for r in rows] == [
                    ["—" if r.rate is None else f"{round(r.rate, 1):g}", times(r.vs_previous),
                     times(r.rate / first if r.rate and first else None)] for r in pl.rungs]


def check_breakeven(where) -> None:
    """Every target and metric at every level: each cell's multiplier as the map's, and the level's reading of where
    the drafter passes 1.0 as the page's (Grid.break_even_length)."""
    got = catalogue.read(CPU_BREAKEVEN)
    assert isinstance(got, Recording)
    for g in breakeven.breakeven_grids(got):
        move(where, "be_target", g.target)
        for metric in ("throughput", "decode"):
            move(where, "be_metric", metric)
            z = g.throughput if metric == "throughput" else g.decode
            for j, level in enumerate(g.levels):
                move(where, "be_level", j)
                shown = where.locator(".ex-cell-text").all_text_contents()
                assert shown == [times(v) for row in z for v in row if v is not None]
                cross = g.break_even_length(level, metric)
                text = readout(where, "row")
                assert text.startswith(f"{level} streams") and (cross is None or f"L {cross[0]:g} and {cross[1]:g}" in text)


CHECKS = {"acceptance": check_acceptance, "concurrency": check_concurrency, "ladder": check_ladder,
          "breakeven": check_breakeven}


@pytest.mark.parametrize("name", list(CHARTS))
def test_each_exported_chart_from_file_offline(page, charts: Path, name: str) -> None:
    aborted = opened(page, (charts / f"{name}.html").as_uri())
    CHECKS[name](page)
    assert aborted == []


@pytest.fixture(scope="module")
def two_servers(charts: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The charts on one local port, a blog post embedding each in an <iframe> on another: (post URL, charts URL)."""
    posts = tmp_path_factory.mktemp("blog")
    ports = free_port(), free_port()
    urls = tuple(f"http://127.0.0.1:{p}" for p in ports)
    for name in CHARTS:
        (posts / f"{name}.html").write_text(
            f'<!doctype html><p>A blog post.</p><iframe src="{urls[1]}/{name}.html" title="{name}" width="100%" '
            'height="900" style="border:0"></iframe>', encoding="utf-8")
    with ExitStack() as stack:
        for port, folder in zip(ports, (posts, charts)):
            stack.enter_context(local_server(
                [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
                f"http://127.0.0.1:{port}/", "http.server", 30))
        yield urls[0], urls[1]


@pytest.mark.parametrize("name", list(CHARTS))
def test_each_exported_chart_inside_an_iframe_of_another_site(page, two_servers: tuple[str, str], name: str) -> None:
    post, site = two_servers
    aborted = guard(page, (f"{post}/{name}.html", f"{site}/{name}.html"))
    page.goto(f"{post}/{name}.html")
    frame = page.frame(url=f"{site}/{name}.html")
    assert frame is not None
    frame.wait_for_selector("#chart[data-ready='1']", timeout=30_000)
    CHECKS[name](frame)
    assert page.evaluate("location.href") == f"{post}/{name}.html"  # the post is left alone
    assert aborted == []


@pytest.mark.parametrize("name, path, query, state", [
    ("acceptance", "acceptance", "alpha=0.55&gamma=14&c=0.45", {"alpha": "0.55", "gamma": "14", "c": "0.45"}),
    ("concurrency", "concurrency", "source=001&level=16", {"family": "spec", "source": "001", "metric": "throughput",
                                                           "level": "16"}),
])
def test_the_apps_button_downloads_the_chart_in_the_links_state(app_url: str, page, name: str, path: str, query: str,
                                                                 state: dict[str, str]) -> None:
    """The page opened from a link: its "download this chart" button gives the file `export-chart` writes for that
    link's state, and that file opens in the state."""
    page.goto(f"{app_url}/{path}?{query}&lang=en")
    # the concurrency page has two buttons (the map's too); Streamlit keeps a hidden copy of each for sizing
    button = page.locator(f".st-key-download_chart_{name} button:visible")
    button.wait_for(timeout=60_000)
    assert button.text_content().endswith("Download this chart (one HTML file)")
    with page.expect_download(timeout=60_000) as got:
        button.click()
    html = Path(got.value.path()).read_text(encoding="utf-8")
    assert html == export_chart(name, "en", state)


# What a reader at any width must be able to read in an exported chart: the page never scrolls sideways (a wide
# table scrolls in its own frame), no label stands one character per line, no text is cut by its box, and no
# Markdown backtick shows.
READABLE = r"""() => {
  const out = [], de = document.documentElement;
  if (de.scrollWidth > de.clientWidth + 1) out.push(`the page scrolls sideways: ${de.scrollWidth} > ${de.clientWidth}`);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim(), box = n.parentElement;
    if (!text || box.closest("script, style, title") || !box.checkVisibility()) continue;
    if (text.includes("`")) out.push("a backtick: " + text.slice(0, 60));
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()], letters = text.replace(/\s/g, "").length;
    const em = parseFloat(getComputedStyle(box).fontSize);
    if (letters >= 4 && rects.length >= 4 && rects.every((r) => r.width < 2.2 * em))
      out.push("one character per line: " + text.slice(0, 40));
    const style = getComputedStyle(box);
    if ((style.overflowX === "hidden" || style.textOverflow === "ellipsis") && box.scrollWidth > box.clientWidth + 1)
      out.push("cut by its box: " + text.slice(0, 60));
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("name", CHARTS)
def test_an_exported_chart_reads_at_every_width(browser, tmp_path: Path, name: str, lang: str) -> None:
    path = tmp_path / f"{name}-{lang}.html"
    path.write_text(export_chart(name, lang), encoding="utf-8")
    for width in (390, 560, 1000, 1400):
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        try:
            page = ctx.new_page()
            opened(page, path.as_uri())
            problems = page.evaluate(READABLE) + page.evaluate(LABELS_APART)
            assert not problems, (width, problems)
        finally:
            ctx.close()
