"""Run one page the way the app runs it: through app.py's navigation (pages use st.page_link and shared chrome)."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from specreplay.views import pages
from tests.browser_fixtures import ROOT


def open_page(name: str, lang: str = "ko", timeout: float = 60, **query: str) -> AppTest:
    """AppTest of app.py switched to the page called `name` (specreplay/views/pages.py), with ?lang= and any other query
    params set."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    at.query_params["lang"] = lang
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    if name != pages.START.name:
        at.switch_page(str(Path(pages.page(name).file).relative_to(ROOT)))
        at.run()
    return at


def shown(markdown: str) -> str:
    """What a reader sees of Markdown that ui.plain escaped: the punctuation without its backslashes."""
    return re.sub(r"\\([!-/:-@\[-`{-~])\u2060", r"\1", markdown)


def open_expander(at: AppTest, key: str) -> AppTest:
    """Open a lazily filled expander (views.chart_parts.opened) as a reader's click does: its state, then a rerun."""
    at.session_state[key] = True
    return at.run()


# what prose_words counts: the elements a reader reads as text
PROSE = {"title", "header", "subheader", "markdown", "caption", "alert", "info", "warning", "success", "error",
         "page_link"}
MARKUP = re.compile(r":[a-z]+-badge\[|\]\([^)]*\)|\\.|\u2060")


def words(text: str) -> int:
    return len(re.findall(r"\w+", MARKUP.sub(" ", text)))


def prose_words(node) -> int:
    """Words a reader meets under one node of the AppTest tree, expanders left out (bench/page_words.py): titles,
    Markdown, captions, alerts, metric labels, page links; not tables or charts. A word is a run of letters or
    digits; badge markup and link addresses are dropped."""
    kind = getattr(node, "type", "")
    if kind == "expander":
        return 0
    children = getattr(node, "children", None)
    if children is not None:
        return sum(prose_words(c) for c in children.values())
    if kind == "metric":
        return words(str(node.label))
    if kind in PROSE or type(node).__name__ in ("Info", "Warning", "Success", "Error", "Caption", "Markdown"):
        return words(str(getattr(node, "value", "") or getattr(node, "label", "")))
    return 0
