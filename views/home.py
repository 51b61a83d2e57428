"""Landing page: the story in a few lines, and where to go next."""

import streamlit as st

from specreplay.views.home_text import TEXT
from specreplay.views.shell import page_file
from specreplay.views.texts import Texts
from specreplay.views.ui import KIND_MEANING, kind_markdown, tr

T = Texts(TEXT)
LINKS = [("replay", ":material/play_circle:"), ("acceptance", ":material/tune:"), ("concurrency", ":material/groups:"),
         ("ladder", ":material/stairs:"), ("cost", ":material/payments:"), ("chooser", ":material/alt_route:"),
         ("roofline", ":material/show_chart:")]

st.title(T("title"))
st.markdown(T("story"))
st.subheader(T("kinds"))
st.markdown(T("kinds_intro"))
st.markdown("\n".join(f"- {kind_markdown(kind)} {tr(*KIND_MEANING[kind])}" for kind in KIND_MEANING))
st.subheader(T("explore"))
for name, icon in LINKS:
    st.page_link(page_file(name), label=T(f"go_{name}"), icon=icon)
