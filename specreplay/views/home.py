"""Landing page: the story in the order our evidence supports. First screen: article 000's ladder beside our
full-scale H200 ladder (specreplay/views/home_ladders.py), then a real-text replay where a drafter wins and the same drafter
shrinking on the 4-bit target (specreplay/views/hero.py), and a drafter we trained winning on a GPU
(specreplay/views/trained_head.py); then article 001's 1.4× → 0.8× beside our measured crossing, the kinds
of numbers and where to go next."""

import streamlit as st

from specreplay.recording.kinds import KINDS
from specreplay.views.hero import hero
from specreplay.views.home_ladders import crossing, ladders
from specreplay.views.pages import PAGES, START, link
from specreplay.views.texts import Texts
from specreplay.views.trained_head import hero as gpu_hero
from specreplay.views.ui import kind_markdown

T = Texts("home")
KIND = Texts("kinds")  # what each kind of number means

st.title(T("title"))
ladders()
hero()
gpu_hero()
crossing()
with st.expander(T("kinds")):  # every badge of every page, explained: read when a badge is in doubt
    st.markdown("\n".join(f"- {kind_markdown(kind)} {KIND(kind)}" for kind in KINDS))
st.subheader(T("explore"))
for p in PAGES:
    if p != START:
        link(p.name, T(f"go_{p.name}"))
