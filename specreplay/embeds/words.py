"""The words of the exported charts: the app's own page words where the chart shows the same thing (the pages'
`views/<page>_text.py` tables are plain data), and the few only an exported file needs (Korean, English)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from specreplay.words import Lang

Say = Callable[..., str]

WORDS: dict[str, tuple[str, str]] = {
    "sources": ("출처", "Sources"),
    "offline": ("이 파일 하나에 차트의 코드와 데이터가 모두 들어 있어, 서버 없이 열립니다 (specreplay export-chart).",
                "This one file holds the chart's code and data; it opens with no server (specreplay export-chart)."),
    "formula_link": ("Leviathan 외 2023, 「Fast Inference from Transformers via Speculative Decoding」",
                     'Leviathan et al. 2023, "Fast Inference from Transformers via Speculative Decoding"'),
    "app_link": ("앱에서 같은 상태로 열기", "Open this state in the app"),
    "nearest": ("가장 가까운 실측 셀", "Nearest measured cell"),
    "nearest_text": ("{label} — 수용 길이 {length_text}, α {alpha_text} (γ={gamma})",
                     "{label} — acceptance length {length_text}, α {alpha_text} (γ={gamma})"),
    "question": ("질문", "Question"),
    "cells": ("우리 녹화의 셀", "Cells of our recordings"),
    "be_level": ("읽을 동시 접속 수", "Read at concurrency"),
    "at_level": ("동시 접속 {level}에서", "At concurrency {level}"),
    "ladder_article": ("기사 000의 계단", "Article 000's ladder"),
    "not_below_any": ("잰 수준에서는 1.0 아래로 내려가지 않음", "not below 1.0 at any measured level"),
}


def say(pairs: Mapping[str, tuple[str, str]], lang: Lang) -> Say:
    """The words of `pairs` in one language, by key, with values filled in: say("col_at", level=8)."""
    def text(key: str, **values: object) -> str:
        chosen = pairs[key][1 if lang == "en" else 0]
        return chosen.format(**values) if values else chosen
    return text
