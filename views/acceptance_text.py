"""The acceptance page's words (Korean, English) for its measured sections: the formula fitted to our arms, the
drafter's cost c on F16 and Q4, acceptance length per prompt kind. Read through views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
    "fit_title": ("공식은 우리 팔의 속도를 맞히는가?", "Does the formula predict our arms' speedup?"),
    "fit_intro": (
        "녹화된 추측 팔마다 카운터에서 α를, 스텝 시간에서 c(드래프터 비용 ÷ 타깃 1스텝)를 재서 공식 E[τ] ÷ (1 + γc)에 "
        "넣었습니다. 점이 대각선 위에 있으면 공식이 맞힌 것이고, 아래로 떨어진 만큼이 공식이 모르는 비용입니다.",
        "For every recorded speculative arm, α comes from its counters and c (the drafter's cost ÷ one target step) "
        "from its step times; both go into the formula E[τ] ÷ (1 + γc). A point on the diagonal is a speedup the "
        "formula predicted; how far below it falls is a cost the formula does not know about."),
    "fit_engine": ("어느 녹화", "Which recordings"),
    "engine_llamacpp": ("llama.cpp (Qwen2.5-Coder-1.5B, CPU)", "llama.cpp (Qwen2.5-Coder-1.5B, CPU)"),
    "engine_vllm": ("vLLM (SmolLM2-135M, CPU·H200)", "vLLM (SmolLM2-135M, CPU · H200)"),
    "fit_x": ("공식이 말하는 배수 (잰 α, 잰 c)", "formula's speedup (measured α and c)"),
    "fit_y": ("잰 배수", "measured speedup"),
    "fit_diag": ("공식 = 실측", "formula = measured"),
    "fit_one": ("1.0 = 이득 없음", "1.0 = no gain"),
    "fit_empty": (
        "이 엔진의 추측 팔 녹화가 아직 없습니다. llama.cpp 계단 녹화(recordings/{file})가 들어오면 여기에 팔마다 점이 "
        "그려집니다.",
        "No speculative arm of this engine is recorded yet. Once the llama.cpp ladder recording (recordings/{file}) "
        "lands, each arm's cells are drawn here."),
    "fit_caption": (
        "점 하나 = 팔 하나 × 프롬프트 하나(반복 합산). 가로: 카운터의 수용 길이가 그 팔의 γ에서 뜻하는 α와, 스텝 시간 ÷ "
        "기준 팔의 토큰 시간 = 1 + γc로 잰 c를 넣은 공식. 세로: 같은 프롬프트의 디코드 tok/s 중앙값 비. 남는 차이(잔차)는 "
        "초안을 내지 못한 스텝입니다: 수용 길이는 초안이 있는 스텝만 셉니다.",
        "One point = one arm × one prompt (repeats pooled). Across: the formula with the α the counters' acceptance "
        "length implies at the arm's γ, and c from step time ÷ the baseline's token time = 1 + γc. Up: the measured "
        "ratio of median decode tok/s on the same prompt. What is left (the residual) is the steps that drafted "
        "nothing: the acceptance length counts drafting steps only."),
    "fit_gap": (
        "스텝 시간 ÷ 기준 토큰 시간 = 1 + γc는 여기서 {lo:.2f}–{hi:.2f}: 검증 1회가 보통 스텝보다 그만큼 깁니다. 공식의 이상(c = 0, "
        "γ + 1개 위치 검증이 1스텝 비용)은 메모리가 병목인 GPU의 가정이고, CPU에서는 검증 비용이 배수를 그만큼 깎습니다. 가장 큰 "
        "차이: {cell} {gap}, 초안 없는 스텝 {undrafted}.",
        "Step time ÷ baseline token time = 1 + γc is {lo:.2f}–{hi:.2f} here: one verification takes that many plain "
        "steps. The formula's ideal (c = 0: verifying γ + 1 positions costs one step) is a memory-bound GPU's; on a "
        "CPU the verify cost takes that much off. Largest gap: {cell} {gap}, {undrafted} of its steps without a "
        "draft."),
    "col_step": ("스텝 시간 ÷ 기준 토큰 시간", "step time ÷ baseline token time"),
    "col_recording": ("녹화", "recording"), "col_arm": ("팔", "arm"), "col_prompt": ("프롬프트", "prompt"),
    "col_kind": ("종류", "kind"), "col_length": ("수용 길이", "acceptance length"),
    "col_formula": ("공식, 잰 c", "formula, measured c"), "col_ideal": ("공식, c=0", "formula, c=0"),
    "col_measured": ("실측", "measured"), "col_residual": ("잔차 (실측 ÷ 공식 − 1)", "residual (measured ÷ formula − 1)"),
    "col_undrafted": ("초안 없는 스텝", "steps without a draft"), "col_link": ("계산기에서 열기", "open in the calculator"),
    "try_label": ("이 셀의 α·γ·c로 위 계산기를 맞추기", "Set the calculator above to this cell's α, γ and c"),
    "try_button": ("α·γ·c 옮기기", "Use these α, γ, c"),
    "try_note": ("위 슬라이더가 이 셀의 값으로 바뀝니다. 거기서 α나 c를 움직여 보세요. 주소(URL)에도 남아 공유할 수 있습니다.",
                 "The sliders above take this cell's values; move α or c from there. The address (URL) keeps them "
                 "for sharing."),
    "c_title": ("같은 드래프터가 왜 4비트 타깃에서는 덜 버는가: 잰 c",
                "Why the same drafter gains less on the 4-bit target: the measured c"),
    "c_intro": (
        "c는 드래프터 한 번의 비용을 타깃 1스텝으로 나눈 값입니다. 4비트 타깃은 1스텝이 싸므로, 같은 0.5B 드래프터라도 "
        "c가 커지고 공식 E[τ] ÷ (1 + γc)의 분모가 커집니다. 양자화가 드래프터의 배수를 줄이는 이유가 이것입니다(기사 001).",
        "c is one drafting pass's cost divided by one target step. A 4-bit target's step is cheap, so the same 0.5B "
        "drafter costs more relative to it: c grows and so does the denominator of E[τ] ÷ (1 + γc). That is why "
        "quantization shrinks the drafter's multiplier (article 001)."),
    "c_y": ("잰 c (드래프터 비용 ÷ 타깃 1스텝)", "measured c (drafter cost ÷ one target step)"),
    "c_metric": ("c 중앙값 · {arm}", "median c · {arm}"),
    "c_same_alpha": ("같은 α {alpha}, γ {gamma}에서 공식: {f16} (F16 타깃) 대 {q4} (Q4_K_M 타깃)",
                     "The formula at the same α {alpha}, γ {gamma}: {f16} (F16 target) vs {q4} (Q4_K_M target)"),
    "c_empty": ("드래프트 모델 팔이 있는 llama.cpp 계단 녹화(recordings/{file})가 아직 없습니다. 들어오면 F16과 Q4_K_M "
                "타깃의 c를 나란히 보여 줍니다.",
                "The llama.cpp ladder recording with draft-model arms (recordings/{file}) has not landed yet. Once "
                "it does, this shows c for the F16 and the Q4_K_M target side by side."),
    "kind_title": ("프롬프트 종류마다 수용 길이는 얼마인가?", "How long is the acceptance per prompt kind?"),
    "kind_y": ("수용 길이 (토큰 / 검증)", "acceptance length (tokens / verification)"),
    "kind_caption": (
        "수용 길이 = 1 + 채택 ÷ 초안(llama-server 응답의 timings.draft_n_accepted, draft_n; 반복 합산). 기사 000은 "
        "B200에서 DFlash2 K=7로 산문 2.2–2.5, 코드 5.3–5.6을 쟀습니다: 드래프터와 K가 달라 절댓값은 비교하지 않고, 종류 간 "
        "순서만 봅니다.",
        "Acceptance length = 1 + accepted ÷ drafts (llama-server's timings.draft_n_accepted and draft_n; repeats "
        "pooled). Article 000 measured prose 2.2–2.5 and code 5.3–5.6 on a B200 with DFlash2 K = 7: drafter and K "
        "differ, so compare the order between kinds, not the values."),
    "kind_empty": ("llama.cpp 계단 녹화(recordings/{file})가 들어오면 프롬프트 종류별 수용 길이를 그립니다.",
                   "Once the llama.cpp ladder recording (recordings/{file}) lands, this draws acceptance length per "
                   "prompt kind."),
    "sources": ("출처", "Sources"),
    "problem": ("읽을 수 없는 녹화: {problem}", "Recording not read: {problem}"),
}
