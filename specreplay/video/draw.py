"""Drawing one video frame: the player's layout for a list of panes at playback time t.

Everything drawn is a function of (panes, size, language, t): no clocks, no
randomness. To stay fast, what does not change is drawn once (background, pane
chrome, labels, notes), closed text lines are drawn once and pasted, and a
pane's text box is redrawn only when its visible chunk count changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
from PIL import Image, ImageDraw

from specreplay.languages import LANGUAGES, Lang
from specreplay.replay.details import subtitle
from specreplay.replay.labels import pane_labels, reference_name, titles
from specreplay.replay.panes import Pane
from specreplay.replay.payload import pane_warnings
from specreplay.replay.speedup import speedups
from specreplay.replay.theme import RGB, rgb
from specreplay.replay.timeline import US, decode_rate, visible_chunks
from specreplay.video.glyphs import Face, face
from specreplay.video.text import Line, Wrapper
from specreplay.words import arm_label, word

# The player's dark theme (assets/player/theme.json; badge colours from assets/palette.json). Every colour used is listed here: the GIF palette is built
# from these.
BG: RGB = rgb("dark", "bg")
PANE: RGB = rgb("dark", "panel")
BORDER: RGB = rgb("dark", "line")
TEXT: RGB = rgb("dark", "fg")
MUTED: RGB = rgb("dark", "muted")
STRONG: RGB = rgb("dark", "strong")
# chunks of several tokens; alternate so neighbours read as two
BURST_BG: tuple[RGB, RGB] = (rgb("dark", "burst"), rgb("dark", "burst2"))
MEASURED_BG: RGB = rgb("dark", "measured")
SIMULATED_BG: RGB = rgb("dark", "simulated")
IMPORTED_BG: RGB = rgb("dark", "imported")
TIMING_ONLY_BG: RGB = rgb("dark", "timing_only")
KIND_BG: dict[str, RGB] = {"measured": MEASURED_BG, "timing_only": TIMING_ONLY_BG, "simulated": SIMULATED_BG,
                           "imported": IMPORTED_BG}
WARN = "⚠ "
# (background, ink) pairs that anti-aliased text and shapes blend between.
INK_PAIRS: tuple[tuple[RGB, RGB], ...] = (
    (BG, STRONG), (BG, MUTED), (BG, BORDER), (BG, PANE), (BG, SIMULATED_BG), (PANE, TEXT), (PANE, MUTED),
    (PANE, STRONG), (PANE, BORDER), (PANE, SIMULATED_BG), (BURST_BG[0], TEXT), (BURST_BG[1], TEXT),
    (MEASURED_BG, STRONG), (TIMING_ONLY_BG, STRONG), (SIMULATED_BG, STRONG), (IMPORTED_BG, STRONG),
)


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    w: int
    h: int


@dataclass(frozen=True)
class Layout:
    """Pixel geometry for a frame size and pane count; everything scales with the frame size."""

    width: int
    height: int
    panes: tuple[Box, ...]
    text_boxes: tuple[Box, ...]  # the scrolling text area inside each pane
    line_height: int
    sizes: dict[str, int]
    margin: int
    pad: int
    title_rows: int  # lines of a pane's title


def layout(width: int, height: int, n_panes: int, legend: int = 0, warn_rows: int = 0, title_rows: int = 1) -> Layout:
    """`legend`: lines of the full-label legend under the panes; `warn_rows`: warning lines in the panes' heads;
    `title_rows`: lines of the panes' titles."""
    s = min(height / 720, width / 1280 * 1.25)  # narrow frames (square) shrink a little less than their width
    sizes = {k: max(8, round(v * s)) for k, v in
             {"clock": 34, "title": 17, "note": 15, "label": 21, "badge": 13, "subtitle": 13, "rate": 26,
              "counter": 15, "body": 16}.items()}
    margin, gap, pad = round(24 * s), round(16 * s), round(14 * s)
    header_h = round(62 * s)
    footer_h = round(40 * s) + round(legend * sizes["note"] * 1.4)
    top, bottom = margin + header_h, height - margin - footer_h
    pw = (width - 2 * margin - (n_panes - 1) * gap) // n_panes
    panes = tuple(Box(margin + i * (pw + gap), top, pw, bottom - top) for i in range(n_panes))
    chrome_h = pad + title_rows * round(sizes["label"] * 1.35) + round(sizes["subtitle"] * 1.6) + round(sizes["rate"] * 1.3) \
        + round(sizes["counter"] * 1.6) + pad + warn_rows * round(sizes["subtitle"] * 1.5)
    line_h = round(sizes["body"] * 1.5)
    text_boxes = tuple(Box(b.x + pad, b.y + chrome_h + pad, b.w - 2 * pad, b.h - chrome_h - 2 * pad) for b in panes)
    return Layout(width, height, panes, text_boxes, line_h, sizes, margin, pad, title_rows)


def wrap(s: str, fnt: Face, max_w: float, rows: int, first_w: float | None = None) -> list[str]:
    """s in at most `rows` lines of max_w pixels (the first line first_w, where a badge sits beside it), broken at
    spaces; the last line cut with an ellipsis."""
    lines: list[str] = []
    words = s.split(" ")
    while words and len(lines) < rows - 1:
        room = first_w if first_w is not None and not lines else max_w
        line = words.pop(0)
        while words and fnt.getlength(f"{line} {words[0]}") <= room:
            line += " " + words.pop(0)
        lines.append(fit(line, fnt, room))
    if words:
        lines.append(fit(" ".join(words), fnt, first_w if first_w is not None and not lines else max_w))
    return lines


def legend_lines(titles: list[str], fulls: list[str], lay: Layout) -> list[tuple[int, str]]:
    """The legend under the panes, (indent, text) a line: each pane's full label keyed by its title, in one line of
    the frame's width or two, the second indented (a timing-only size file's labels run to ~230 characters)."""
    fnt, inner, indent = face("regular", lay.sizes["note"]), lay.width - 2 * lay.margin, 2 * lay.sizes["note"]
    return [(indent if row else 0, line) for title, full in zip(titles, fulls)
            for row, line in enumerate(wrap(f"{title}: {full}", fnt, inner - indent, 2, first_w=inner))]


def fit(s: str, fnt: Face, max_w: float) -> str:
    """s, cut with an ellipsis to fit max_w pixels."""
    if fnt.getlength(s) <= max_w:
        return s
    while s and fnt.getlength(s + "…") > max_w:
        s = s[:-1]
    return s + "…"


class PaneText:
    """One pane's wrapped text box, advanced chunk by chunk: closed lines are drawn once, and only the rows
    from the previously open line down are repainted, unless the text scrolled."""

    def __init__(self, pane: Pane, box: Box, line_h: int, fnt: Face):
        self.pane, self.box, self.line_h, self.font = pane, box, line_h, fnt
        self.rows = max(1, box.h // line_h)
        self.widths: dict[str, float] = {}
        self.pixels = np.empty((box.h, box.w, 3), np.uint8)
        self._reset()

    def _reset(self) -> None:
        self.chunks, self.first, self.bursts = 0, -1, 0  # first: top visible line; -1: nothing drawn yet
        self.wrapper = Wrapper(self.box.w, self._char_width)
        self.line_pixels: list[np.ndarray] = []
        self.pixels[:] = PANE

    def _char_width(self, ch: str) -> float:
        w = self.widths.get(ch)
        if w is None:
            w = self.widths[ch] = self.font.getlength(ch)
        return w

    def update(self, chunks: int) -> int:
        """Show the first `chunks` chunks (the last lines that fit, like the player's scroll).
        Returns the first pixel row that changed (box height if none)."""
        if chunks == self.chunks and self.first >= 0:
            return self.box.h
        if chunks < self.chunks:  # went backwards (frames drawn out of order): start over
            self._reset()
        was_open = len(self.wrapper.closed)
        track = self.pane.track
        for i in range(self.chunks, chunks):
            mark = 0
            if track.n[i] > 1:
                mark, self.bursts = 1 + self.bursts % 2, self.bursts + 1
            self.wrapper.feed(track.text[i], mark)
        self.chunks = chunks
        lines = self.wrapper.lines()
        for line in lines[len(self.line_pixels):-1]:
            self.line_pixels.append(self._draw_line(line))
        first = max(0, len(lines) - self.rows)
        start = 0 if first != self.first else was_open - first  # lines above the previously open one stand still
        self.first = first
        for row in range(start, self.rows):
            i = first + row
            y = row * self.line_h
            if i >= len(lines):
                self.pixels[y:y + self.line_h] = PANE
            else:
                self.pixels[y:y + self.line_h] = self.line_pixels[i] if i < len(self.line_pixels) \
                    else self._draw_line(lines[i])
        return start * self.line_h

    def _draw_line(self, line: Line) -> np.ndarray:
        img = Image.new("RGB", (self.box.w, self.line_h), PANE)
        draw = ImageDraw.Draw(img)
        x = 0.0
        for seg, mark in line:
            w = sum(self._char_width(c) for c in seg)
            if mark:
                draw.rectangle((round(x), 1, round(x + w) - 1, self.line_h - 2), fill=BURST_BG[mark - 1])
            self.font.text(draw, (x, 0), seg, fill=TEXT)
            x += w
        return np.asarray(img)


def _badge(draw: ImageDraw.ImageDraw, right: int, top: int, label: str, bg: RGB, fnt: Face) -> None:
    w = fnt.getlength(label)
    px, py = round(fnt.size * 0.5), round(fnt.size * 0.25)
    box = (right - w - 2 * px, top, right, top + fnt.size + 2 * py)
    draw.rounded_rectangle(box, radius=round(fnt.size * 0.4), fill=bg)
    fnt.text(draw, (box[0] + px, top + py), label, fill=STRONG)


class FrameDrawer:
    """Draws frames of one replay; reuse one instance for all frames of a video (it caches)."""

    def __init__(self, panes: list[Pane], width: int, height: int, lang: Lang = LANGUAGES[0], speed_label: str = "",
                 title: str = "", reference: int | None = None):
        if not 1 <= len(panes) <= 4:
            raise ValueError(f"a video shows 1 to 4 panes side by side, got {len(panes)}")
        self.panes, self.lang = panes, lang
        self.reference, self.ratios = speedups(panes, reference)
        self.warnings = pane_warnings(panes, self.reference, lang)
        # panes lead with what differs, without the words every one shares (the model: the subtitle names it), in
        # up to two lines, so four narrow panes still tell their arms apart; the full labels go in the legend under
        # the panes when a title is not its full label
        self.labels = pane_labels(panes, lang)
        self.titles = titles(self.labels)
        fulls = [arm_label(p.label, lang) for p in panes]
        self.legend = any(t != f for t, f in zip(self.titles, fulls))
        self.legend_lines = legend_lines(self.titles, fulls, layout(width, height, len(panes))) if self.legend else []
        warn_rows = 2 if any(self.warnings) else 0
        self.lay = layout(width, height, len(panes), len(self.legend_lines), warn_rows)
        if any(self.title_lines(i)[0] != t for i, t in enumerate(self.titles)):  # one line cut one: two each
            self.lay = layout(width, height, len(panes), len(self.legend_lines), warn_rows, title_rows=2)
        self.end_us = max(p.track.end_us for p in panes)
        self.texts = [PaneText(p, b, self.lay.line_height, face("regular", self.lay.sizes["body"]))
                      for p, b in zip(panes, self.lay.text_boxes)]
        self.background = self._background(speed_label, title)
        sz, pad = self.lay.sizes, self.lay.pad
        self.clock_box = Box(self.lay.margin, self.lay.margin, self.lay.width // 3, round(sz["clock"] * 1.1))
        stats_y = pad + self.lay.title_rows * round(sz["label"] * 1.35) + round(sz["subtitle"] * 1.6) \
            + warn_rows * round(sz["subtitle"] * 1.5)
        stats_h = round(sz["rate"] * 1.3) + round(sz["counter"] * 1.4)
        self.stats_boxes = [Box(b.x + pad, b.y + stats_y, b.w - 2 * pad, stats_h) for b in self.lay.panes]
        self.frame = np.array(self.background)  # repainted in place, region by region
        self.last: tuple | None = None
        self.dirty: list[Box] = []  # regions the last draw() repainted

    def _badge_font(self, i: int) -> Face:
        """The kind badge's font: its size, or smaller where the badge would be wider than the pane (four square panes
        of "timing only (set acceptance)")."""
        size, inner = self.lay.sizes["badge"], self.lay.panes[i].w - 2 * self.lay.pad
        full = face("bold", size).getlength(word(self.panes[i].kind, self.lang)) + 2 * size
        return face("bold", min(size, max(8, int(size * inner / full))))

    def badge_width(self, i: int) -> float:
        fnt = self._badge_font(i)
        return fnt.getlength(word(self.panes[i].kind, self.lang)) + 2 * fnt.size

    def title_lines(self, i: int) -> list[str]:
        """Pane i's title: one line beside the kind badge, or two lines of the pane's width (the badge then sits on
        the subtitle's line)."""
        inner = self.lay.panes[i].w - 2 * self.lay.pad
        fnt = face("bold", self.lay.sizes["label"])
        if self.lay.title_rows == 1:
            return [fit(self.titles[i], fnt, inner - self.badge_width(i))]
        return wrap(self.titles[i], fnt, inner, 2)

    def _background(self, speed_label: str, title: str) -> Image.Image:
        lay, sz = self.lay, self.lay.sizes
        img = Image.new("RGB", (lay.width, lay.height), BG)
        draw = ImageDraw.Draw(img)
        right = lay.width - lay.margin
        mid_y = lay.margin + round(sz["clock"] * 0.55)
        if speed_label:  # beside the clock: how fast this video plays the recording
            clock_w = face("bold", sz["clock"]).getlength("00.0 s")
            face("bold", sz["title"]).text(draw, (lay.margin + clock_w + sz["title"], mid_y), speed_label, fill=TEXT,
                                           anchor="lm")
        if title:
            fnt = face("regular", sz["title"])
            fnt.text(draw, (right, mid_y), fit(title, fnt, lay.width * 0.45), fill=MUTED, anchor="rm")
        note_font = face("regular", sz["note"])
        note_font.text(draw, (lay.margin, lay.height - lay.margin),
                       fit(word("video_note", self.lang), note_font, right - lay.margin), fill=MUTED, anchor="ld")
        line_h = round(sz["note"] * 1.4)  # the full labels above the note
        y0 = lay.panes[0].y + lay.panes[0].h + round(sz["note"] * 0.6)
        for i, (indent, line) in enumerate(self.legend_lines):
            note_font.text(draw, (lay.margin + indent, y0 + i * line_h), line, fill=MUTED)
        for i, (pane, box, tb, warns) in enumerate(zip(self.panes, lay.panes, lay.text_boxes, self.warnings)):
            # Simulated panes get an outline in the simulated colour, as in the player.
            draw.rounded_rectangle((box.x, box.y, box.x + box.w - 1, box.y + box.h - 1), radius=round(lay.pad * 0.7),
                                   fill=PANE, outline=SIMULATED_BG if pane.kind == "simulated" else BORDER,
                                   width=max(1, round(sz["body"] / 16)) * (2 if pane.kind == "simulated" else 1))
            x, y, inner = box.x + lay.pad, box.y + lay.pad, box.w - 2 * lay.pad
            for row, line in enumerate(self.title_lines(i)):
                face("bold", sz["label"]).text(draw, (x, y + row * round(sz["label"] * 1.35)), line, fill=STRONG)
            _badge(draw, box.x + box.w - lay.pad, y + (lay.title_rows - 1) * round(sz["label"] * 1.35) * 2,
                   word(pane.kind, self.lang), KIND_BG[pane.kind], self._badge_font(i))
            y += lay.title_rows * round(sz["label"] * 1.35)
            sub_font = face("regular", sz["subtitle"])
            sub_w = inner - (self.badge_width(i) if lay.title_rows == 2 else 0)  # the badge beside it, when titles wrap
            if sub_w >= 4 * sz["subtitle"]:  # room for a few words, not a lone "…"
                sub_font.text(draw, (x, y), fit(subtitle(pane, self.lang), sub_font, sub_w), fill=MUTED)
            for line in wrap(WARN + " · ".join(warns), sub_font, inner, 2) if warns else []:
                y += round(sz["subtitle"] * 1.5)  # degenerate or not like-for-like text: the reason, in orange
                sub_font.text(draw, (x, y), line, fill=SIMULATED_BG)
            sep_y = tb.y - lay.pad // 2
            draw.line((x, sep_y, x + inner, sep_y), fill=BORDER, width=1)
        return img

    def state(self, t_us: int) -> tuple:
        """Everything a frame at t shows, as a hashable value: equal states draw equal frames."""
        final = t_us >= self.end_us
        panes = []
        for i, (pane, ratio) in enumerate(zip(self.panes, self.ratios)):
            track = pane.track
            at = min(t_us, track.end_us)  # a finished pane's clock and rate stop at its last chunk
            rate = decode_rate(track, at)
            done = t_us >= track.end_us
            panes.append((
                visible_chunks(track, t_us),
                # an imported pane without tokens per chunk counts chunks (specreplay.importers.imported)
                ("— " if rate is None else f"{rate:.1f} ") + ("tok/s" if pane.counts == "tokens" else "chunks/s"),
                f"{track.cum_tokens[visible_chunks(track, t_us)]:,} {word(pane.counts, self.lang)} · "
                # a concurrency replay's level total takes the place of the pane's own clock (the frame has one)
                + (self._system(pane, t_us) if pane.system is not None else
                   f"{at / US:.1f} s" + (f" · {word('video_done', self.lang)}" if done else "")),
                self._ratio(i, ratio) if final else "",
            ))
        return f"{min(t_us, self.end_us) / US:.1f} s", tuple(panes)

    def _system(self, pane: Pane, t_us: int) -> str:
        """A concurrency replay's level total, as the player shows it under the pane: tokens arrived by t ÷ t."""
        shown = pane.system.cum_tokens[visible_chunks(pane.system, t_us)] if pane.system and t_us > 0 else 0
        return f"{word('system', self.lang)} {shown * US / t_us if shown else 0:,.0f} tok/s"

    def _ratio(self, i: int, ratio: float | None) -> str:
        """'×2.49 vs bf16' at the end (specreplay.replay.speedup), the reference's own pane says so."""
        if self.reference is None:
            return ""
        if i == self.reference:
            return word("reference", self.lang)
        if ratio is None:
            return ""
        return f"×{ratio:.2f} " + word("vs", self.lang).format(x=reference_name(self.labels, self.reference))

    def draw(self, state: tuple) -> np.ndarray:
        """The frame for `state` (H x W x 3 RGB). Only regions whose part of the state changed are repainted
        (listed in self.dirty), each completely, so the result does not depend on which frames came before."""
        clock, panes = state
        lay, sz = self.lay, self.lay.sizes
        self.dirty = [] if self.last else [Box(0, 0, lay.width, lay.height)]
        last_clock, last_panes = self.last if self.last else (None, (None,) * len(panes))
        if clock != last_clock:
            self._paint(self.clock_box, lambda d, b: face("bold", sz["clock"]).text(
                d, (0, b.h // 2), clock, fill=STRONG, anchor="lm"))
        for i, (now, before) in enumerate(zip(panes, last_panes)):
            chunks, rate, counter, ratio = now
            if before is None or now[1:] != before[1:]:
                self._paint(self.stats_boxes[i], partial(self._stats, rate=rate, counter=counter, ratio=ratio))
            if before is None or chunks != before[0]:
                tb = lay.text_boxes[i]
                row = self.texts[i].update(chunks)
                if row < tb.h:
                    self.frame[tb.y + row:tb.y + tb.h, tb.x:tb.x + tb.w] = self.texts[i].pixels[row:]
                    self.dirty.append(Box(tb.x, tb.y + row, tb.w, tb.h - row))
        self.last = state
        return self.frame

    def _paint(self, box: Box, paint: Callable[[ImageDraw.ImageDraw, Box], None]) -> None:
        region = self.background.crop((box.x, box.y, box.x + box.w, box.y + box.h))
        paint(ImageDraw.Draw(region), box)
        self.frame[box.y:box.y + box.h, box.x:box.x + box.w] = np.asarray(region)
        self.dirty.append(box)

    def _stats(self, draw: ImageDraw.ImageDraw, box: Box, rate: str, counter: str, ratio: str) -> None:
        sz = self.lay.sizes
        rate_font, counter_font = face("bold", sz["rate"]), face("regular", sz["counter"])
        needed = rate_font.getlength(rate) + (rate_font.getlength("  " + ratio) if ratio else 0)
        if needed > box.w:  # narrow panes (4 in a square frame): shrink rather than overlap
            rate_font = face("bold", max(8, int(sz["rate"] * box.w / needed)))
        rate_font.text(draw, (0, 0), rate, fill=STRONG)
        if ratio:
            rate_font.text(draw, (box.w, 0), ratio, fill=STRONG, anchor="ra")
        counter_font.text(draw, (0, round(sz["rate"] * 1.3)), fit(counter, counter_font, box.w), fill=MUTED)
