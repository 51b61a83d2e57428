"""The start page's words (Korean, English), read through views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
    # (a) the two ladders (views/home_ladders.py)
    "title": ("몇 배 빨라지는 이유, 그리고 사라지는 때", "Several times faster — and when it isn't"),
    "article_ladder": ("기사 000: B200 · Qwen3.8-27B", "article 000: B200 · Qwen3.8-27B"),
    "our_ladder": ("우리: H200 · 27B급 · 수용 길이를 000의 코드 수치 {acceptance:g}로 정함",
                   "ours: H200 · 27B-class · acceptance set to 000's code {acceptance:g}"),
    "ceiling_note": ("천장 = 잰 메모리 대역폭 ÷ 토큰당 가중치 바이트 × 스텝당 토큰; 우리 팔은 시간만 유효(가짜 가중치).",
                     "Ceiling = measured bandwidth ÷ weight bytes per token × tokens per step; our arms are timing only "
                     "(dummy weights)."),
    "col_rung": ("단계", "rung"),
    "col_article": ("기사 000 tok/s", "article 000 tok/s"),
    "col_ours": ("우리 tok/s", "ours tok/s"),
    "col_prev": ("× 앞 단계 대비", "× vs the rung before"),
    "col_first": ("× 원본 대비", "× vs the original"),
    "col_ceiling": ("천장 대비 %", "% of ceiling"),
    "rung_0": ("①\u00a0bf16", "①\u00a0bf16"),
    "rung_1": ("②\u00a04비트", "②\u00a04-bit"),
    "rung_2": ("③\u00a0+\u00a0드래프터", "③\u00a0+\u00a0drafter"),
    # (b) the replay (views/hero.py)
    "hero_title": ("**드래프터가 이기는 실제 텍스트**: {prompt} 프롬프트, 2코어 CPU의 llama.cpp",
                   "**A drafter winning on real text**: the {prompt} prompt, llama.cpp on a 2-core CPU"),
    "hero_none": ("드래프터가 이기는 실제 녹화가 아직 없어 여기에 재생을 보여 줄 수 없습니다.",
                  "No bundled real recording has a drafter winning yet, so there is no replay to show here."),
    "hero_alt": ("F16과 F16 + 0.5B 드래프트 모델의 나란히 재생", "F16 and F16 + 0.5B draft model replayed side by side"),
    "hero_rate_help": ("디코드 tok/s (첫 토큰 제외), 중앙값 반복. 배수 = 디코드 속도 ÷ 이름 붙은 기준 팔의 것.",
                       "Decode tok/s (first token excluded), median repeat. Multiplier = decode rate ÷ the named "
                       "reference arm's."),
    "vs": ("{ref} 대비", "vs {ref}"),
    "hero_quant": ("같은 드래프터를 4비트 타깃에 붙이면: Q4_K_M {q4:.1f} → + 드래프트 {q4d:.1f} tok/s, **Q4_K_M 대비 {gain}**. "
                   "양자화가 드래프터의 배수를 줄입니다 — 기사 001의 발견과 같은 방향 (bf16 {b0:g} → {b1:g}, {bg}; "
                   "4비트 {q0:g} → {q1:g}, {qg}).",
                   "The same drafter on the 4-bit target: Q4_K_M {q4:.1f} → + draft {q4d:.1f} tok/s, **{gain} vs "
                   "Q4_K_M**. Quantization shrinks the drafter's multiplier — the direction of article 001's finding "
                   "(bf16 {b0:g} → {b1:g}, {bg}; 4-bit {q0:g} → {q1:g}, {qg})."),
    "hero_open": ("이 재생을 크게, 다른 녹화·프롬프트로", "Open this replay full size, or another recording or prompt"),
    # (c) the crossing
    "crossing_title": ("동시 접속이 늘면: 배수가 1.0 아래로", "More concurrent streams: the multiplier drops below 1.0"),
    "crossing_article": ("기사 001 (INT4 · 256k · Edge 예산, 자유 서술): 드래프터 켬 ÷ 끔", 
                         "Article 001 (INT4 · 256k · Edge budget, free prose): drafter on ÷ off"),
    "crossing_ours": ("우리 (이 CPU, F16 + 0.5B 드래프트 ÷ F16, 스트림마다의 디코드 속도)",
                      "Ours (this CPU, F16 + 0.5B draft ÷ F16, each stream's decode rate)"),
    "crossing_at": ("{level}개 스트림부터 1.0 아래", "below 1.0 from {level} streams"),
    "crossing_none": ("측정한 수준에서는 1.0 아래로 내려가지 않음", "not below 1.0 at any measured level"),
    "col_level": ("동시 스트림", "streams"),
    "not_measured": ("미측정", "not measured"),
    # below the fold
    "kinds": ("숫자의 다섯 가지 종류", "Five kinds of numbers"),
    "explore": ("둘러보기", "Explore"),
    "go_replay": ("따로 녹화한 팔들을 한 시계 위에서 나란히 재생", "Arms recorded separately, replayed side by side on one clock"),
    "go_acceptance": ("수용률 α와 드래프트 길이 γ가 배수를 정하는 방식", "How acceptance rate α and draft length γ set the speedup"),
    "go_concurrency": ("동시 접속이 늘면 배수가 1.0 아래로", "More concurrent users push the speedup below 1.0"),
    "go_ladder": ("bf16 → 4비트 → 드래프터 계단, 물리적 천장과 함께", "The bf16 → 4-bit → drafter ladder, with its physics ceiling"),
    "go_cost": ("100만 토큰당 비용과 KV 캐시 예산", "Cost per 1M tokens and the KV-cache budget"),
    "go_chooser": ("내 상황에는 어떤 추측 디코딩이 맞나", "Which speculative decoding fits my situation"),
    "go_roofline": ("왜 4비트가 큰 배치에서 느려지나 (H200 실측)", "Why 4-bit can lose at large batch (measured on an H200)"),
}
