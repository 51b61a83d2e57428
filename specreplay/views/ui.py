"""Streamlit helpers every page shares: language, embed mode, provenance badges.

Pages stay thin: they call the library for numbers and these helpers for the
common chrome. The first of specreplay.languages.LANGUAGES (Korean) is the default; `?lang=en` switches.
"""

from __future__ import annotations

import re
import string
from typing import Any, Literal

import streamlit as st

from specreplay import languages, palette
from specreplay.addresses import address
from specreplay.languages import Lang
from specreplay.multiplier import times  # noqa: F401  (the pages' one multiplier format, re-exported)
from specreplay.quoted.articles import shown_kind  # noqa: F401  (re-exported: the pages' badges)
from specreplay.recording.arm import Arm
from specreplay.recording.kinds import Kind  # noqa: F401  (re-exported: the pages' badges)
from specreplay.words import word

_KIND_COLOR: dict[Kind, Literal["green", "yellow", "blue", "orange", "violet", "gray"]] = {
    "measured": "green", "timing_only": "yellow", "computed": "blue", "simulated": "orange", "quoted": "violet",
    "imported": "gray"}
# One colour per weight format, on every page that compares formats (roofline, the concurrency page's H200 view).
FORMAT_COLOR = {k: palette.FORMATS[k] for k in ("bf16", "int4", "fp8")}


def lang() -> Lang:
    """?lang= wins; otherwise the session's last choice (page switches clear the query), else the first language."""
    value = st.query_params.get("lang")
    if value in languages.LANGUAGES:
        st.session_state["lang"] = value
    chosen = st.session_state.get("lang")
    return chosen if chosen in languages.LANGUAGES else languages.LANGUAGES[0]


def localized(item: object, field: str) -> Any:
    """A bilingual data field (a rule's why_ko / why_en, a series' label / label_en) in the page's language."""
    return languages.localized(item, field, lang())


def embedded() -> bool:
    """True under ?embed=true (Streamlit strips that param from st.query_params, so ask st.context)."""
    return bool(st.context.is_embedded)


def language_switch() -> None:
    """Sidebar switch; the choice is kept in the session and mirrored into the URL so shared links keep it."""
    current = lang()
    if st.query_params.get("lang") != current:
        st.query_params["lang"] = current
    codes = list(languages.LANGUAGES)
    choice = st.sidebar.radio("언어 / Language", codes, index=codes.index(current), format_func=languages.name,
                              horizontal=True)
    if choice != current:
        st.session_state["lang"] = choice
        st.query_params["lang"] = choice
        st.rerun()


_MD_SPECIAL = re.compile("([" + re.escape(string.punctuation) + "])")


def plain(text: str, limit: int = 200) -> str:
    """Outside text (a URL, a file, a server) made safe inside Markdown: one line, at most `limit` characters.

    Every ASCII punctuation mark is escaped, so no link, image, badge or directive can form, and followed by
    an invisible word joiner (U+2060), because GFM turns bare `https://…`, `www.…` and `a@b.c` into links
    after escapes are resolved.
    """
    one_line = " ".join(str(text).split())
    if len(one_line) > limit:
        one_line = one_line[:limit - 1] + "…"
    return _MD_SPECIAL.sub("\\\\\\1\u2060", one_line)


def source_line(item: object, markdown: bool = True, conditions: bool = True) -> str:
    """Where an article figure comes from, in the page's language: article title and byline, section, the original
    table it quotes, conditions (specreplay.quoted.articles.cite). Escaped for Markdown, with a link to the original's public
    address where one is known (specreplay.addresses), unless markdown=False (a table cell)."""
    from specreplay.quoted.articles import cite, original_name

    text = cite(item, lang(), conditions)  # type: ignore[arg-type]
    if not markdown:
        return text
    original = str(getattr(item, "original", "") or "")
    url = address(original)
    if not url:
        return plain(text, 600)
    name = plain(original_name(original, lang()), 600)  # the original's name becomes its link
    return plain(text, 600).replace(name, f"[{name}]({url})", 1)


def kind_label(kind: Kind) -> str:
    return word(kind, lang())


def kind_badge(kind: Kind, source: str = "") -> None:
    """A coloured badge saying whether a number is measured, computed, simulated or quoted, and from where."""
    text = kind_label(kind) + (f" · {plain(source, 300)}" if source else "")
    st.badge(text, color=_KIND_COLOR[kind])


def kind_markdown(kind: Kind) -> str:
    """Inline badge markup for captions and metric labels."""
    return f":{_KIND_COLOR[kind]}-badge[{kind_label(kind)}]"


def page_intro(title: str, intro: str) -> None:
    """A page's title and opening paragraph, left out when embedded (the blog post around it has its own)."""
    if not embedded():
        st.title(title)
        st.markdown(intro)


def recorded_with(arms: list[Arm], models: bool = True) -> str:
    """Markdown links to the public pages of the engines and (unless models=False) the models these arms ran
    (specreplay.addresses), the draft model included; names without a known address stay plain."""
    from specreplay.addresses import link

    names: dict[str, str] = {}
    for arm in arms:
        names[arm.engine.name] = link(plain(arm.engine.line), arm.engine.name)
        if not models:
            continue
        names[arm.model] = link(plain(arm.model), arm.model)
        if arm.draft_model:
            names[arm.draft_model] = link(plain(arm.draft_model), arm.draft_model)
    return " · ".join(v for k, v in names.items() if k)

