"""Every glyph the video draws comes from a bundled font that has it (specreplay/video/glyphs.py): the words of
both languages, each bundled recording's title, arm labels and prompt ids, the speed notes, the warning mark; and
→ is DejaVu Sans' arrow, not NanumGothic's hairline one that reads as › in a frame."""

import json

import pytest

from specreplay import languages
from specreplay.replay.playback import SPEEDS, speed_note
from specreplay.resources import RECORDINGS
from specreplay.video.draw import WARN
from specreplay.video.glyphs import face


def drawn_text() -> str:
    texts = [w for lang in languages.LANGUAGES for w in languages.table(lang, "words").values()] + [WARN, "×÷→≥≤·—…"]
    texts += [speed_note(s, lang) for s in SPEEDS for lang in languages.LANGUAGES]
    for path in sorted(RECORDINGS.glob("*.jsonl")):
        with path.open(encoding="utf-8") as f:
            header = json.loads(f.readline())
        texts += [header.get("title", ""), *(a.get("label", "") for a in header["arms"]),
                  *(p["id"] for p in header.get("prompts", []))]
    return "".join(texts)


@pytest.mark.parametrize("weight", ["regular", "bold"])
def test_every_glyph_the_video_draws_is_in_a_bundled_font(weight: str) -> None:
    fnt = face(weight, 16)
    missing = sorted({ch for ch in drawn_text() if ch.isprintable() and not fnt.has(ch)})
    assert missing == []
    assert fnt.font_for("→") is fnt.fonts[0] and fnt.font_for("한") is fnt.fonts[1]
