"""One spec per chart question: data, encodings, texts and caveats built once by a plain function, drawn by the
page (specreplay.views) and by `specreplay export-chart` (specreplay.embeds) alike. No module here imports Streamlit.

    spec = concurrency.view("spec", "cpu", "throughput", lang)   # the page's chart, readout and caveats
    spec.caveats                                                 # the same lines under the page and the file

What every chart shares lives here: at most six series, legend names of at most 40 characters, and a caveat that
a page shows as Markdown (with its links) and a file as plain text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from specreplay.recording.kinds import Kind

MAX_SERIES = 6
MAX_NAME = 40


def short(name: str) -> str:
    """A legend name cut to MAX_NAME characters (the hover and the sources block carry the rest)."""
    return name if len(name) <= MAX_NAME else name[:MAX_NAME - 1] + "…"


def on_scale(values: Iterable[float | None]) -> float:
    """The largest value a chart's axis reaches: the data's own, unless a few values lie far above the rest (each
    more than twice the next one down): those are drawn at the axis' edge as off-scale markers instead of stretching
    the axis over every other point."""
    vs = sorted(v for v in values if v is not None)
    while len(vs) > 1 and vs[-1] > 2 * vs[-2]:
        vs.pop()
    return vs[-1] if vs else 1.0


@dataclass(frozen=True)
class Caveat:
    """One caveat under a chart: plain text for an exported file (which names no address it would not follow),
    and the page's Markdown where it links one (empty: the text itself)."""

    text: str
    markdown: str = ""
    kind: Kind | None = None  # the badge in front of it (measured, computed, …)

    @property
    def page(self) -> str:
        return self.markdown or self.text

    @staticmethod
    def of(markdown: str, kind: Kind | None = None) -> Caveat:
        """A caveat from the page's Markdown whose only markup is bold: the file shows it without the stars."""
        return Caveat(markdown.replace("**", ""), markdown, kind)
