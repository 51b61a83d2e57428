"""specreplay entry: navigation, language switch, shared page chrome."""

import logging
import os

import streamlit as st

from specreplay.views.ui import language_switch, tr

st.set_page_config(page_title="specreplay", page_icon=":material/speed:", layout="wide")

PAGES = [
    st.Page("views/home.py", title=tr("소개", "Start here"), icon=":material/home:", default=True, url_path="home"),
    st.Page("views/replay.py", title=tr("나란히 재생", "Side-by-side replay"), icon=":material/play_circle:",
            url_path="replay"),
    st.Page("views/acceptance.py", title=tr("수용률과 드래프트 길이", "Acceptance rate & draft length"),
            icon=":material/tune:", url_path="acceptance"),
    st.Page("views/concurrency.py", title=tr("동시 접속과 배수", "Concurrency vs speedup"),
            icon=":material/groups:", url_path="concurrency"),
    st.Page("views/ladder.py", title=tr("bf16 → 4비트 → 드래프터", "bf16 → 4-bit → drafter"),
            icon=":material/stairs:", url_path="ladder"),
    st.Page("views/cost.py", title=tr("토큰당 비용과 KV 캐시", "Cost per token & KV cache"),
            icon=":material/payments:", url_path="cost"),
    st.Page("views/roofline.py", title=tr("왜 4비트가 큰 배치에서 느려지나", "Why 4-bit can lose at large batch"),
            icon=":material/show_chart:", url_path="roofline"),
]

page = st.navigation(PAGES)
language_switch()
try:
    page.run()
except Exception:
    if os.environ.get("SPECREPLAY_RAISE"):  # the tests want the traceback itself
        raise
    # A visitor gets a sentence, never a traceback with server paths (showErrorDetails is "none" too).
    logging.getLogger("specreplay").exception("page %s failed", page.url_path)
    st.error(tr("이 페이지를 그리다 문제가 생겼습니다. 새로 고치거나 다른 선택으로 다시 해 보세요. 문제가 계속되면 주소(URL)와 "
                "함께 알려 주세요.",
                "Something went wrong drawing this page. Reload, or try another choice. If it keeps happening, "
                "tell us the page address (URL)."), icon=":material/sentiment_dissatisfied:")
