"""The app's pages, the one list of them: each page's script, address and icon (its title is in the language files' `pages` table), in the
navigation's order. The shell builds its navigation from it, the pages link through it, the tests tour it.

Script paths are absolute, from this folder: Streamlit resolves a relative one from the main script's folder,
which differs between `streamlit run app.py` and `specreplay app` (specreplay/views/shell.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st

from specreplay import languages, repo_docs
from specreplay.views.ui import lang

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Page:
    name: str  # its script is specreplay/views/<name>.py
    url_path: str
    icon: str

    @property
    def file(self) -> str:
        """The script's path, as st.Page and st.page_link take it."""
        return str(HERE / f"{self.name}.py")


# The start page is served at "/"; its own url_path must differ from "home", which the shell keeps for a hidden
# page that sends /home to "/" (specreplay/views/shell.py).
PAGES = (
    Page("home", "start", ":material/home:"),
    Page("replay", "replay", ":material/play_circle:"),
    Page("acceptance", "acceptance", ":material/tune:"),
    Page("concurrency", "concurrency", ":material/groups:"),
    Page("ladder", "ladder", ":material/stairs:"),
    Page("cost", "cost", ":material/payments:"),
    Page("roofline", "roofline", ":material/show_chart:"),
    Page("chooser", "chooser", ":material/alt_route:"),
)
START = PAGES[0]
# The project's docs (docs/*.md), one at a time: out of the navigation, reached by the captions' links to them
# (specreplay.repo_docs.doc_url); not a story page, so not in PAGES.
DOCS = Page("doc", repo_docs.PAGE, ":material/description:")
_BY_NAME = {p.name: p for p in PAGES}


def page(name: str) -> Page:
    """The page called `name` (its script's stem); KeyError for a page that is not in the list."""
    return _BY_NAME[name]


def title(p: Page) -> str:
    """The page's title in the reader's language (the `pages` table, by the page's name)."""
    return languages.text(lang(), f"pages.{p.name}")


def link(name: str, label: str, where: Any = st, query: dict[str, str] | None = None) -> None:
    """A link to a page with its own icon; `where` is the container (st, a column)."""
    p = page(name)
    where.page_link(p.file, label=label, icon=p.icon, query_params=query)
