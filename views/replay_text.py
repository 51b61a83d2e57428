"""The replay page's words (Korean, English), its video export panel's included, read through views.texts.Texts."""

TEXT: dict[str, tuple[str, str]] = {
    "title": ("나란히 재생", "Side-by-side replay"),
    "intro": (
        "같은 프롬프트에 대한 여러 설정(팔)의 스트리밍 출력을 토큰이 실제로 도착한 시각대로 다시 재생합니다. 재생은 "
        "브라우저에서 돌아가므로 서버가 바빠도 끊기지 않습니다.",
        "Replays the streamed output of several setups (arms) on the same prompt at the times the tokens really "
        "arrived. Playback runs in your browser, so a busy server cannot make it stutter."),
    "not_simultaneous": (
        "두 창이 함께 흐르지만 동시에 돌린 것은 아닙니다. 각 팔은 차례로 따로 녹화했고, 토큰 도착 시각을 하나의 "
        "시계 위에 겹쳐 보여 줍니다.",
        "The panes stream together, but the arms did not run at the same time: each was recorded on its own, one "
        "after another, and their token arrival times are overlaid on one clock."),
    "loading": ("⏳ 플레이어를 불러오는 중…", "⏳ Loading the player…"),
    "no_bundled": (
        "아직 번들 녹화가 없습니다. 실제 엔진으로 만든 녹화가 준비되면 recordings/*.jsonl로 여기에 나타납니다. "
        "그동안 직접 만든 녹화(.jsonl)를 올리거나, 아래의 시뮬레이션 팔(기사 000의 측정값)로 비교해 보세요.",
        "No bundled recordings yet. Recordings made on a real engine will appear here as recordings/*.jsonl. "
        "Meanwhile, upload a recording (.jsonl) of your own, or compare the simulated arms below (built from "
        "article 000's measured figures)."),
    "src_bundled": ("번들 녹화", "Bundled"),
    "src_upload": ("내 파일 올리기", "Upload"),
    "recording": ("녹화", "Recording"),
    "upload_file": ("녹화 파일 (.jsonl)", "Recording file (.jsonl)"),
    "upload_help": ("최대 {mib} MiB. 올린 녹화는 링크로 공유되지 않습니다.",
                    "Up to {mib} MiB. Uploaded recordings are not shareable by link."),
    "url_recording_missing": ("URL의 녹화 '{name}'가 없어 첫 번째 녹화를 보여 줍니다.",
                              "The URL's recording '{name}' does not exist; showing the first one."),
    "bundled_recording": ("번들 녹화", "Bundled recording"),
    "timing_only": (
        "타이밍 전용: 시간은 실제 엔진의 시간이지만 글자는 모델의 답이 아닙니다 (실제 모델 모양의 무작위 가중치, "
        "또는 벤치마크용으로 수용 길이를 정해 둔 모드). 그래서 토큰마다 ■로 보여 줍니다.",
        "Timing only: the times are the real engine's, but the text is not the model's answer (random weights of a "
        "real model's shapes, or a benchmark mode that sets the acceptance length), so each token shows as ■."),
    "not_in_source": (
        "원본 파일에 없는 것 (만들어 넣지 않았습니다): ",
        "Not in the source file (nothing was made up): "),
    "no_single_stream": (
        "이 녹화에는 끝까지 마친 단일 스트림 실행이 없습니다.",
        "This recording has no finished single-stream run."),
    "prompt": ("프롬프트", "Prompt"),
    "url_arms_left_out": ("URL의 팔 {arms}은(는) 이 녹화에 없어 뺐습니다.",
                          "Left out the URL's arms {arms}: not in this recording."),
    "arms": ("팔 (2~4개)", "Arms (2–4)"),
    "median_repeat": ("팔마다 중앙값 반복 (디코드 속도 기준)", "each arm's median repeat (by decode speed)"),
    "repeat_n": ("{n}번째 반복", "repeat {n}"),
    "repeat": ("반복", "Repeat"),
    "build_sim": ("시뮬레이션 팔 직접 만들기", "Build a simulated arm"),
    "build_sim_help": (
        "디코드 속도·첫 토큰 시간·수용 확률 α·드래프트 길이 γ로 만든 가상의 팔입니다. 실제 텍스트가 없어 토큰마다 "
        "■로 표시하며, 어디서나 '시뮬레이션'으로 표시됩니다.",
        "A made-up arm from decode speed, time to first token, acceptance probability α and draft length γ. It has "
        "no real text (one ■ per token) and is badged 'simulated' everywhere."),
    "tokens": ("토큰", "tokens"),
    "add_arm": ("이 팔 추가", "Add this arm"),
    "url_speed_bad": ("URL의 속도 '{raw}'는 쓸 수 없어 {default:g}×로 재생합니다 (가능: {offered}).",
                      "The URL's speed '{raw}' is not offered; playing at {default:g}× (offered: {offered})."),
    "col_vs_ref": ("기준 팔 대비 (디코드 속도 비)", "vs reference (decode rate ratio)"),
    "col_arm": ("팔", "arm"),
    "col_kind": ("종류", "kind"),
    "col_decode": ("디코드 tok/s", "decode tok/s"),
    "col_finished": ("완료 s", "finished s"),
    "col_ceiling": ("천장 대비 % (계산)", "% of ceiling (computed)"),
    "col_warnings": ("경고", "warnings"),
    "defect": ("{arm}: {defect}. 드래프터의 패스가 CUDA 그래프 없이 돌아서, 이 팔의 속도는 드래프트 모델의 비용이 아닙니다.",
               "{arm}: {defect}. The drafter's passes ran without CUDA graphs, so this arm's speed is not what a "
               "draft model costs."),
    "speedup_caption": (
        "배수 = 디코드 속도 ÷ 기준 팔({ref})의 디코드 속도 (첫 토큰 제외, 각 팔의 중앙값 반복).",
        "Speedup = decode rate ÷ the reference arm's ({ref}) decode rate (first token excluded, each arm's "
        "median repeat)."),
    "ceiling_caption": (
        "천장 대비 % = 디코드 속도 ÷ (잰 메모리 대역폭 ÷ 토큰당 읽는 가중치 바이트 × 스텝당 토큰). 높으면 메모리에 묶여 4비트가 "
        "값을 하고, 낮으면 스텝마다의 고정 비용이 커서 바이트를 줄여도 별 이득이 없습니다. 대역폭과 바이트를 아는 팔만.",
        "% of ceiling = decode rate ÷ (measured memory bandwidth ÷ weight bytes read per token × tokens per step). "
        "High: memory-bound, 4-bit pays; low: per-step overhead dominates, cutting bytes gains little. Only arms "
        "whose machine bandwidth and weight bytes are known."),
    "url_levels_left_out": ("URL의 동시 요청 단계 {levels}은(는) 이 녹화에 없어 뺐습니다.",
                            "Left out the URL's levels {levels}: not in this recording."),
    "level_name": ("{label} · 동시 요청 {n}개", "{label} · {n} concurrent"),
    "levels": ("팔 × 동시 요청 수 (1~4개)", "Arm × concurrency level (1–4)"),
    "levels_caption": (
        "각 창은 그 단계의 요청 하나(디코드 속도 중앙값)를 재생하고, 아래에 그 단계 전체 요청의 출력 tok/s 합을 "
        "보여 줍니다.",
        "Each pane plays one request of its level (the median decode rate); underneath runs the level's total "
        "output tok/s, all requests together."),
    "mode_prompt": ("한 프롬프트, 요청 하나씩", "One prompt, one request at a time"),
    "mode_levels": ("동시 요청 수별", "By concurrency level"),
    "mode": ("재생 방식", "Replay"),
    "what": ("무엇을 재생할까요", "What to replay"),
    "reference": ("배수의 기준 팔", "Speedups are relative to"),
    "reference_help": (
        "배수 = 디코드 속도 ÷ 이 팔의 디코드 속도. 기본은 다른 팔들이 기준(baseline)으로 삼는 팔.",
        "Speedup = decode rate ÷ this arm's decode rate. By default, the arm the others name as their baseline."),
    "choose_arms": ("비교할 팔을 2~4개 고르세요.", "Choose 2–4 arms to compare."),
    "slowed": (
        "이 재생은 몇 초 만에 끝나서 느리게 엽니다: {note}. 속도는 플레이어에서 바꿀 수 있습니다.",
        "This replay is over within seconds, so it opens slowed down: {note}. Change the speed in the player."),
    "player_alt": ("나란히 재생 플레이어", "Side-by-side replay player"),
    "sim_badge": ("■ 하나가 토큰 하나; 시간은 매개변수로 계산", "one ■ per token; times computed from the parameters"),
    "by_level": ("동시 요청 수별", "by concurrency level"),
    "download_html": ("이 재생을 HTML 파일 하나로 내려받기", "Download this replay as one HTML file"),
    "download_html_help": (
        "네트워크 없이 열리는 파일 하나입니다. 블로그에는 <iframe>으로 넣으세요 (docs/interop.md).",
        "One file that plays offline; embed it in a blog with an <iframe> (docs/interop.md)."),
    # the video export panel (views/video_panel.py), drawn under the player
    "video_title": ("영상으로 내보내기 (MP4 · GIF)", "Export as video (MP4 · GIF)"),
    "video_caption": (
        "녹화된 토큰 시각으로 프레임을 하나씩 다시 그립니다. 같은 선택이면 언제 만들어도 같은 파일입니다.",
        "Frames are redrawn from the recorded token times: the same choice gives the same file, whenever it is "
        "made."),
    "video_speed": ("재생 속도: {note}.", "Playback speed: {note}."),
    "video_format": ("형식", "Format"),
    "video_size": ("크기", "Size"),
    "video_render": ("영상 만들기", "Render video"),
    "video_cannot": ("영상을 만들 수 없습니다: ", "Cannot render this video: "),
    "video_busy": (
        "서버가 다른 영상을 만드는 중입니다. 잠시 후 다시 눌러 주세요.",
        "The server is busy rendering other videos; try again in a minute."),
    "video_cancelled": (
        "영상 만들기가 취소되었습니다. 다시 누르면 새로 만듭니다.",
        "The render was cancelled; press the button to render again."),
    "video_failed": ("영상을 만들지 못했습니다: ", "Could not render the video: "),
    "video_download": ("{fmt} 내려받기", "Download {fmt}"),
    "video_square": ("정사각형", "square"),
    "video_queued": ("대기 중… 앞에서 {ahead}개 렌더링 중", "Queued… {ahead} render(s) ahead"),
    "video_rendering": ("렌더링 중… {done}/{total} 프레임", "Rendering… {done}/{total} frames"),
}
