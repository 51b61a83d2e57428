"""The 27B-class H200 panels' words (Korean, English), read through views.texts.Texts: the panels sit on the
ladder, concurrency and roofline pages (views/full_scale.py)."""

TEXT: dict[str, tuple[str, str]] = {
    "timing": ("타이밍 전용 — 더미 가중치", "timing only — dummy weights"),
    "badge": ("측정한 타이밍 · 인용한 수용 길이", "measured timing, quoted acceptance"),
    "shape_note": ("Gemma-3-27B 층 모양, 더미 가중치; H200에는 NVFP4가 없어 4비트는 W4A16(GPTQ → Marlin).",
                   "Gemma-3-27B layer shapes, dummy weights; NVFP4 needs Blackwell, so 4-bit here is W4A16 (GPTQ → "
                   "Marlin)."),
    "no_levels": ("`recordings/{name}`에 아직 비교할 수준이 없습니다: 필요한 팔 {arms}의 끝난 요청이 없습니다 (녹화 중인 "
                  "파일이거나 팔 이름이 바뀐 파일).",
                  "`recordings/{name}` has nothing to compare yet: no finished request of the arms it needs ({arms}) — "
                  "a file still being recorded, or one whose arms were renamed."),
    "missing": ("`recordings/{name}`이 없습니다 (docs/gpu.md).", "`recordings/{name}` is not here (docs/gpu.md)."),
    "badge_note": ("속도는 H200에서 잼, 수용 길이는 기사의 수치로 정함(vLLM 합성 거절 샘플링). ",
                   "speed measured on the H200; acceptance set to an article's figure (vLLM's synthetic rejection "
                   "sampling). "),
    # the ladder page's panel
    "ladder_title": ("H200 · 27B급 · 우리 엔진의 계단, 기사의 수용 길이에서 (타이밍 전용)",
                     "H200 · 27B-class · our engine's ladder at the articles' acceptance (timing only)"),
    "col_article_row": ("기사 행", "article row"),
    "col_set_acceptance": ("정한 수용 길이", "set acceptance"),
    "col_recorded_acceptance": ("기록된 수용 길이", "recorded acceptance"),
    "col_w4_rate": ("4비트 tok/s", "4-bit tok/s"),
    "col_x_w4": ("×4비트", "×4-bit"),
    "col_drafter_rate": ("+ 드래프터 tok/s", "+ drafter tok/s"),
    "col_x_drafter": ("×드래프터", "×drafter"),
    "col_product": ("곱", "product"),
    "col_draft_cost": ("c (드래프트 1회 ÷ 타깃 1스텝, 계산)", "c (one drafting pass ÷ one target step, computed)"),
    "col_ceiling": ("천장 대비 % (bf16 · 4비트 · 드래프터, 계산)", "% of ceiling (bf16 · 4-bit · drafter, computed)"),
    "ladder_note": (
        "기사 000(B200, NVFP4, 드래프터 자신의 수용): {article} tok/s. 요청 하나씩, 3회 중앙값, 256토큰 강제. "
        "c = 드래프트 1회 ÷ 타깃 1스텝(수용률 페이지의 c): 드래프터가 있는 스텝 = 1 + γc 스텝(γ = 7); "
        "×드래프터 = 수용 길이 ÷ (1 + γc).",
        "Article 000 (B200, NVFP4, the drafter's own acceptance): {article} tok/s. One request at a time, median of "
        "3, 256 forced tokens. c = one drafting pass ÷ one target step (the acceptance page's c): a step with the "
        "drafter lasts 1 + γc steps (γ = 7); ×drafter = acceptance ÷ (1 + γc)."),
    "col_bf16_drafter": ("bf16 → + 드래프터", "bf16 → + drafter"),
    "col_w4_drafter": ("4비트 → + 드래프터", "4-bit → + drafter"),
    "article_001": ("기사 001(B200): bf16 {b0:g} → {b1:g}, 4비트 {q0:g} → {q1:g} tok/s — 드래프터의 이득은 bf16 위에서 더 큽니다. ",
                    "Article 001 (B200): bf16 {b0:g} → {b1:g}, 4-bit {q0:g} → {q1:g} tok/s — the drafter gains more on "
                    "bf16. "),
    # the concurrency page's panel
    "concurrency_title": ("H200 · 27B급 · 드래프터 켬 ÷ 끔, 1–64 스트림 (타이밍 전용)",
                          "H200 · 27B-class · drafter on ÷ off at 1–64 streams (timing only)"),
    "trace_w4_drafter": ("4비트 + 드래프터 · 수용 {length:g}", "4-bit + drafter · L {length:g}"),
    # Plotly's own placeholders: read without values, so the braces stay as they are
    "hover_streams": ("동시 %{x}: %{y:.2f}×", "%{x} streams: %{y:.2f}×"),
    "drafter_off": ("드래프터 끔 = 1.0", "drafter off = 1.0"),
    "drafter_question": ("드래프터를 켜면 시스템 처리량이 몇 배인가? (27B급, 4비트 대상)",
                         "How many times the system throughput with the drafter on? (27B-class, 4-bit target)"),
    "streams_log": ("동시 스트림 수 (로그 눈금)", "concurrent streams (log scale)"),
    "on_off": ("켬 ÷ 끔", "on ÷ off"),
    "crossing": ("수용 {length:g}: 동시 {crossing}부터 1.0 아래", "L {length:g}: below 1.0 from {crossing} streams on"),
    "pays_to_at": ("수용 {length:g}: {level}까지 이득 ({level}에서 {top})",
                   "L {length:g}: pays up to {level} ({top} at {level})"),
    "bf16_lead": ("같은 드래프터를 bf16 대상에 붙이면(같은 H200, recordings/{file}): ",
                  "The same drafter on the bf16 target (same H200, recordings/{file}): "),
    "below_from": ("{level}부터 1.0 아래", "below 1.0 from {level}"),
    "pays_to": ("{level}까지 이득", "pays up to {level}"),
    "bf16_tail": (" — 4비트 대상이 더 일찍 손해로 넘어갑니다(드래프터 비용이 더 짧은 스텝에 더해짐).",
                  " — the 4-bit target turns a loss sooner (the drafter's cost is added to a shorter step)."),
    "breakeven_title": ("손익분기 지도: 정한 수용 길이 × 동시 스트림 (27B급, 4비트 대상)",
                        "Break-even map: set acceptance length × streams (27B-class, 4-bit target)"),
    "streams": ("동시 스트림 수", "concurrent streams"),
    "set_length": ("정한 수용 길이", "set acceptance length"),
    "edge_lead": ("드래프터가 이득이 되기 시작하는 수용 길이(측정한 길이 사이를 읽음): ",
                  "The acceptance length from which the drafter pays (read between measured lengths): "),
    "edge_tail": (". 시스템 처리량 = 단계의 모든 출력 토큰 ÷ (첫 요청 → 마지막 청크), 요청당 64토큰. 수용 1.5의 2스트림 "
                  "값은 vLLM이 새 배치 모양의 Triton 커널을 컴파일한 한 번의 정지입니다(docs/gpu.md).",
                  ". System throughput = all of a level's output tokens ÷ (first request → last chunk), 64 tokens a "
                  "request. L 1.5 at 2 streams is a one-off stall while vLLM compiled a Triton kernel for a new batch "
                  "shape (docs/gpu.md)."),
    # the roofline page's panel
    "roofline_title": ("5. 27B급 서빙: vLLM · H200 · 타이밍 전용", "5. 27B-class serving: vLLM · H200 · timing only"),
    "w4_marlin": ("4비트 GPTQ → Marlin", "4-bit GPTQ → Marlin"),
    "quant_question": ("27B급에서 4비트와 fp8은 bf16보다 몇 배인가? (시스템 처리량)",
                       "How many times bf16 are 4-bit and fp8 at 27B-class? (system throughput)"),
    "vs_bf16": ("BF16 대비", "÷ BF16"),
    "quant_note": ("{measured} 가중치 읽기가 스텝의 대부분인 27B급에서 4비트는 동시 1–16에서 {low} 이상, {level}에서 {top}입니다. ",
                   "{measured} At 27B-class, where reading weights is most of a step, 4-bit gives at least {low} at "
                   "1–16 streams and {top} at {level}. "),
}
