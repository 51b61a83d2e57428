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
from specreplay.views.shell_text import TEXT
from specreplay.views.texts import Texts
from specreplay.views.ui import embedded, lang, language_switch

T = Texts(TEXT)

HERE = Path(__file__).resolve().parent
# A file served by the app itself: a ":material/…:" page icon makes every visitor's browser fetch the favicon from
# Google's font server (Streamlit 1.67), and nothing on these pages should leave the visitor's browser.
PAGE_ICON = ASSETS / "favicon.png"
# The pages after the start page, in the navigation's order: each one's file, url_path and title key are its name.
PAGES = [("replay", ":material/play_circle:"), ("acceptance", ":material/tune:"), ("concurrency", ":material/groups:"),
         ("ladder", ":material/stairs:"), ("cost", ":material/payments:"), ("roofline", ":material/show_chart:"),
         ("chooser", ":material/alt_route:")]


def page_file(name: str) -> str:
    """A page script's path, as st.Page and st.page_link take it: `page_file("replay")` is views/replay.py."""
    return str(HERE / f"{name}.py")


def run() -> None:
    st.set_page_config(page_title="specreplay", page_icon=str(PAGE_ICON), layout="wide")
    # The start page is served at "/", so Streamlit never matches its url_path; a hidden "home" page sends /home
    # there (without it /home opens Streamlit's "page not found" box). The start page's own url_path must differ.
    start = st.Page(page_file("home"), title=T("home"), icon=":material/home:", default=True, url_path="start")
    pages = [
        start,
        st.Page(lambda: st.switch_page(start, query_params={"lang": lang()}), title=T("home"), url_path="home",
                visibility="hidden"),
        *(st.Page(page_file(name), title=T(name), icon=icon, url_path=name) for name, icon in PAGES),
    ]
    # an embed shows the page alone: no sidebar (?lang= sets its language)
    page = st.navigation(pages, position="hidden" if embedded() else "sidebar")
    if not embedded():
        language_switch()
    try:
        page.run()
    except Exception:
        if os.environ.get("SPECREPLAY_RAISE"):  # the tests want the traceback itself
            raise
        # A visitor gets a sentence, never a traceback with server paths (showErrorDetails is "none" too).
        logging.getLogger("specreplay").exception("page %s failed", page.url_path)
        st.error(T("error"), icon=":material/sentiment_dissatisfied:")


if __name__ == "__main__":  # `specreplay app`: Streamlit runs this file as the main script on every rerun
    run()
