import streamlit as st

from specreplay.ui import tr

st.info(tr("준비 중인 페이지입니다.", "This page is being built."))
