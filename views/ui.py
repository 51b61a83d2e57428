"""Streamlit helpers every page shares: language, embed mode, provenance badges.

Pages stay thin: they call the library for numbers and these helpers for the
common chrome. Korean is the default language; `?lang=en` switches.
"""

from __future__ import annotations

import re
import string
from typing import Any, Literal

import streamlit as st

from specreplay import palette
from specreplay.addresses import address
from specreplay.multiplier import times  # noqa: F401  (the pages' one multiplier format, re-exported)
from specreplay.recording.arm import Arm
from specreplay.words import Lang, word

Kind = Literal["measured", "computed", "simulated", "quoted", "imported"]

# What each kind means, for the start page. "measured here" is our recorder only; an article's own measurement is
# quoted (the article named), like the figures it cites from elsewhere.
KIND_MEANING: dict[Kind, tuple[str, str]] = {
    "measured": ("**여기서 측정**: 이 프로젝트의 recorder가 실제 서버에 요청을 보내 잰 값 (recordings/ 의 녹화, 우리 H200 파일).",
                 "**measured here**: our recorder measured it, streaming real requests to a real server (the "
                 "recordings in recordings/, our H200 file)."),
    "quoted": ("**인용**: 기사에 실린 값. 기사 저자가 직접 잰 것이든 기사가 다른 곳(EAGLE-3 논문 표, NVIDIA Model Optimizer, "
               "Spheron, 개발자 보고 등)에서 옮긴 것이든 기사와 원 출처를 함께 적습니다. 우리가 다시 잰 값이 아닙니다.",
               "**quoted**: a figure printed in an article, whether the article's authors measured it or it cites "
               "someone else (an EAGLE-3 paper table, NVIDIA Model Optimizer, Spheron, a developer's report…); the "
               "article and the original source are named. Not reproduced here."),
    "computed": ("**계산**: 공식으로 구한 값. 이 앱이 계산했거나, 기사가 자기 숫자로 계산해 적은 비·비용 (그때는 기사를 출처로 "
                 "적습니다).",
                 "**computed**: a formula's result, worked out by this app, or a ratio or cost the article computed from "
                 "its own figures (then the article is named as the source)."),
    "simulated": ("**시뮬레이션**: 고정 시드의 무작위 흐름. 측정이 아닙니다.",
                  "**simulated**: a seeded random stream, not a measurement."),
    "imported": ("**가져옴**: 다른 벤치마크 도구(vllm bench serve, AIPerf, GuideLLM)가 잰 파일을 변환한 것. 그 파일에 없는 것은 "
                 "없다고 적습니다.",
                 "**imported**: another benchmark tool's file (vllm bench serve, AIPerf, GuideLLM), converted; what "
                 "that file lacks is stated, never filled in."),
}
_KIND_COLOR: dict[Kind, Literal["green", "blue", "orange", "violet", "gray"]] = {
    "measured": "green", "computed": "blue", "simulated": "orange", "quoted": "violet", "imported": "gray"}
# One colour per weight format, on every page that compares formats (roofline, the concurrency page's H200 view).
FORMAT_COLOR = {k: palette.FORMATS[k] for k in ("bf16", "int4", "fp8")}


def lang() -> Lang:
    """?lang= wins; otherwise the session's last choice (page switches clear the query), else Korean."""
    value = st.query_params.get("lang")
    if value in ("ko", "en"):
        st.session_state["lang"] = value
    return "en" if st.session_state.get("lang") == "en" else "ko"


def tr(ko: str, en: str) -> str:
    """The text in the current language."""
    return en if lang() == "en" else ko


def embedded() -> bool:
    """True under ?embed=true (Streamlit strips that param from st.query_params, so ask st.context)."""
    return bool(st.context.is_embedded)


def language_switch() -> None:
    """Sidebar switch; the choice is kept in the session and mirrored into the URL so shared links keep it."""
    current = lang()
    if st.query_params.get("lang") != current:
        st.query_params["lang"] = current
    choice = st.sidebar.radio("언어 / Language", ["ko", "en"], index=0 if current == "ko" else 1,
                              format_func=lambda v: "한국어" if v == "ko" else "English", horizontal=True)
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
    table it quotes, conditions (specreplay.articles.cite). Escaped for Markdown, with a link to the original's public
    address where one is known (specreplay.addresses), unless markdown=False (a table cell)."""
    from specreplay.articles import cite, original_name

    text = cite(item, lang(), conditions)  # type: ignore[arg-type]
    if not markdown:
        return text
    original = str(getattr(item, "original", "") or "")
    url = address(original)
    if not url:
        return plain(text, 600)
    name = plain(original_name(original, lang()), 600)  # the original's name becomes its link
    return plain(text, 600).replace(name, f"[{name}]({url})", 1)


ARTICLE_FILE = re.compile(r"^\d{3}_[0-9a-f]{16}\.txt$")


def shown_kind(item: Any) -> Kind:
    """The badge for an article table's cell or series (anything with .kind and .source): an article's own
    measurement is quoted here ("measured here" is our recorder only); a recorded series keeps "measured"."""
    kind = item.kind
    return "quoted" if kind == "measured" and ARTICLE_FILE.match(str(getattr(item, "source", ""))) else kind


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
        spec = arm.flags.get("speculative_config")
        draft = str(spec.get("model") or "") if isinstance(spec, dict) else ""
        # 'qwen2.5-coder-0.5b-instruct.gguf' → the model id the addresses file keys
        draft = draft.rsplit("/", 1)[-1].lower().removesuffix(".gguf").removesuffix("-instruct")
        if draft:
            names[draft] = link(plain(draft), draft)
    return " · ".join(v for k, v in names.items() if k)

