"""The app's shell: navigation, language switch, the friendly error panel.

Both entries run it: `streamlit run app.py` in a checkout (app.py calls `run()`) and `specreplay app`, which
runs this file as Streamlit's main script. Page paths are absolute, from this folder: Streamlit resolves a
relative one from the main script's folder, which differs between the two.
"""

import logging
import os
from pathlib import Path

import streamlit as st

from specreplay.resources import ASSETS
from specreplay.views.ui import lang, language_switch, tr

HERE = Path(__file__).resolve().parent


def page_file(name: str) -> str:
    """A page script's path, as st.Page and st.page_link take it: `page_file("replay")` is views/replay.py."""
    return str(HERE / f"{name}.py")


def run() -> None:
    # a bundled image, served by this server: a :material/…: icon makes every visitor's browser fetch it from a
    # third-party font server (no request may leave the page)
    st.set_page_config(page_title="specreplay", page_icon=str(ASSETS / "favicon.png"), layout="wide")
    # The start page is served at "/", so Streamlit never matches its url_path; a hidden "home" page sends /home
    # there (without it /home opens Streamlit's "page not found" box). The start page's own url_path must differ.
    start = st.Page(page_file("home"), title=tr("소개", "Start here"), icon=":material/home:", default=True,
                    url_path="start")
    pages = [
        start,
        st.Page(lambda: st.switch_page(start, query_params={"lang": lang()}), title=tr("소개", "Start here"),
                url_path="home", visibility="hidden"),
        st.Page(page_file("replay"), title=tr("나란히 재생", "Side-by-side replay"), icon=":material/play_circle:",
                url_path="replay"),
        st.Page(page_file("acceptance"), title=tr("수용률과 드래프트 길이", "Acceptance rate & draft length"),
                icon=":material/tune:", url_path="acceptance"),
        st.Page(page_file("concurrency"), title=tr("동시 접속과 배수", "Concurrency vs speedup"),
                icon=":material/groups:", url_path="concurrency"),
        st.Page(page_file("ladder"), title=tr("bf16 → 4비트 → 드래프터", "bf16 → 4-bit → drafter"),
                icon=":material/stairs:", url_path="ladder"),
        st.Page(page_file("cost"), title=tr("토큰당 비용과 KV 캐시", "Cost per token & KV cache"),
                icon=":material/payments:", url_path="cost"),
        st.Page(page_file("roofline"), title=tr("왜 4비트가 큰 배치에서 느려지나", "Why 4-bit can lose at large batch"),
                icon=":material/show_chart:", url_path="roofline"),
        st.Page(page_file("chooser"), title=tr("어떤 방식을 켤까", "Which method to use"), icon=":material/alt_route:", url_path="chooser"),
    ]
    page = st.navigation(pages)
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


if __name__ == "__main__":  # `specreplay app`: Streamlit runs this file as the main script on every rerun
    run()
