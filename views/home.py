"""Landing page: the story in the order our evidence supports. First screen: article 000's ladder beside our
full-scale H200 ladder (views/home_ladders.py), then a real-text replay where a drafter wins and the same drafter
shrinking on the 4-bit target (views/hero.py); then article 001's 1.4× → 0.8× beside our measured crossing, the kinds
of numbers and where to go next."""

import streamlit as st
from specreplay.views.hero import hero
from specreplay.views.home_ladders import crossing, ladders
from specreplay.views.home_text import TEXT
from specreplay.views.shell import page_file
from specreplay.views.texts import Texts
from specreplay.views.ui import KIND_MEANING, kind_markdown, tr

T = Texts(TEXT)
LINKS = [("replay", ":material/play_circle:"), ("acceptance", ":material/tune:"), ("concurrency", ":material/groups:"),
         ("ladder", ":material/stairs:"), ("cost", ":material/payments:"), ("chooser", ":material/alt_route:"),
         ("roofline", ":material/show_chart:")]

st.title(T("title"))
ladders()
hero()
crossing()
st.subheader(T("kinds"))
st.markdown("\n".join(f"- {kind_markdown(kind)} {tr(*KIND_MEANING[kind])}" for kind in KIND_MEANING))
st.subheader(T("explore"))
for name, icon in LINKS:
    st.page_link(page_file(name), label=T(f"go_{name}"), icon=icon)
