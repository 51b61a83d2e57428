"""The words the player, the video and the HTML export show: one table, Korean first, then English.

A page's own sentences live in its text module (views/<page>_text.py, read through views.texts); words that more
than one renderer shows, or that a renderer outside Streamlit needs, live here once.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["ko", "en"]

WORDS: dict[str, tuple[str, str]] = {
    # what kind of number: the badges on pages, panes, video frames and exports
    "measured": ("여기서 측정", "measured here"),  # our recorder only; an article's own measurement is quoted
    "computed": ("계산", "computed"),
    "simulated": ("시뮬레이션", "simulated"),
    "quoted": ("인용", "quoted"),
    "imported": ("가져옴", "imported"),  # measured by another benchmark tool, converted (specreplay.importers)
    # counters
    "tokens": ("토큰", "tokens"),
    "chunks": ("청크", "chunks"),
    "chunk_rate": ("청크/s", "chunks/s"),
    # the player's controls and readouts (assets/player/player.js reads them from its payload)
    "play": ("재생", "Play"),
    "pause": ("일시정지", "Pause"),
    "restart": ("처음부터", "Restart"),
    "speed": ("속도", "Speed"),
    "bursts": ("한 번에 도착한 토큰 묶음 강조", "Highlight tokens that arrived together"),
    "elapsed": ("경과", "elapsed"),
    "rate": ("디코드 tok/s", "decode tok/s"),
    "ttft": ("첫 토큰", "TTFT"),
    "waiting": ("첫 토큰 대기 중…", "waiting for the first token…"),
    "finished": ("완료", "finished"),
    "ratio": ("디코드 속도 ÷ 기준 팔의 디코드 속도", "decode rate ÷ the reference arm's decode rate"),
    "vs": ("{x} 대비", "vs {x}"),
    "reference": ("기준 팔", "reference"),
    "system": ("시스템 전체", "system total"),
    "level": ("동시 {n}개", "{n} concurrent"),
    "loading": ("플레이어를 불러오는 중…", "Loading the player…"),
    # the playback speed beside every clock (specreplay.playback.speed_note; the player formats the same templates)
    "speed_real": ("{x}× — 실제 속도", "{x}× — real time"),
    "speed_slow": ("{x}× — {n}배 느리게", "{x}× — slowed {n}×"),
    "speed_fast": ("{x}× — {n}배 빠르게", "{x}× — sped up {n}×"),
    "keys": ("스페이스: 재생/정지 · ←/→: 1초 이동 · ↑/↓: 속도", "space: play/pause · ←/→: seek 1 s · ↑/↓: speed"),
    # warnings on a pane's text (specreplay.text_checks): shown in the pane, the video and the export
    "warn_repeats": ("반복 출력: '{x}'가 {n}번 되풀이됩니다", "degenerate: '{x}' repeats {n}×"),
    "warn_turn": ("답이 끝난 뒤의 글: {n}번째 글자에 대화 차례 표시 '{x}'", "text past the answer: a chat-turn marker "
                  "'{x}' at character {n}"),
    "warn_departs": ("같은 조건 아님: greedy 글이 {ref}의 글과 {n}번째 글자부터 다릅니다",
                     "not like-for-like: the greedy text leaves {ref}'s at character {n}"),
    "warn_length": ("같은 조건 아님: 토큰 {n}개, 기준 팔은 {m}개", "not like-for-like: {n} tokens, the reference {m}"),
    # an engine defect behind an arm's figures (specreplay.engine_defects): beside them wherever a pane shows
    "warn_draft_graphs": ("{defect}: 드래프터의 패스가 CUDA 그래프 없이 돌아, 이 속도는 드래프트 모델의 비용이 아닙니다",
                          "{defect}: the drafter's passes ran without CUDA graphs, so this speed is not what a draft "
                          "model costs"),
    # the video's frame (one short line each: longer text would not fit a 720p frame)
    "video_note": ("각 팔은 따로 순차 녹화했고, 한 시계 위에 겹쳐 재생합니다.",
                   "Each arm was recorded separately, one after another, and is replayed on one clock."),
    "video_done": ("완료", "done"),
    # the standalone HTML export's header
    "export_note": ("두 창이 함께 흐르지만 동시에 돌린 것은 아닙니다. 각 팔은 차례로 따로 측정했고, 토큰 도착 시각을 하나의 시계 위에 "
                    "겹쳐 보여 줍니다.",
                    "The panes stream together, but the arms did not run at the same time: each was measured on its "
                    "own, one after another, and their token arrival times are overlaid on one clock."),
    "export_lacks": ("원본 파일에 없는 것 (만들어 넣지 않았습니다):", "Not in the source file (nothing was made up):"),
    "export_sim": ("시뮬레이션 팔: ■ 하나가 토큰 하나, 시간은 매개변수로 계산",
                   "Simulated arms: one ■ per token, times computed from the parameters"),
    "export_chunks": ("'청크'로 세는 창은 청크당 토큰 수가 파일에 없어 토큰 대신 청크를 셉니다.",
                      "Panes that count 'chunks' do so because the file has no tokens per chunk."),
    "export_ratio": ("배수 = 디코드 속도 ÷ 기준 팔({x})의 디코드 속도 (첫 토큰 제외)",
                     "Speedup = decode rate ÷ the reference arm's ({x}) decode rate (first token excluded)"),
    "export_offline": ("specreplay로 만든 독립 실행 파일: 네트워크 없이 재생됩니다.",
                       "Standalone file made with specreplay: plays without a network."),
}

# What an arm is, in Korean: the recordings' labels are English, so a Korean page, frame or export says each of
# their terms in Korean (arm_label), longest phrase first.
ARM_WORDS_KO: tuple[tuple[str, str], ...] = (
    ("16-bit weights, 4-bit values", "16비트 가중치, 4비트 값"), ("acceptance set to", "수락 길이 고정"),
    ("draft model", "드래프트 모델"), ("n-gram lookup", "n-gram 조회"), ("timing only", "타이밍만"),
    ("(synthetic)", "(합성)"), ("acceptance", "수락 길이"), ("drafter", "드래프터"), ("layers", "층"),
    ("4-bit", "4비트"), ("16-bit", "16비트"), ("-class", "급"), ("-shaped", " 모양"),
)


def arm_label(label: str, lang: str) -> str:
    """An arm's label in `lang`: the recording's own (English) label, its terms in Korean unless 'en'."""
    if lang == "en":
        return label
    for en, ko in ARM_WORDS_KO:
        label = label.replace(en, ko)
    return label


# The keys the browser player reads (its payload carries just these).
PLAYER_KEYS = ("play", "pause", "restart", "speed", "bursts", "tokens", "elapsed", "rate", "ttft", "waiting",
               "finished", "ratio", "vs", "reference", "system", "level", "keys", "measured", "simulated", "imported",
               "chunks", "chunk_rate", "speed_real", "speed_slow", "speed_fast")


def word(key: str, lang: str) -> str:
    """The word in `lang` (Korean unless 'en')."""
    ko, en = WORDS[key]
    return en if lang == "en" else ko


def words(keys: tuple[str, ...], lang: str) -> dict[str, str]:
    return {key: word(key, lang) for key in keys}
