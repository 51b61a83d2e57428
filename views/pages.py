"""The app's pages, the one list of them: each page's script, address, title (Korean, English) and icon, in the
navigation's order. The shell builds its navigation from it, the pages link through it, the tests tour it.

Script paths are absolute, from this folder: Streamlit resolves a relative one from the main script's folder,
which differs between `streamlit run app.py` and `specreplay app` (views/shell.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st
from specreplay.views.ui import tr

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Page:
    name: str  # its script is views/<name>.py
    url_path: str
    title: tuple[str, str]  # Korean, English
    icon: str

    @property
    def file(self) -> str:
        """The script's path, as st.Page and st.page_link take it."""
        return str(HERE / f"{self.name}.py")


# The start page is served at "/"; its own url_path must differ from "home", which the shell keeps for a hidden
# page that sends /home to "/" (views/shell.py).
PAGES = (
    Page("home", "start", ("소개", "Start here"), ":material/home:"),
    Page("replay", "replay", ("나란히 재생", "Side-by-side replay"), ":material/play_circle:"),
    Page("acceptance", "acceptance", ("수용률과 드래프트 길이", "Acceptance rate & draft length"),
         ":material/tune:"),
    Page("concurrency", "concurrency", ("동시 접속과 배수", "Concurrency vs speedup"), ":material/groups:"),
    Page("ladder", "ladder", ("bf16 → 4비트 → 드래프터", "bf16 → 4-bit → drafter"), ":material/stairs:"),
    Page("cost", "cost", ("토큰당 비용과 KV 캐시", "Cost per token & KV cache"), ":material/payments:"),
    Page("roofline", "roofline", ("왜 4비트가 큰 배치에서 느려지나", "Why 4-bit can lose at large batch"),
         ":material/show_chart:"),
    Page("chooser", "chooser", ("어떤 방식을 켤까", "Which method to use"), ":material/alt_route:"),
)
START = PAGES[0]
_BY_NAME = {p.name: p for p in PAGES}


def page(name: str) -> Page:
    """The page called `name` (its script's stem); KeyError for a page that is not in the list."""
    return _BY_NAME[name]


def title(p: Page) -> str:
    return tr(*p.title)


def link(name: str, label: str, where: Any = st, query: dict[str, str] | None = None) -> None:
    """A link to a page with its own icon; `where` is the container (st, a column)."""
    p = page(name)
    where.page_link(p.file, label=label, icon=p.icon, query_params=query)
