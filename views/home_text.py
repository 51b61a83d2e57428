"""The start page's words (Korean, English), read through views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
    "title": ("같은 모델이 몇 배 빨라지는 이유, 그리고 그 이득이 사라지는 때",
              "Why the same LLM gets several times faster — and when the gain disappears"),
    "story": (
        """
모델을 바꾸지 않고도 서빙 계층만 손봐서 디코드 속도를 여러 배 올릴 수 있습니다.
**4비트 양자화**는 토큰마다 메모리에서 읽어야 할 가중치를 줄이고, **추측 디코딩**은 작은 드래프터가
미리 쓴 토큰 여러 개를 큰 모델이 한 번에 검증하게 합니다.

하지만 배수는 기능이 아니라 조건에 붙어 있습니다. 동시 접속이 늘면, 수용률이 낮으면,
온도가 높아 출력이 자유로우면 그 이득은 줄어들고 1.0 아래로 내려가기도 합니다.
""",
        """
Without changing the model, the serving layer alone can multiply decode speed.
**4-bit quantization** shrinks the weights read from memory for every token; **speculative decoding** lets a
small drafter write several tokens that the big model verifies in one pass.

But the multiplier belongs to conditions, not to the feature. More concurrent users, a lower acceptance rate,
freer (higher-temperature) output — and the gain shrinks, sometimes below 1.0.
"""),
    "ours": ("이 기계에서 직접 잰 것 (llama.cpp, 2코어 CPU, Qwen2.5-Coder-1.5B, {prompt} 프롬프트): F16 {f16:.1f} tok/s → "
             "Q4_K_M {q4:.1f} tok/s ({quant}) → + 0.5B 드래프트 {draft:.1f} tok/s ({drafter}). 계단 페이지에 프롬프트마다 있습니다.",
             "Measured here (llama.cpp, 2-core CPU, Qwen2.5-Coder-1.5B, the {prompt} prompt): F16 {f16:.1f} tok/s → "
             "Q4_K_M {q4:.1f} tok/s ({quant}) → + 0.5B draft model {draft:.1f} tok/s ({drafter}). The ladder page has "
             "every prompt."),
    "ours_h200": ("같은 모델·프롬프트·드래프트 모델을 NVIDIA H200의 vLLM 0.23으로 잰 것: bf16 {bf16:.0f} tok/s → Q4_K_M "
                  "{q4:.0f} tok/s ({quant}) → + 0.5B 드래프트 {draft:.0f} tok/s ({drafter}). 1.5B 모델은 이 GPU를 가중치 "
                  "읽기로 기다리게 하지 않으므로 어느 쪽도 이득이 없습니다 (계단 페이지의 H200 선택).",
                  "The same model, prompt and draft model on an NVIDIA H200 with vLLM 0.23: bf16 {bf16:.0f} tok/s → "
                  "Q4_K_M {q4:.0f} tok/s ({quant}) → + 0.5B draft model {draft:.0f} tok/s ({drafter}). A 1.5B model "
                  "does not keep that GPU waiting on its weights, so neither step pays (the ladder page's H200 choice)."),
    "ours_h200_defect": (
        "같은 모델·프롬프트·드래프트 모델을 NVIDIA H200의 vLLM 0.23으로 잰 것: bf16 {bf16:.0f} tok/s → Q4_K_M {q4:.0f} tok/s "
        "({quant}) → + 0.5B 드래프트 {draft:.0f} tok/s ({drafter}, {defect}). 1.5B 모델은 이 GPU를 가중치 읽기로 기다리게 "
        "하지 않으므로 4비트는 이득이 없습니다. 드래프트 숫자는 드래프트 모델의 비용이 아닙니다: 이 vLLM은 드래프터의 패스를 "
        "모두 CUDA 그래프 없이 돌렸습니다 (계단 페이지의 H200 선택).",
        "The same model, prompt and draft model on an NVIDIA H200 with vLLM 0.23: bf16 {bf16:.0f} tok/s → Q4_K_M "
        "{q4:.0f} tok/s ({quant}) → + 0.5B draft model {draft:.0f} tok/s ({drafter}, {defect}). A 1.5B model does not "
        "keep that GPU waiting on its weights, so 4-bit does not pay; the draft model's figure is not what a draft "
        "model costs: this vLLM ran every drafter pass without CUDA graphs (the ladder page's H200 choice)."),
    "kinds": ("숫자의 다섯 가지 종류", "Five kinds of numbers"),
    "kinds_intro": ("모든 숫자 옆에는 종류를 밝히는 표시와 출처(기사 제목, 절, 원 출처)가 붙습니다.",
                    "Every number carries a badge saying which kind it is, and its source (article title, section, "
                    "original source)."),
    "explore": ("둘러보기", "Explore"),
    "go_replay": ("따로 녹화한 팔들을 한 시계 위에서 나란히 재생", "Arms recorded separately, replayed side by side on one clock"),
    "go_acceptance": ("수용률 α와 드래프트 길이 γ가 배수를 정하는 방식", "How acceptance rate α and draft length γ set the speedup"),
    "go_concurrency": ("동시 접속이 늘면 배수가 1.0 아래로", "More concurrent users push the speedup below 1.0"),
    "go_ladder": ("bf16 → 4비트 → 드래프터 계단", "The bf16 → 4-bit → drafter ladder"),
    "go_cost": ("100만 토큰당 비용과 KV 캐시 예산", "Cost per 1M tokens and the KV-cache budget"),
    "go_chooser": ("내 상황에는 어떤 추측 디코딩이 맞나", "Which speculative decoding fits my situation"),
    "go_roofline": ("왜 4비트가 큰 배치에서 느려지나 (H200 실측)", "Why 4-bit can lose at large batch (measured on an H200)"),
    # the hero (views/hero.py): the replay page's default replay playing, its numbers, three ways on
    "hero_none": ("실제 녹화가 아직 없어 여기에 재생을 보여 줄 수 없습니다.",
                  "No real recording is bundled yet, so there is no replay to show here."),
    "hero_alt": ("실제 녹화의 나란히 재생", "A side-by-side replay of a real recording"),
    "hero_rate_help": ("디코드 tok/s (첫 토큰 제외), 중앙값 반복. 배수 = 디코드 속도 ÷ 기준 팔의 것.",
                       "Decode tok/s (first token excluded), median repeat. Speedup = decode rate ÷ the reference "
                       "arm's."),
    "hero_article_000": ("기사 000의 계단 (B200 · Qwen3.8-27B, 저자 측정): ",
                         "Article 000's ladder (B200 · Qwen3.8-27B, the authors' measurement): "),
    "hero_about": (
        "`{recording}` · 프롬프트 `{prompt}` · 기준 팔: {reference} · 재생 속도 "
        "{speed}. 팔들은 차례로 따로 녹화했고 한 시계 위에 겹쳐 재생합니다. 이 녹화·팔은 적어 둔 규칙으로 "
        "골랐습니다: 실제 가중치, 이야기의 단계(16비트 → 4비트 → 드래프터), 같은 조건(docs/replay.md).",
        "`{recording}` · prompt `{prompt}` · reference arm: {reference} · playing at "
        "{speed}. The arms were recorded one after another and are overlaid on one clock. This "
        "recording and these arms were chosen by a written rule: real weights, the story's rungs (16-bit → 4-bit → "
        "drafter), like-for-like (docs/replay.md)."),
    "hero_open": ("이 재생을 크게, 다른 녹화·프롬프트로", "Open this replay full size, or another recording or prompt"),
    "hero_go_ladder": ("4비트: 왜 빨라지나", "4-bit: why it is faster"),
    "hero_go_acceptance": ("드래프터: 수용률이 배수를 정한다", "The drafter: acceptance sets the multiplier"),
    "hero_go_concurrency": ("이득이 사라질 때: 동시 접속", "When it vanishes: concurrency"),
}
