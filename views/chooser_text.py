"""The chooser page's words (Korean, English), read through views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
    'doc_rating': ('vLLM 문서의 이득: 저QPS(지연 중심) **{low}**, 고QPS(처리량 중심) **{high}** — {note}',
        "vLLM's documentation rates the gain: low QPS (latency) **{low}**, high QPS (throughput) **{high}** — {note}"),
    'which_speculative_decoding_to': ('어떤 추측 디코딩을 켤까',
        'Which speculative decoding to turn on'),
    'pick_what_you_have': ('가진 것과 서비스 조건을 고르면, 기사들이 권하는 방식과 그 근거가 된 숫자, 출처가 나옵니다. 추천은 기사 004의 상황별 추천 표와 기사 000·001의 측정을 따릅니다. 최종 판단은 자기 트래픽으로 켠 것과 끈 것을 재서 내리세요.',
        "Pick what you have and how you serve; you get the methods the articles recommend, the figures behind each recommendation and their sources. The rules follow article 004's situation → recommendation table and the measurements of articles 000 and 001. The final call is a measurement: on vs off with your own traffic."),
    'methods_that_fit': ('맞는 방식',
        'Methods that fit'),
    'what_the_articles_did': ('기사들이 재지 않은 것, 숫자를 읽는 법',
        'What the articles did not measure, and how to read their numbers'),
    'the_articles_recommend_no': ('이 조합에 맞는 추천이 기사에 없습니다. 아래 이유와 일반 조언을 보세요.',
        'The articles recommend no method for this combination; see the reasons and advice below.'),
    'none_pays_here': ('이 답에서는 어느 방식도 이득이 없습니다: 남는 방식 `{method}`의 우리 측정 중 가장 좋은 것이 {figure}입니다.',
        'None pays here: the best we measured for the one method left, `{method}`, is {figure}.'),
    'whatever_the_method': ('방식과 상관없이',
        'Whatever the method'),
    'check_that_your_traffic': ('복사형이 정말 많은지 자기 트래픽으로 확인하세요. ',
        'Check that your traffic really copies that much. '),
    'see_it_on_the': ('수용률 페이지에서 α {alpha:.2f}, γ {gamma}로 보기',
        'See it on the acceptance page at α {alpha:.2f}, γ {gamma}'),
    'see_it_on_the_2': ('동시 접속 페이지에서 {level}에 두고 보기',
        'See it on the concurrency page at {level}'),
    'alpha_2f_is_the': ('α {alpha:.2f}는 γ={gamma}에서 수용 길이 {rule_acceptance_length:g}가 되는 α입니다(E[τ] = 수용 길이를 α에 대해 풂).',
        'α {alpha:.2f} is the α at which the acceptance length is {rule_acceptance_length:g} at γ={gamma} (E[τ] = acceptance length, solved for α).'),
}

# The questions and their answers, the verdict badges and vLLM's ratings: (Korean, English) pairs, as pick() reads them.
ANSWERS: dict[str, tuple[tuple[str, str], dict[str, tuple[str, str]]]] = {  # question → (Korean, English) label, then each answer's (Korean, English) label
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
