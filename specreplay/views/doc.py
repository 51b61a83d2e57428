"""One of the project's docs (docs/<name>.md), where the pages' captions link to it: `/doc?name=gpu`."""

import streamlit as st

from specreplay.repo_docs import doc_markdown, doc_names, doc_url
from specreplay.views.texts import Texts
from specreplay.views.ui import lang, plain

T = Texts("doc")

name = st.query_params.get("name", "")
text = doc_markdown(name, lang()) if name.isascii() and len(name) <= 40 else None
if text is not None:
    st.caption(T("source", file=f"docs/{name}.md"))
    st.markdown(text)
elif not doc_names():
    st.info(T("no_docs"), icon=":material/folder_off:")
else:
    st.title(T("title"))
    if name:
        st.warning(T("unknown", name=plain(name, 40)))
    st.markdown("\n".join(f"- [docs/{n}.md]({doc_url(n, lang=lang())})" for n in doc_names()))
