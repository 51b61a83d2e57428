"""An exported chart as one HTML document: the chart's data (JSON, gzip, base64, inflated by the browser's
DecompressionStream), the app's own chart code and formulas as one inline module (assets/embeds/chart.js with
assets/explainer/ inlined), the styles, the badges and the sources. A Content-Security-Policy forbids every
request, so it opens from file://, on any static host and inside any site's <iframe>, and nothing in it can
reach the network. The same inputs give the same bytes (gzip without a time stamp, keys in a fixed order).
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import Any

from specreplay import palette
from specreplay.embeds.words import say
from specreplay.js_bundle import bundle
from specreplay.languages import Lang
from specreplay.resources import ASSETS
from specreplay.words import word

CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"


@dataclass(frozen=True)
class Chart:
    """What one exported chart holds; `controls` and `data` go to assets/embeds/chart.js as they are."""

    name: str  # the chart's name in chart.js (CHARTS) and on the command line
    title: str
    lead: str
    controls: list[dict[str, Any]]
    defaults: dict[str, Any]  # the app's opening state
    data: dict[str, Any]
    sources: list[tuple[str, str]]  # (kind: one of specreplay.recording.kinds.KINDS, one line)
    links: list[tuple[str, str]] = field(default_factory=list)  # (text, https URL): followed only when clicked
    notes: list[tuple[str, str]] = field(default_factory=list)  # (kind, caption) under the chart, as the page's
    # one line per recording the chart should draw from but could not (unreadable, or nothing of what it needs):
    # shown at the top of the file, and named by the command
    skipped: list[str] = field(default_factory=list)  # repeats allowed: shown once


@lru_cache(maxsize=1)
def _script() -> str:
    return bundle(ASSETS / "embeds" / "chart.js")


@lru_cache(maxsize=1)
def _style() -> str:
    return "\n".join((ASSETS / p).read_text(encoding="utf-8") for p in ("explainer/live_chart.css", "embeds/chart.css"))


def packed(data: dict[str, Any]) -> str:
    """JSON → gzip (no time stamp, so the same data gives the same bytes) → base64."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode()


_CODE = re.compile(r"`([^`]+)`")


def _text(text: str) -> str:
    """Page text as HTML: escaped, its `code` spans (flags, commands) set as code, never shown with their backticks."""
    return _CODE.sub(r"<code>\1</code>", escape(text))


def _badged(kind: str, text: str, lang: Lang) -> str:
    """A line with its kind's badge in front, as the app's captions and sources have."""
    return f'<span class="ex-kind" style="background:{palette.KINDS[kind]}">{escape(word(kind, lang))}</span> {_text(text)}'


def _sources(chart: Chart, lang: Lang) -> str:
    items = "".join(f"<li>{_badged(kind, line, lang)}</li>" for kind, line in dict.fromkeys(chart.sources))
    links = "".join(f'<li><a href="{escape(href)}" target="_blank" rel="noopener">{escape(text)}</a></li>'
                    for text, href in chart.links)
    text = say("embeds", lang)
    count = len(dict.fromkeys(chart.sources)) + len(chart.links)
    return (f'<footer class="ex-sources"><details><summary>{escape(text("sources"))} ({count})</summary>'
            f"<ul>{items}{links}</ul></details><p>{escape(text('offline'))}</p></footer>")


def _skipped(chart: Chart, lang: Lang) -> str:
    if not chart.skipped:
        return ""
    text = say("embeds", lang)
    items = "".join(f"<li>{escape(line)}</li>" for line in dict.fromkeys(chart.skipped))
    return f'<div class="ex-skipped" role="alert"><strong>{escape(text("skipped_title"))}</strong><ul>{items}</ul></div>'


def document(chart: Chart, state: dict[str, Any], lang: Lang, width: int, height: int | None) -> str:
    """The file: `state` is where the controls start; `width` the page's largest width in px, `height` each
    plot's (None: the app's heights)."""
    data = {**chart.data, "chart": chart.name, "controls": chart.controls, "state": state, "height": height}
    notes = "".join(f'<p class="ex-note">{_badged(kind, text, lang)}</p>' for kind, text in chart.notes)
    return (f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(chart.title)}</title><style>{_style()}</style></head>\n"
            f'<body><main id="chart" data-chart="{chart.name}" style="max-width:{width}px">'
            f'<h1>{escape(chart.title)}</h1>{_skipped(chart, lang)}<p class="ex-lead">{_text(chart.lead)}</p>'
            f'<div id="controls"></div><div id="view"></div>{notes}{_sources(chart, lang)}'
            f'<script type="application/octet-stream" id="chart-data">{packed(data)}</script>\n'
            f'<script type="module">\n{_script()}\n</script></main></body></html>\n')
