"""The app's shell: navigation, language switch, the friendly error panel.

Both entries run it: `streamlit run app.py` in a checkout (app.py calls `run()`) and `specreplay app`, which
runs this file as Streamlit's main script. The pages and their order come from specreplay/views/pages.py.
"""

import logging
import os

import streamlit as st

from specreplay.resources import ASSETS
from specreplay.views.pages import DOCS, PAGES, START, title
from specreplay.views.texts import Texts
from specreplay.views.ui import embedded, lang, language_switch

T = Texts("shell")

# A file served by the app itself: a ":material/…:" page icon makes every visitor's browser fetch the favicon from
# Google's font server (Streamlit 1.67), and nothing on these pages should leave the visitor's browser.
PAGE_ICON = ASSETS / "favicon.png"


def run() -> None:
    st.set_page_config(page_title="specreplay", page_icon=str(PAGE_ICON), layout="wide")
    # The start page is served at "/", so Streamlit never matches its url_path; a hidden "home" page sends /home
    # there (without it /home opens Streamlit's "page not found" box).
    start = st.Page(START.file, title=title(START), icon=START.icon, default=True, url_path=START.url_path)
    pages = [
        start,
        st.Page(lambda: st.switch_page(start, query_params={"lang": lang()}), title=title(START), url_path="home",
                visibility="hidden"),
        *(st.Page(p.file, title=title(p), icon=p.icon, url_path=p.url_path) for p in PAGES if p != START),
        st.Page(DOCS.file, title=title(DOCS), icon=DOCS.icon, url_path=DOCS.url_path, visibility="hidden"),
    ]
    # an embed shows the page alone: no sidebar (?lang= sets its language)
    page = st.navigation(pages, position="hidden" if embedded() else "sidebar")
    # a wide Markdown table scrolls inside its own frame at narrow widths instead of running past the page, with a
    # shadow at the edge that has more to show (so no column hides without a cue); Hangul wraps between words
    st.html("<style>.stMarkdown table{display:block;overflow-x:auto;max-width:100%;background:"
            "linear-gradient(to right,#fff 30%,#fff0) left/40px 100% no-repeat local,"
            "linear-gradient(to left,#fff 30%,#fff0) right/40px 100% no-repeat local,"
            "radial-gradient(farthest-side at 0 50%,#0003,#0000) left/14px 100% no-repeat scroll,"
            "radial-gradient(farthest-side at 100% 50%,#0003,#0000) right/14px 100% no-repeat scroll}"
            ".stMarkdown th,.stMarkdown td{word-break:keep-all}"
            # a metric's label, value and delta wrap rather than end in "…" (at 1000 px beside the sidebar the
            # article ladder's 1.41× showed as "1.…"); in a narrow column its value is drawn smaller
            "[data-testid=stColumn]:has([data-testid=stMetric]){container-type:inline-size}"
            ":is([data-testid=stMetricLabel],[data-testid=stMetricValue],[data-testid=stMetricDelta]) "
            ":is([data-testid=stMarkdownContainer],p,div){white-space:normal;overflow:visible;text-overflow:clip}"
            "@container (max-width:200px){[data-testid=stMetricValue]{font-size:1.75rem}}"
            "@container (max-width:110px){[data-testid=stMetricValue]{font-size:1.375rem}}"
            # a Plotly chart's title, above it as text that wraps (views/chart_parts.plotly)
            ".chart-title{font-size:15px;line-height:1.4}"
            # less empty space above a page's title: the start page's ladders and replay fit one 900 px screen
            "[data-testid=stMainBlockContainer]{padding-top:3rem}"
            # a data table's columns past a phone's width scroll inside its frame: say so under it
            "@media (max-width:640px){[data-testid=stDataFrame]::after{content:\"" + T("table_more")
            + "\";display:block;font-size:12px;color:#6b7280;margin-top:2px}}</style>")
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
