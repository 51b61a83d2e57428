"""The ladder page's words (Korean, English), read through views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
    "title": ("bf16 → 4비트 → 드래프터", "bf16 → 4-bit → drafter"),
    "intro": ("한 번에 한 가지만 바꾼 계단입니다. 각 단계의 배수는 앞 단계와의 비이고, 전체 배수는 단계 배수의 곱입니다. "
              "기사의 계단 옆에 이 기계에서 우리 recorder로 잰 실제 계단을 둡니다.",
              "A ladder that changes one thing per rung. Each rung's multiplier is its ratio to the rung before; the "
              "total is the product of the rung multipliers. Beside the article's ladder stands a real one, measured "
              "on this machine with our recorder."),
    "rule": ("**같은 조건 규칙**: 배수는 양쪽 팔이 정확히 같은 토큰 수를 낸 셀에서만 인용합니다. 답 길이가 다르면 배수가 "
             "길이에 흔들리기 때문입니다. 기사 000에서 이 규칙을 만족한다고 밝힌 행은 코드와 추론(둘 다 1,500토큰 상한 도달)입니다.",
             "**Like-for-like rule**: a multiplier is quoted only from cells where both arms produced exactly the same "
             "token count; otherwise answer length moves the ratio. In article 000 the rows stated to meet it are code "
             "and reasoning (both arms hit the 1,500-token cap)."),
    "overall": ("전체 (네 프롬프트)", "Overall (four prompts)"),
    "overall_short": ("전체", "overall"),
    "prompt": ("프롬프트", "Prompt"),
    "headline": ("B200 · Qwen3.8-27B · {which}: {first:g} → {last:g} tok/s (기사 000)",
                 "B200 · Qwen3.8-27B · {which}: {first:g} → {last:g} tok/s (article 000)"),
    "step_quant": ("① → ② 양자화", "① → ② quantize"),
    "step_drafter": ("② → ③ 드래프터", "② → ③ drafter"),
    "product": ("곱 = 전체", "product = total"),
    "ratio_badge": ("실측 속도의 비", "ratio of measured rates"),
    "chart_000": ("기사 000: 한 단계씩 바꾸면 디코드 속도는 얼마나 오르나?",
                  "Article 000: how much does each change raise decode speed?"),
    "median3": ("중앙값, 셀당 3회", "median of 3 per cell"),
    "lfl_yes": ("같은 조건(토큰 수 일치) 확인됨", "like-for-like (same token count) confirmed"),
    "lfl_unstated": ("이 행은 기사가 토큰 수 일치를 밝히지 않았습니다", "the article does not state equal token counts for this row"),
    "stated": ("기사 표에 적힌 배수 (기사의 계산): ", "Multipliers printed in the article (its own arithmetic): "),
    "by_prompt": ("프롬프트별: 양자화 단계는 비슷하고 드래프터 단계는 크게 갈립니다",
                  "By prompt: the quantize step is similar everywhere, the drafter step is not"),
    "ttft": ("첫 토큰까지: bf16 {a:g} s → NVFP4 {b:g} s; 드래프터를 켜면 {c:g} s → {d:g} s (000).",
             "Time to first token: bf16 {a:g} s → NVFP4 {b:g} s; the drafter adds {c:g} s → {d:g} s (000)."),
    # ours
    "ours_title": ("우리 계단: 이 2코어 CPU의 Qwen2.5-Coder-1.5B (llama.cpp, 기사 아님)",
                   "Our ladder: Qwen2.5-Coder-1.5B on this 2-core CPU (llama.cpp, not an article)"),
    "ours_title_h200": ("우리 계단: NVIDIA H200의 Qwen2.5-Coder-1.5B (vLLM 0.23, 기사 아님)",
                        "Our ladder: Qwen2.5-Coder-1.5B on an NVIDIA H200 (vLLM 0.23, not an article)"),
    "ours_machine": ("어느 기계에서 잰 계단", "Measured on"),
    "machine_cpu": ("이 2코어 CPU (llama.cpp)", "this 2-core CPU (llama.cpp)"),
    "machine_h200": ("NVIDIA H200 (vLLM 0.23)", "NVIDIA H200 (vLLM 0.23)"),
    "rung_bf16": ("bf16 (16비트)", "bf16 (16-bit)"),
    "ours_empty_h200": ("H200 계단 녹화(recordings/{file})가 이 설치에 없습니다.",
                        "The H200 ladder recording (recordings/{file}) is not in this install."),
    "ours_caption_h200": (
        "같은 모델, 같은 프롬프트, 192토큰을 H200에서 vLLM 0.23으로 잰 것입니다. bf16 팔은 Q4_K_M GGUF의 값을 bf16으로 풀어 둔 "
        "가중치라(16비트 속도, 4비트 글) 계단의 첫 단계는 같은 값을 담은 두 형식의 비교입니다. Q4_K_M은 vLLM의 GGUF 커널로 "
        "돌았습니다. 드래프트 계단(0.5B 드래프트 모델, K=4)과 n-gram 계단(k=4)은 서로 다른 녹화 파일이라 bf16과 Q4_K_M의 "
        "속도가 둘 사이에서 조금 다릅니다. 드래프터 먼저 계단은 한 파일에 모두 있지 않아 여기서는 내지 않습니다.",
        "The same model, prompts and 192 tokens, measured on an H200 with vLLM 0.23. The bf16 arm is the Q4_K_M "
        "GGUF's values dequantized into bf16 weights (16-bit speed, 4-bit text), so the first rung compares two "
        "formats holding the same values; Q4_K_M ran on vLLM's GGUF kernels. The draft ladder (0.5B draft model, "
        "K=4) and the n-gram ladder (k=4) are two recordings, so their bf16 and Q4_K_M rates differ a little. No "
        "one file holds the drafter-first ladder, so it is not offered here."),
    "ours_steps_h200": (
        "이 프롬프트에서 {arm}의 엔진 스텝 하나는 토큰 {per_step:.2f}개를 냈지만 {spec:.1f} ms 걸렸고, {base}의 보통 스텝은 "
        "{plain:.1f} ms였습니다(디코드 속도의 역수).",
        "On this prompt one engine step of {arm} yielded {per_step:.2f} tokens but took {spec:.1f} ms, against "
        "{plain:.1f} ms for a plain {base} step (1 ÷ its decode rate)."),
    "ours_defect": (
        "{arm}: {defect}. 이 vLLM에서는 드래프트 모델의 패스가 모두 CUDA 그래프 없이 돌아서, 이 단계의 배수와 스텝 시간은 "
        "드래프트 모델의 비용이 아니라 엔진 결함을 잰 것입니다.",
        "{arm}: {defect}. On this vLLM every draft-model pass ran without CUDA graphs, so this rung's multiplier and "
        "step time measure the engine's defect, not what a draft model costs."),
    "ours_why_h200": (
        "**H200에서 1.5B 모델로는 왜 둘 다 값을 못 하나**: 한 스텝은 가중치를 읽는 시간보다 스텝마다의 고정 비용(스케줄링, "
        "샘플링, 커널 실행)에 묶여 있습니다. bf16 가중치 약 3.1 GB(1.54B 파라미터 × 2바이트)를 H200의 정격 4.8 TB/s로 읽는 데 "
        "약 0.65 ms라 4비트가 줄일 수 있는 몫이 작고, GGUF 커널의 역양자화가 그만큼을 다시 씁니다. 0.5B 드래프트 모델은 스텝마다 "
        "토큰을 여러 개 내지만 추측 스텝 하나가 보통 스텝의 수십 배 걸립니다: 위에 적은 vLLM 0.23.0의 결함으로 드래프트 모델의 "
        "패스가 CUDA 그래프 없이 돌았기 때문입니다. n-gram은 복사형 프롬프트에서만 값을 합니다. 같은 모델과 "
        "프롬프트가 2코어 CPU에서는 4비트로 크게 빨라집니다(위에서 이 2코어 CPU를 고르세요): 이득이 사라지는 조건입니다.",
        "**Why neither pays on an H200 at 1.5B**: a step is bound by per-step overhead (scheduling, sampling, kernel "
        "launches), not by reading weights: its ≈ 3.1 GB of bf16 weights (1.54B parameters × 2 bytes) take ≈ 0.65 ms "
        "at the H200's rated 4.8 TB/s, so 4-bit has little to save, and the GGUF kernels' dequantization spends it "
        "again. The 0.5B draft model yields several tokens per step, but one speculative step takes tens of plain "
        "steps, because of the vLLM 0.23.0 defect named above: the draft model's passes ran without CUDA graphs. "
        "n-gram pays only on the copy prompt. The same model and prompts gain a lot from 4-bit on the 2-core CPU "
        "(choose it above): this is where the gain disappears."),
    "ours_read_h200": ("기사는 B200의 27B, 이것은 H200의 1.5B입니다. 모델이 이만큼 작으면 GPU는 가중치를 읽느라 기다리지 "
                       "않으므로, 4비트와 드래프터가 줄이는 비용이 애초에 스텝 시간의 작은 몫입니다.",
                       "The article is a 27B on a B200, this a 1.5B on an H200. A model this small does not keep the "
                       "GPU waiting on weight reads, so what 4-bit and a drafter save is a small share of the step "
                       "to begin with."),
    "ours_question": ("같은 계단을 여기서 재면 각 단계는 얼마인가?", "Measured here, what does each rung give?"),
    "ours_prompt": ("우리 프롬프트", "Our prompt"),
    "ours_drafter": ("셋째 단계의 드래프터", "Third rung's drafter"),
    "drafter_draft": ("0.5B 드래프트 모델", "0.5B draft model"),
    "drafter_ngram": ("n-gram 조회", "n-gram lookup"),
    "drafter_first": ("드래프터 먼저 (F16 → F16 + 드래프트 → Q4_K_M + 드래프트)",
                      "drafter first (F16 → F16 + draft → Q4_K_M + draft)"),
    "rung_f16": ("F16 (16비트)", "F16 (16-bit)"),
    "rung_q4": ("Q4_K_M (4비트)", "Q4_K_M (4-bit)"),
    "rung_q4-draft": ("Q4_K_M + 0.5B 드래프트", "Q4_K_M + 0.5B draft"),
    "rung_q4-ngram": ("Q4_K_M + n-gram", "Q4_K_M + n-gram"),
    "rung_f16-draft": ("F16 + 0.5B 드래프트", "F16 + 0.5B draft"),
    "ours_headline": ("{prompt}: {first:.1f} → {last:.1f} tok/s, 곱 {product}", "{prompt}: {first:.1f} → {last:.1f} tok/s, product {product}"),
    "ours_step": ("{a} → {b}", "{a} → {b}"),
    "ours_table_title": ("프롬프트마다: 단계 배수와 그 곱", "Per prompt: each rung's multiplier and their product"),
    "col_prompt": ("프롬프트", "prompt"), "col_kind": ("종류", "kind"), "col_temp": ("온도", "temperature"),
    "col_product": ("× 원본 대비 (단계 배수의 곱)", "× vs the original (product of the rungs)"),
    "col_lfl": ("같은 토큰 수", "same token count"),
    "col_ceiling": ("{rung} 천장 대비 % (계산)", "{rung} % of ceiling (computed)"),
    "ceiling_cpu": (
        "**천장 대비 %** = 디코드 속도 ÷ (대역폭 {bandwidth:.0f} GB/s ÷ 토큰당 가중치 바이트 × 스텝당 토큰). 대역폭은 "
        "{where}에서 잼(bench/memory_bandwidth.py), 녹화는 {recorded}: 참고치. F16·Q4_K_M이 절반 이상 = 메모리에 묶임, "
        "4비트가 값을 합니다. 드래프터 팔이 낮은 것은 매 스텝 도는 드래프트 모델 때문입니다.",
        "**% of ceiling** = decode rate ÷ (bandwidth {bandwidth:.0f} GB/s ÷ weight bytes per token × tokens per "
        "step). Bandwidth measured on {where} (bench/memory_bandwidth.py), recorded on {recorded}: indicative. F16 and "
        "Q4_K_M at half or more: memory-bound, so 4-bit pays. Drafter arms sit low: the draft model runs every step."),
    "ceiling_h200": (
        "**천장 대비 %** = 디코드 속도 ÷ (H200 대역폭 {bandwidth:.0f} GB/s, 우리 루프라인 측정 ÷ 토큰당 가중치 바이트 × "
        "스텝당 토큰). 1.5B는 bf16에서도 절반 아래: 스텝마다의 고정 비용이 가중치 읽기보다 커서 4비트가 빨라지지 않습니다. "
        "27B급 bf16은 80 % 남짓, 메모리에 묶여 4비트가 값을 합니다(아래 27B급 표).",
        "**% of ceiling** = decode rate ÷ (the H200's {bandwidth:.0f} GB/s, our roofline measurement, ÷ weight bytes "
        "per token × tokens per step). The 1.5B stays below half even in bf16: per-step overhead outweighs reading "
        "its weights, so 4-bit does not speed it up. The 27B-class bf16 runs at about 80 %, memory-bound: 4-bit pays "
        "(the 27B-class table below)."),
    "ours_caption": (
        "요청 하나씩, 디코드 tok/s(첫 토큰 제외) 3회 중앙값. ✓ = 모든 반복·단계가 같은 토큰 수.",
        "One request at a time, decode tok/s (first token excluded), median of 3 repeats. ✓ = every rung produced "
        "the same token count on every repeat."),
    "ours_empty": (
        "llama.cpp 계단 녹화(recordings/{file})가 아직 없습니다. 들어오면 여기에 프롬프트마다 F16 → Q4_K_M → + 드래프터 "
        "계단이 그려집니다(팔 f16, q4, f16-draft, q4-draft, q4-ngram).",
        "The llama.cpp ladder recording (recordings/{file}) has not landed yet. Once it does, this draws the F16 → "
        "Q4_K_M → + drafter ladder per prompt (arms f16, q4, f16-draft, q4-draft, q4-ngram)."),
    "ours_missing_arms": ("이 녹화에는 계단의 팔 {arms} 중 일부가 없습니다.", "This recording lacks some of the ladder's arms {arms}."),
    "ours_read": ("절댓값은 비교하지 않습니다(기사는 B200의 27B, 우리는 2코어 CPU의 1.5B). 같은 것은 메커니즘입니다.",
                  "Not comparable in absolute terms (the article: a 27B on a B200; ours: a 1.5B on a 2-core CPU); "
                  "the mechanisms are the same."),
    "sources": ("출처", "Sources"),
    # 001
    "h_001": ("양자화는 드래프터의 배수를 줄이지만 둘 다 켠 쪽이 가장 빠릅니다 (기사 001)",
              "Quantization shrinks the drafter's multiplier, yet both together are fastest (article 001)"),
    "m_bf16": ("bf16에 드래프터", "drafter on bf16"), "m_bf16_help": ("드래프터 켬 ÷ 끔, bf16", "drafter on ÷ off, bf16"),
    "m_4bit": ("4비트에 드래프터", "drafter on 4-bit"), "m_4bit_help": ("드래프터 켬 ÷ 끔, 4비트", "drafter on ÷ off, 4-bit"),
    "m_quant": ("bf16 → 4비트 (드래프터 없이)", "bf16 → 4-bit (no drafter)"),
    "m_both": ("4비트 + 드래프터 ÷ bf16", "4-bit + drafter ÷ bf16"),
    "chart_001": ("기사 001: 체크포인트마다 드래프터를 켜면 얼마나 빨라지나?",
                  "Article 001: how much does the drafter add on each checkpoint?"),
    "on_off": ("켬 ÷ 끔 {v}", "on ÷ off {v}"), "quant_note": ("4비트 ÷ bf16 {v}", "4-bit ÷ bf16 {v}"),
    "cap_001": ("막대 위 배수는 같은 체크포인트의 드래프터 켬 ÷ 끔, 그리고 드래프터 없이 bf16 → 4비트입니다. 기사 본문: bf16 3.0배, 4비트 2.2배",
                "The multipliers over the bars are drafter on ÷ off on the same checkpoint, and bf16 → 4-bit without "
                "the drafter. Article: bf16 3.0×, 4-bit 2.2×"),
    # 003
    "h_003": ("RTX 3090 · Qwen3.8-27B · 개발자 자체 엔진 (기사 003, 보고된 값)",
              "RTX 3090 · Qwen3.8-27B · a developer's own engine (article 003, reported)"),
    "general": ("**일반 사용, 사용자 1명: {a:g} → {b:g} tok/s**", "**General use, one user: {a:g} → {b:g} tok/s**"),
    "chat_after": ("이어서 한 스텝에 16토큰을 검증하게 바꾼 뒤 일반 채팅은 약 {chat:g} tok/s (기사는 이를 기준 {base:g} tok/s와 "
                   "비교: {ratio}).",
                   "After the change to verifying 16 tokens per step, general chat runs at about {chat:g} tok/s (the "
                   "article compares it with the {base:g} tok/s baseline: {ratio})."),
    "quoting": ("**2만 5,000토큰 문서 인용: {a:g} → {b:g} tok/s**", "**Quoting a 25,000-token document: {a:g} → {b:g} tok/s**"),
    "cap_003": ("16토큰 검증에서 약 {acc:g}개가 채택됩니다. 두 계단은 작업이 다릅니다: 기사 첫머리의 {a:g} → {b:g} tok/s는 일반 "
                "사용의 기준과 문서 인용의 결과를 잇는 것이라 여기서는 둘 사이의 배수를 내지 않습니다. 개발자 보고이며 독립 검증되지 "
                "않았습니다.",
                "About {acc:g} of the 16 drafted tokens are accepted. The two ladders ran different tasks: the "
                "article's opening {a:g} → {b:g} tok/s joins the general-use baseline to the document-quoting result, "
                "so no multiplier across the two is given here. A developer's report, not independently verified."),
    "col_rung": ("단계", "rung"), "col_prev": ("앞 단계 대비 (계산)", "vs previous (computed)"),
    "col_first": ("처음 대비 (계산)", "vs first (computed)"),
    # the earlier H200 measurement
    "h200_title": ("이전 측정: H200 · SmolLM2-135M, 같은 bf16 기준에서 한 가지씩",
                   "Earlier measurement: H200 · SmolLM2-135M, one change at a time from the same bf16 baseline"),
    "h200_caption": (
        "요청 하나씩, 디코드 tok/s(첫 토큰 제외) 3회 중앙값, 256토큰 강제. 계단이 아닙니다: ngram은 bf16 위에서 돌았고 두 배수는 "
        "같은 bf16 기준에 대한 비입니다. **4비트가 여기서 더 느린 이유**: 1억 3,500만 파라미터 모델의 가중치는 약 0.27 GB(bf16)라 "
        "H200이 0.1 ms 안에 읽습니다. 한 스텝 약 1.8 ms는 스케줄링·샘플링·파이썬 같은 고정 비용이고, 4비트는 읽을 바이트를 "
        "줄이지만 역양자화 비용을 더합니다(로프라인 페이지).",
        "One request at a time, decode tok/s (first token excluded), median of 3, 256 forced tokens. Not a ladder: "
        "ngram ran on bf16, and both multipliers are ratios to the same bf16 baseline. **Why 4-bit is slower here**: "
        "a 135M-parameter model's weights are ~0.27 GB in bf16, which an H200 reads in under 0.1 ms; a ~1.8 ms step "
        "is fixed cost (scheduling, sampling, Python), and 4-bit cuts bytes nobody was waiting on while adding "
        "dequantization (see the roofline page)."),
    "sampled": (" (샘플링)", " (sampled)"),
    "h200_bf16": ("bf16 tok/s", "bf16 tok/s"), "h200_q4": ("4비트 GGUF Q4_1 tok/s", "4-bit GGUF Q4_1 tok/s"),
    "h200_q4_ratio": ("4비트 ÷ bf16 (계산)", "4-bit ÷ bf16 (computed)"),
    "h200_ngram": ("bf16 + ngram k=4 tok/s", "bf16 + ngram k=4 tok/s"),
    "h200_ngram_ratio": ("ngram ÷ bf16 (계산)", "ngram ÷ bf16 (computed)"),
}
