"""The chooser page's words (Korean, English), read through views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
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
