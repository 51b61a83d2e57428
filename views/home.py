"""Landing page: the story in one screen — a real side-by-side replay playing (views/hero.py), its numbers, three
ways on — then the kinds of numbers and where to go next."""

import streamlit as st

from specreplay import llamacpp_files, real_ladder
from specreplay.engine_defects import draft_graphs_defect
from specreplay.recording import catalogue
from specreplay.recording.arm import F16_NOTE
from specreplay.recording.format import Recording
from specreplay.views.hero import hero
from specreplay.views.home_text import TEXT
from specreplay.views.pages import PAGES, START, link
from specreplay.views.texts import Texts
from specreplay.views.ui import KIND_MEANING, kind_markdown, lang, times, tr

T = Texts(TEXT)


def our_headline() -> None:
    """Our own ladder's code prompt in one line, once the llama.cpp recording is there (views/ladder.py has all)."""
    got = catalogue.read(llamacpp_files.LADDER)
    if not isinstance(got, Recording):
        return
    code = next((pl for pl in real_ladder.prompt_ladders(got, real_ladder.LADDERS["draft"]) if pl.prompt == "code"), None)
    if code is None or any(r.rate is None for r in code.rungs):
        return
    f16, q4, draft = code.rungs
    st.markdown(f"{kind_markdown('measured')} " + T("ours", prompt=code.prompt, f16=f16.rate, q4=q4.rate,
                                                    quant=times(q4.vs_previous), draft=draft.rate,
                                                    drafter=times(draft.vs_previous)) + " " + tr(*F16_NOTE))
    gpu_headline(code.prompt)


def gpu_headline(prompt: str) -> None:
    """The same model, prompt and draft model on the H200, where neither step pays (the ladder page's H200 choice)."""
    file, arms = real_ladder.MACHINE_LADDERS["h200"]["draft"]
    got = catalogue.read(file)
    if not isinstance(got, Recording):
        return
    same = next((pl for pl in real_ladder.prompt_ladders(got, arms) if pl.prompt == prompt), None)
    if same is None or any(r.rate is None for r in same.rungs):
        return
    bf16, q4, draft = same.rungs
    defect = draft_graphs_defect(got.arm(draft.arm))  # then the drafter's figure is the engine's, said beside it
    st.markdown(f"{kind_markdown('measured')} " + T("ours_h200_defect" if defect else "ours_h200", bf16=bf16.rate,
                                                    q4=q4.rate, quant=times(q4.vs_previous), draft=draft.rate,
                                                    drafter=times(draft.vs_previous),
                                                    defect=defect.markdown(lang()) if defect else ""))


st.title(T("title"))
hero()
st.markdown(T("story"))
our_headline()
st.subheader(T("kinds"))
st.markdown(T("kinds_intro"))
st.markdown("\n".join(f"- {kind_markdown(kind)} {tr(*KIND_MEANING[kind])}" for kind in KIND_MEANING))
st.subheader(T("explore"))
for p in PAGES:
    if p != START:
        link(p.name, T(f"go_{p.name}"))
