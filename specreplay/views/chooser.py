"""Method chooser: the reader's situation → which speculative-decoding methods fit, with the cited figures and why."""

import streamlit as st

from specreplay.explain import chooser
from specreplay.views import url_state
from specreplay.views.chart_parts import page_sources
from specreplay.views.pages import link
from specreplay.views.texts import Texts
from specreplay.views.ui import kind_markdown, lang, localized, page_intro, plain, shown_kind, source_line

T = Texts("chooser")
DEFAULTS = {"drafter": "none", "copies": "no", "concurrency": "low", "memory": "yes", "temperature": "low"}


def verdict(name: str) -> str:
    """The verdict's badge: recommend, avoid, measure or setting."""
    return T(f"verdict_{name}")


def figure_source(fig: chooser.Figure) -> str:
    """An article figure's source line, or for a cell of our recordings the file, engine and machine."""
    if isinstance(fig, chooser.RecordedFigure):
        return plain(f"recordings/{fig.file} · {fig.engine} · {fig.machine}", 300)
    return source_line(fig)


def figures(items: tuple, answers: dict[str, str], fold: bool = True) -> None:
    """Each cited figure on its own line: kind badge, value and source line. Those measured under other answers
    than the reader's are comparisons, not evidence for their situation: marked, and folded into one expander
    after the evidence (unless already inside one: Streamlit nests none)."""
    lines = []
    for text, fig in chooser.describe(items, lang()):
        other = chooser.differs(fig, answers)
        mark = " " + T("other_setting", questions=", ".join(T(f"setting_{q}") for q in other)) if other else ""
        lines.append((bool(other), f"- {kind_markdown(shown_kind(fig))} **{text}**{mark} — {figure_source(fig)}"))
    for _, line in [x for x in lines if not x[0] or not fold]:
        st.markdown(line)
    compared = [line for other, line in lines if other]
    if fold and compared:
        with st.expander(T("compared", n=len(compared))):
            for line in compared:
                st.markdown(line)


def links(rule: chooser.Rule) -> None:
    """Where to see the rule on the other pages, opened at its settings (those pages read them from the URL)."""
    setting = rule.alpha_gamma()
    if setting:
        alpha, gamma = setting
        link("acceptance", T("link_acceptance", alpha=alpha, gamma=gamma),
             query={"alpha": f"{alpha:.2f}", "gamma": str(gamma), "lang": lang()})
        if "length" in rule.acceptance:
            st.caption(kind_markdown("computed") + " " + T("alpha_from_length", alpha=alpha, gamma=gamma, rule_acceptance_length=rule.acceptance['length']))
    if rule.concurrency:
        level = min((lv for lv in (1, 2, 4, 8, 16, 32, 64) if lv >= rule.concurrency), default=64)
        link("concurrency", T("link_concurrency", level=level), query={"level": str(level), "lang": lang()})


def rule_block(rule: chooser.Rule, answers: dict[str, str]) -> None:
    st.markdown(f"{verdict(rule.verdict)} **{localized(rule, 'situation')}** — "
                f"{localized(rule, 'why')}")
    st.caption(kind_markdown("quoted") + " " + source_line(rule))
    figures(rule.figures, answers)
    links(rule)


page_intro(T("title"), T("intro"))
page_sources(["vllm_docs", "eagle3_table1", "leviathan"])

CONTROLS = [url_state.Control(f"ask_{q}", str, DEFAULTS[q], options=list(opts), param=q)
            for q, opts in chooser.QUESTIONS.items()]
url_state.restore(CONTROLS)
cols = st.columns(len(chooser.QUESTIONS))
answers = {}
for col, (q, options) in zip(cols, chooser.QUESTIONS.items()):
    with col:
        labels = {v: T(f"answer_{q}_{v}") for v in options}  # formatted now, in the page's language
        answers[q] = st.radio(T(f"question_{q}"), list(options), key=f"ask_{q}", format_func=labels.get)
url_state.publish(CONTROLS)

def none_pays(fits: list[chooser.Fit], answers: dict[str, str]) -> None:
    """No method recommended: the best speedup we measured, under the reader's own answers, for a method advised
    against (the articles' word alone when we measured none there)."""
    best = chooser.best_measured(fits, answers)
    if best is None:
        st.info(T("none_recommended"))
        return
    method, fig = best
    text = chooser.describe((fig,), lang())[0][0]
    key = "none_pays_here" if fig.value < 1 else "none_recommended_measured"
    st.info(f"{kind_markdown('measured')} " + T(key, method=method.id, figure=text) + f" — {figure_source(fig)}")


fits, advice = chooser.choose(answers)
st.subheader(T("methods_that_fit"))
if not any(f.verdict == "recommend" for f in fits):
    none_pays(fits, answers)
for fit in fits:
    m = fit.method
    with st.container(border=True):
        st.markdown(f"### {verdict(fit.verdict)} `{m.id}` · {localized(m, 'name')}")
        st.markdown(kind_markdown("quoted") + " " + T("doc_rating", low=T(f"rating_{m.low_qps}"),
                                                      high=T(f"rating_{m.high_qps}"),
                                                      note=localized(m, "doc_note")) + f" · {source_line(m)}")
        for rule in fit.rules:
            rule_block(rule, answers)

if advice:
    st.subheader(T("advice_title"))
    for rule in advice:
        with st.container(border=True):
            rule_block(rule, answers)

caveats = chooser.caveats()
if answers["copies"] == "yes":
    c = caveats["benchmarks_overstate"]
    st.warning(T("copies_check")
               + localized(c, "text"))
    figures(c.figures, answers)

with st.expander(T("caveats_expander")):
    for c in caveats.values():
        st.markdown(f"- {localized(c, 'text')} — {source_line(c)}")
        if c.figures and not (answers["copies"] == "yes" and c.id == "benchmarks_overstate"):
            figures(c.figures, answers, fold=False)
