"""The video's text in fonts that hold every glyph the app draws, chosen per character: DejaVu Sans first (Latin,
digits, → × ÷ ≥ ✓ ⚠), then NanumGothic (Hangul and whatever DejaVu Sans lacks), both bundled in assets/fonts.
NanumGothic alone draws → so thin it reads as › in a frame, and has no ✓ or ⚠.

A Face measures and draws a string as runs of one font each, every run on one baseline.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

from specreplay.resources import ASSETS

FONT_DIR = ASSETS / "fonts"
FONT_FILES = {"regular": ("DejaVuSans.ttf", "NanumGothic.ttf"), "bold": ("DejaVuSans-Bold.ttf", "NanumGothicBold.ttf")}
NOT_A_CHARACTER = "\ufffe"  # what a font draws for it is its "missing glyph" box


def font_path(name: str) -> Path:
    path = FONT_DIR / name
    if not path.is_file():
        raise FileNotFoundError(f"{path}: missing — restore assets/fonts/ from git (the video draws with it)")
    return path


def _missing_mark(fnt: ImageFont.FreeTypeFont) -> tuple:
    mask = fnt.getmask(NOT_A_CHARACTER)
    return mask.size, bytes(mask)


class Face:
    """One weight and size of the font chain (state: its fonts and which of them draws each character)."""

    def __init__(self, weight: str, size: int):
        # Basic layout: no dependency on the libraqm version, so glyph placement is the same everywhere.
        self.fonts = [ImageFont.truetype(str(font_path(f)), size, layout_engine=ImageFont.Layout.BASIC)
                      for f in FONT_FILES[weight]]
        self.size = size
        self._missing = [_missing_mark(f) for f in self.fonts]
        self._pick: dict[str, ImageFont.FreeTypeFont] = {}
        self.ascent, self.descent = self.fonts[0].getmetrics()

    def has(self, ch: str) -> bool:
        """Whether some font of the chain draws ch (rather than its missing-glyph box)."""
        return self.font_for(ch) is not None

    def font_for(self, ch: str) -> ImageFont.FreeTypeFont | None:
        if ch not in self._pick:
            mask = None
            for fnt, missing in zip(self.fonts, self._missing):
                mask = fnt.getmask(ch)
                if (mask.size, bytes(mask)) != missing:
                    self._pick[ch] = fnt
                    break
        return self._pick.get(ch)

    def runs(self, text: str) -> list[tuple[str, ImageFont.FreeTypeFont]]:
        """text as consecutive runs of one font each (a character no font has goes with the first font)."""
        out: list[tuple[str, ImageFont.FreeTypeFont]] = []
        for ch in text:
            fnt = self.font_for(ch) or self.fonts[0]
            if out and out[-1][1] is fnt:
                out[-1] = (out[-1][0] + ch, fnt)
            else:
                out.append((ch, fnt))
        return out

    def getlength(self, text: str) -> float:
        return sum(fnt.getlength(run) for run, fnt in self.runs(text))

    def text(self, draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fill: tuple[int, int, int],
             anchor: str = "la") -> None:
        """draw.text with PIL's anchors (horizontal l/m/r; vertical a/m/s/d, from the first font's metrics)."""
        x, y = xy
        x -= {"l": 0.0, "m": self.getlength(text) / 2, "r": self.getlength(text)}[anchor[0]]
        base = {"a": y + self.ascent, "m": y + (self.ascent - self.descent) / 2, "s": y, "d": y - self.descent}[anchor[1]]
        for run, fnt in self.runs(text):
            draw.text((x, base), run, font=fnt, fill=fill, anchor="ls")
            x += fnt.getlength(run)


@lru_cache(maxsize=64)
def face(weight: str, size: int) -> Face:
    return Face(weight, size)
