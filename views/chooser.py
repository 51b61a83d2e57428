"""Method chooser: the reader's situation → which speculative-decoding methods fit, with the cited figures and why."""

import streamlit as st

from specreplay import chooser
from specreplay.views.shell import page_file
from specreplay.views import url_state
from specreplay.views.ui import kind_markdown, lang, page_intro, plain, source_line, tr

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
            "alpha": f"{alpha:.2f}", "gamma": str(gamma), "lang": lang()}, label=tr(
            f"수용률 페이지에서 α {alpha:.2f}, γ {gamma}로 보기", f"See it on the acceptance page at α {alpha:.2f}, "
            f"γ {gamma}"))
        if "length" in rule.acceptance:
            st.caption(kind_markdown("computed") + " " + tr(
                f"α {alpha:.2f}는 γ={gamma}에서 수용 길이 {rule.acceptance['length']:g}가 되는 α입니다(E[τ] = 수용 길이를 α에 대해 풂).",
                f"α {alpha:.2f} is the α at which the acceptance length is {rule.acceptance['length']:g} at γ={gamma} "
                "(E[τ] = acceptance length, solved for α)."))
    if rule.concurrency:
        level = min((lv for lv in (1, 2, 4, 8, 16, 32, 64) if lv >= rule.concurrency), default=64)
        st.page_link(page_file("concurrency"), icon=":material/groups:", query_params={
            "level": str(level), "lang": lang()}, label=tr(
            f"동시 접속 페이지에서 {level}에 두고 보기", f"See it on the concurrency page at {level}"))


def rule_block(rule: chooser.Rule) -> None:
    st.markdown(f"{pick(VERDICT[rule.verdict])} **{tr(rule.situation_ko, rule.situation_en)}** — "
                f"{tr(rule.why_ko, rule.why_en)}")
    st.caption(kind_markdown("quoted") + " " + source_line(rule))
    figures(rule.figures)
    links(rule)


page_intro(tr("어떤 추측 디코딩을 켤까", "Which speculative decoding to turn on"), tr(
    "가진 것과 서비스 조건을 고르면, 기사들이 권하는 방식과 그 근거가 된 숫자, 출처가 나옵니다. 추천은 기사 004의 상황별 "
    "추천 표와 기사 000·001의 측정을 따릅니다. 최종 판단은 자기 트래픽으로 켠 것과 끈 것을 재서 내리세요.",
    "Pick what you have and how you serve; you get the methods the articles recommend, the figures behind each "
    "recommendation and their sources. The rules follow article 004's situation → recommendation table and the "
    "measurements of articles 000 and 001. The final call is a measurement: on vs off with your own traffic."))

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
st.subheader(tr("맞는 방식", "Methods that fit"))
if not any(f.verdict == "recommend" for f in fits):
    st.info(tr("이 조합에 맞는 추천이 기사에 없습니다. 아래 이유와 일반 조언을 보세요.",
               "The articles recommend no method for this combination; see the reasons and advice below."))
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
    st.subheader(tr("방식과 상관없이", "Whatever the method"))
    for rule in advice:
        with st.container(border=True):
            rule_block(rule)

caveats = chooser.caveats()
if answers["copies"] == "yes":
    c = caveats["benchmarks_overstate"]
    st.warning(tr("복사형이 정말 많은지 자기 트래픽으로 확인하세요. ", "Check that your traffic really copies that much. ")
               + tr(c.text_ko, c.text_en))
    figures(c.figures)

st.subheader(tr("기사들이 재지 않은 것, 숫자를 읽는 법", "What the articles did not measure, and how to read their numbers"))
for c in caveats.values():
    st.markdown(f"- {tr(c.text_ko, c.text_en)} — {source_line(c)}")
    if c.figures and not (answers["copies"] == "yes" and c.id == "benchmarks_overstate"):
        figures(c.figures)
