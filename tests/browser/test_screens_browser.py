"""Every page at every width, measured in Debian's chromium: a 390 px phone, 560 px, a 1000 px blog embed
(?embed=true) and a 1400 px desktop, in English, and the Korean pages on the phone and on a 1000 px laptop beside the
sidebar (its columns are the narrowest: metrics four abreast in ~120 px). No element overlaps another, nothing runs off the right of its container or the
window (a table may scroll inside its own frame: tests/app/test_tables_fit.py pins its key column, and a Markdown
table that does shows an edge shadow), no label stands one character per line, and the replay
page's player starts on the first screen. Under SPECREPLAY_README_SCREENSHOT=1 (`make screenshot`) the 390 and
1400 px views of each page go to docs/screenshots/<page>-<width>.png."""

from __future__ import annotations

import os

import pytest

from specreplay.views import pages
from tests.browser_fixtures import ROOT

PAGES = [p.name for p in pages.PAGES]
# (width, language, embedded): every width in English, and Korean on a phone and on a laptop with the sidebar
VIEWS = [(390, "en", False), (560, "en", False), (1000, "en", True), (1400, "en", False), (390, "ko", False),
         (1000, "ko", False)]
HEIGHT = 900
SHOTS = ROOT / "docs" / "screenshots"

# Settled: the page's script has finished, no skeleton left, every player frame mounted and as tall as its content,
# every Plotly chart drawn.
SETTLED = """() => {
  if (document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState !== "notRunning") return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  if ([...document.querySelectorAll('[data-testid="stPlotlyChart"]')].some(c => !c.querySelector('.main-svg'))) return false;
  return [...document.querySelectorAll('iframe[srcdoc]')].every(f => {
    const doc = f.contentDocument;
    const mounted = doc && doc.querySelector('#player[data-mounted="true"]');
    return mounted && Math.abs(f.getBoundingClientRect().height - doc.documentElement.scrollHeight) <= 2;
  });
}"""

# Each visible element of the page: overlapping another one (neither inside the other), running past the window or
# its column, or holding a part that shows past the element's right edge or below its bottom (over what follows). A part clipped or scrolled by a box
# that itself ends inside the element is not cut off (a truncated label with its full text on hover, a table's
# frame that scrolls); a chart's SVG is checked as a whole.
MEASURE = r"""() => {
  const SLACK = 8;  // px a glyph's descender may hang below its line; what drew over the next element did by hundreds
  const seen = e => e.checkVisibility({checkOpacity: true, checkVisibilityCSS: true});
  const els = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stElementContainer"]')]
    .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && seen(e); });
  const name = e => (e.firstElementChild?.dataset.testid || "?") + " «" + (e.innerText || "").trim().slice(0, 50) + "»";
  // something a reader sees: text, an image, a canvas, a control or a painted box (not an invisible resize handle)
  const drawn = p => [...p.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())
    || ["IMG", "CANVAS", "svg", "INPUT", "BUTTON", "IFRAME"].includes(p.tagName)
    || (s => s.backgroundColor !== "rgba(0, 0, 0, 0)" || parseFloat(s.borderRightWidth) > 0)(getComputedStyle(p));
  const clipped = (part, el, edge, axis) => {
    for (let a = part.parentElement; a && a !== el; a = a.parentElement)
      if (getComputedStyle(a)[axis] !== "visible" && a.getBoundingClientRect()[edge] <= el.getBoundingClientRect()[edge] + 1)
        return true;
    return false;
  };
  const width = document.documentElement.clientWidth, problems = [];
  for (const el of els) {
    const box = el.getBoundingClientRect();
    const column = el.parentElement.getBoundingClientRect();
    if (box.right > width + 1 || box.right > column.right + 1) problems.push("past its column: " + name(el));
    for (const part of el.querySelectorAll("*")) {
      if (part.ownerSVGElement || !seen(part) || !drawn(part)) continue;
      const r = part.getBoundingClientRect();
      if (r.width > 0 && r.right > box.right + 1 && !clipped(part, el, "right", "overflowX")) {
        problems.push(`cut off on the right by ${Math.round(r.right - box.right)} px: ${name(el)} (${part.tagName})`);
        break;
      }
      if (r.height > 0 && r.bottom > box.bottom + SLACK && !clipped(part, el, "bottom", "overflowY")) {
        problems.push(`drawn ${Math.round(r.bottom - box.bottom)} px below its place, over what follows: ${name(el)} (${part.tagName})`);
        break;
      }
    }
  }
  // a label one character per line (a column too narrow for its header), and a table that scrolls sideways without
  // the edge shadow that says so (views/shell.py)
  const main = document.querySelector('[data-testid="stMain"]');
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.trim(), box = n.parentElement;
    if (!text || box.closest("svg, script, style") || !seen(box)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()], em = parseFloat(getComputedStyle(box).fontSize);
    if (text.replace(/\s/g, "").length >= 4 && rects.length >= 4 && rects.every(r => r.width < 2.2 * em))
      problems.push("one character per line: «" + text.slice(0, 40) + "»");
  }
  // a metric's label, value or delta cut to "…" (Streamlit's default; views/shell.py lets them wrap)
  for (const m of main.querySelectorAll('[data-testid="stMetric"] *'))
    if (seen(m) && m.scrollWidth > m.clientWidth + 1 && m.clientWidth > 0)
      problems.push("a metric cut: «" + m.closest('[data-testid="stMetric"]').innerText.trim().slice(0, 60) + "»");
  // a chart's title wider than its chart (Plotly draws one line: views/chart_parts.py puts it above as text; the
  // live charts wrap theirs)
  for (const t of main.querySelectorAll(".gtitle, .lc-title")) {
    const r = t.getBoundingClientRect(), chart = t.ownerSVGElement.getBoundingClientRect();
    if (r.width > 0 && r.right > chart.right + 1) problems.push("a chart title cut: «" + t.textContent.slice(0, 60) + "»");
  }
  if (width <= 640)  // a data table's columns past a phone's width scroll in its frame: a line under it says so
    for (const d of main.querySelectorAll('[data-testid="stDataFrame"]'))
      if (getComputedStyle(d, "::after").content === "none") problems.push("a data table with no scroll cue");
  for (const t of main.querySelectorAll(".stMarkdown table"))
    if (t.scrollWidth > t.clientWidth + 1 && !getComputedStyle(t).backgroundImage.includes("gradient"))
      problems.push("a table scrolls sideways with no cue: «" + t.innerText.trim().slice(0, 40) + "»");
  for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
    const a = els[i], b = els[j];
    if (a.contains(b) || b.contains(a)) continue;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    if (p.x < q.right - 1 && q.x < p.right - 1 && p.y < q.bottom - 1 && q.y < p.bottom - 1)
      problems.push("overlap: " + name(a) + " / " + name(b));
  }
  return problems;
}"""


def url(app_url: str, name: str, lang: str, embed: bool) -> str:
    return f"{app_url}/{'' if name == 'home' else name}?lang={lang}" + ("&embed=true" if embed else "")


@pytest.mark.parametrize(("width", "lang", "embed"), VIEWS)
@pytest.mark.parametrize("name", PAGES)
def test_every_page_fits_every_width(browser, app_url: str, name: str, width: int, lang: str, embed: bool) -> None:
    ctx = browser.new_context(viewport={"width": width, "height": HEIGHT})
    page = ctx.new_page()
    try:
        page.goto(url(app_url, name, lang, embed))
        page.wait_for_selector("[data-testid='stMain'] [data-testid='stElementContainer']", timeout=120_000)
        page.wait_for_function(SETTLED, timeout=120_000, polling=250)
        problems = page.evaluate(MEASURE)
        assert not problems, "\n".join(problems)
        assert (page.locator("[data-testid='stSidebar']").count() == 0) == embed  # an embed shows the page alone
        if name == "replay":  # the player's controls and its first pane's head on the first screen
            assert page.locator("iframe[srcdoc]").first.bounding_box()["y"] < HEIGHT - 250
        if os.environ.get("SPECREPLAY_README_SCREENSHOT") and width in (390, 1400) and lang == "en":
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{name}-{width}.png"))
    finally:
        ctx.close()
