"""Method chooser: the reader's situation → which speculative-decoding methods fit, with the cited figures and why."""

import streamlit as st

from specreplay import chooser
from specreplay.views.shell import page_file
from specreplay.views import url_state
from specreplay.views.chooser_text import TEXT
from specreplay.views.texts import Texts
from specreplay.views.ui import kind_markdown, lang, page_intro, plain, source_line, tr

T = Texts(TEXT)
ANSWERS = {  # question → (Korean, English) label, then each answer's (Korean, English) label
    "drafter": (("무엇을 갖고 있나요?", "What do you have?"), {
        "eagle3": ("이 모델용으로 학습된 EAGLE-3 드래프터", "an EAGLE-3 drafter trained for this model"),
        "mtp": ("MTP 층이 든 체크포인트 (DeepSeek-V3, GLM-4.5 계열)", "a checkpoint with MTP layers (DeepSeek-V3, GLM-4.5)"),
        "small_model": ("같은 토크나이저의 같은 계열 소형 모델", "a small model of the same family and tokenizer"),
        "none": ("아무것도 없음", "none of these")}),
    "copies": (("출력이 입력을 많이 베끼나요? (RAG, 요약, 코드 수정)", "Does the output copy the input? (RAG, summaries, code edits)"), {
        "yes": ("예", "yes"), "no": ("아니요, 새로 씀 (대화, 글쓰기)", "no, it writes anew (chat, writing)")}),
    "concurrency": (("동시 요청은 몇 개쯤인가요?", "How many concurrent requests?"), {
        "low": ("몇 개 (1–4)", "a few (1–4)"), "mid": ("8–16개 안팎", "around 8–16"),
        "high": ("피크 때 수십 이상 (배치 24+)", "tens or more at peak (batch 24+)")}),
    "memory": (("GPU 메모리에 여유가 있나요?", "Is there GPU memory to spare?"), {
        "yes": ("예", "yes"), "no": ("아니요, KV 캐시가 빠듯함", "no, the KV cache is tight")}),
    "temperature": (("샘플링 온도는?", "Sampling temperature?"), {
        "low": ("낮음 (0 근처)", "low (near 0)"), "high": ("높음 (창작 등)", "high (creative writing etc.)")}),
}
VERDICT = {"recommend": (":green-badge[추천]", ":green-badge[recommended]"),
           "avoid": (":red-badge[피하기]", ":red-badge[avoid]"),
           "measure": (":orange-badge[재 보고 정하기]", ":orange-badge[measure first]"),
           "setting": (":blue-badge[설정]", ":blue-badge[setting]")}
RATING = {"low_medium": ("낮음~중간", "low–medium"), "medium": ("중간", "medium"),
          "medium_high": ("중간~높음", "medium–high"), "high": ("높음", "high")}
DEFAULTS = {"drafter": "none", "copies": "no", "concurrency": "low", "memory": "yes", "temperature": "low"}


def pick(en_ko: tuple[str, str]) -> str:
    return en_ko[1] if lang() == "en" else en_ko[0]


def figure_source(fig: chooser.Figure) -> str:
    """An article figure's source line, or for a cell of our recordings the file, engine and machine."""
    if isinstance(fig, chooser.RecordedFigure):
        return plain(f"recordings/{fig.file} · {fig.engine} · {fig.machine}", 300)
    return source_line(fig)


def figures(items: tuple) -> None:
    """Each cited figure on its own line: kind badge, value, and its source line."""
    for text, fig in chooser.describe(items, lang()):
        st.markdown(f"- {kind_markdown(fig.kind)} **{text}** — {figure_source(fig)}")


def links(rule: chooser.Rule) -> None:
    """Where to see the rule on the other pages, opened at its settings (those pages read them from the URL)."""
    setting = rule.alpha_gamma()
    if setting:
        alpha, gamma = setting
        st.page_link(page_file("acceptance"), icon=":material/tune:", query_params={
            "alpha": f"{alpha:.2f}", "gamma": str(gamma), "lang": lang()}, label=T("see_it_on_the", alpha=alpha, gamma=gamma))
        if "length" in rule.acceptance:
            st.caption(kind_markdown("computed") + " " + T("alpha_2f_is_the", alpha=alpha, gamma=gamma, rule_acceptance_length=rule.acceptance['length']))
    if rule.concurrency:
        level = min((lv for lv in (1, 2, 4, 8, 16, 32, 64) if lv >= rule.concurrency), default=64)
        st.page_link(page_file("concurrency"), icon=":material/groups:", query_params={
            "level": str(level), "lang": lang()}, label=T("see_it_on_the_2", level=level))


def rule_block(rule: chooser.Rule) -> None:
    st.markdown(f"{pick(VERDICT[rule.verdict])} **{tr(rule.situation_ko, rule.situation_en)}** — "
                f"{tr(rule.why_ko, rule.why_en)}")
    st.caption(kind_markdown("quoted") + " " + source_line(rule))
    figures(rule.figures)
    links(rule)


page_intro(T("which_speculative_decoding_to"), T("pick_what_you_have"))

CONTROLS = [url_state.Control(f"ask_{q}", str, DEFAULTS[q], options=list(opts), param=q)
            for q, (_, opts) in ANSWERS.items()]
url_state.restore(CONTROLS)
cols = st.columns(len(ANSWERS))
answers = {}
for col, (q, (question, options)) in zip(cols, ANSWERS.items()):
    with col:
        labels = {v: pick(label) for v, label in options.items()}  # formatted now, in the page's language
        answers[q] = st.radio(pick(question), list(options), key=f"ask_{q}", format_func=labels.get)
url_state.publish(CONTROLS)

fits, advice = chooser.choose(answers)
st.subheader(T("methods_that_fit"))
if not any(f.verdict == "recommend" for f in fits):
    st.info(T("the_articles_recommend_no"))
for fit in fits:
    m = fit.method
    with st.container(border=True):
        st.markdown(f"### {pick(VERDICT[fit.verdict])} `{m.id}` · {tr(m.name_ko, m.name_en)}")
        st.markdown(kind_markdown("quoted") + " " + tr(
            f"vLLM 문서의 이득: 저QPS(지연 중심) **{RATING[m.low_qps][0]}**, 고QPS(처리량 중심) **{RATING[m.high_qps][0]}** — "
            f"{m.doc_note_ko}",
            f"vLLM's documentation rates the gain: low QPS (latency) **{RATING[m.low_qps][1]}**, high QPS (throughput) "
            f"**{RATING[m.high_qps][1]}** — {m.doc_note_en}") + f" · {source_line(m)}")
        for rule in fit.rules:
            rule_block(rule)

if advice:
    st.subheader(T("whatever_the_method"))
    for rule in advice:
        with st.container(border=True):
            rule_block(rule)

caveats = chooser.caveats()
if answers["copies"] == "yes":
    c = caveats["benchmarks_overstate"]
    st.warning(T("check_that_your_traffic")
               + tr(c.text_ko, c.text_en))
    figures(c.figures)

st.subheader(T("what_the_articles_did"))
for c in caveats.values():
    st.markdown(f"- {tr(c.text_ko, c.text_en)} — {source_line(c)}")
    if c.figures and not (answers["copies"] == "yes" and c.id == "benchmarks_overstate"):
        figures(c.figures)
