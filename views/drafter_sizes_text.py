"""The target-size panel's words (Korean, English), read through views.texts.Texts (views/drafter_sizes.py)."""

TEXT: dict[str, tuple[str, str]] = {
    "title": ("타깃이 얼마나 커야 드래프터가 이득일까?", "How big must the target be for a drafter to pay?"),
    "intro": (
        "bf16 타깃 네 크기를 혼자, 그리고 드래프터 세 종류와 함께 잰 것(H200, vLLM 0.23.0). 드래프터가 더하는 시간은 "
        "타깃과 거의 무관해서, 타깃이 클수록 c가 작아지고 손익분기 수용 길이(1 + γc 부근)가 내려갑니다.",
        "bf16 targets of four sizes, alone and with three drafter kinds (H200, vLLM 0.23.0). What a drafter adds "
        "hardly depends on the target, so the bigger the target, the smaller c and the lower the acceptance length "
        "from which the drafter pays (near 1 + γc)."),
    "badge": ("측정한 타이밍 · 정한 수용 길이 · H200, 한 호스트, 한 번의 대여", "measured timing, set acceptance · "
              "H200, one host, one lease"),
    "kind_draft": ("0.5B급 드래프트 모델 (K=4)", "0.5B-class draft model (K=4)"),
    "kind_dflash": ("DFlash형 드래프터 (K=7, 한 번에)", "DFlash-shaped drafter (K=7, one pass)"),
    "kind_eagle3": ("EAGLE-3형 헤드 (K=4)", "EAGLE-3-shaped head (K=4)"),
    "chart_title": ("드래프터가 이득이 나기 시작하는 수용 길이 (H200, 타깃 크기별)",
                    "Acceptance length from which a drafter pays (H200, by target size)"),
    "x": ("타깃 크기 (십억 파라미터, 로그)", "target size (billions of parameters, log)"),
    "y": ("손익분기 수용 길이 (스텝당 토큰)", "break-even acceptance length (tokens per step)"),
    "never": ("측정한 1.5–5 안에서는 이득 없음 (위쪽 표시)", "never pays within the measured 1.5–5 (marked at the top)"),
    "everywhere": ("가장 작은 1.5에서 이미 이득 (아래쪽 표시)", "already pays at the smallest, 1.5 (marked at the bottom)"),
    "band": ("기사 000 {label} {low:g}–{high:g}", "article 000 {label} {low:g}–{high:g}"),
    "col_target": ("타깃", "target"),
    "col_step": ("타깃 스텝 ms", "target step ms"),
    "col_kind": ("드래프터", "drafter"),
    "col_drafter_step": ("드래프터 포함 스텝 ms", "step with drafter, ms"),
    "col_cost": ("c (계산)", "c (computed)"),
    "col_break_even": ("손익분기 수용 길이", "break-even acceptance"),
    "col_at": ("수용 길이 {length:g}에서 ×", "× at acceptance {length:g}"),
    "never_cell": ("> 5 (없음)", "> 5 (never)"),
    "everywhere_cell": ("≤ 1.5", "≤ 1.5"),
    "note": (
        "요청 하나씩, 128토큰 강제, 디코드 tok/s(첫 토큰 제외) 2회 중앙값. 스텝 = 스텝당 토큰(카운터) ÷ 속도. 손익분기 = "
        "속도 비가 1.0을 넘는 수용 길이(측정한 길이 사이 직선 보간). 가중치는 더미라 글은 잡음이고 시간만 읽습니다. "
        "드래프트 모델은 vLLM 0.23.0의 결함(드래프트 모델 패스가 CUDA 그래프 없이 실행)을 업스트림 [PR #47460]({pr})과 "
        "같은 변경으로 고친 상태입니다. 고쳐도 이 호스트에서 드래프트 모델이 있는 스텝은 21–37 ms로, 타깃 크기와 무관하게 "
        "호스트 CPU에 묶여 있습니다(원인은 아직 분리하지 못함).",
        "One request at a time, 128 forced tokens, decode tok/s (first token excluded), median of 2. Step = tokens "
        "per step (the counters) ÷ rate. Break-even = the acceptance length where the rate ratio passes 1.0 (straight "
        "line between the measured lengths). Dummy weights: the text is noise, only the timing is read. The draft "
        "model runs with vLLM 0.23.0's defect (draft-model passes without CUDA graphs) fixed by the change of "
        "upstream [PR #47460]({pr}). Even fixed, a step with it takes 21–37 ms on this host whatever the target: bound by "
        "the host CPU (a cause not isolated yet)."),
    "before_after": (
        "결함 전후, 같은 호스트, 수용 길이 {length:g}: {size} 타깃 + 드래프트 모델 {before:.0f} tok/s(vLLM 0.23.0 그대로) → "
        "{after:.0f} tok/s(패치).",
        "The defect's before/after, same host, acceptance {length:g}: {size} target + draft model {before:.0f} tok/s "
        "(vLLM 0.23.0 as shipped) → {after:.0f} tok/s (patched)."),
    "article": ("기사 000(B200)의 산문 수용 길이 {low:g}–{high:g}에서 이득이 나기 시작하는 가장 작은 타깃: {found}.",
                "The smallest target from which each drafter pays at article 000's prose acceptance ({low:g}–{high:g}, "
                "B200): {found}."),
    "none_size": ("없음", "none"),
    "empty": ("타깃 크기 녹화가 없습니다 (`recordings/timing-only-sizes-*-h200.jsonl`, docs/gpu.md).",
              "The target-size recordings are not here (`recordings/timing-only-sizes-*-h200.jsonl`, docs/gpu.md)."),
}
