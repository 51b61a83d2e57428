"""A replay as one static HTML file: the app's player, its data and a short provenance header, nothing else.

It is the same document the replay page puts in its iframe (specreplay.replay.html, the
same assets/player/*.js and the same payload), plus a title and notes. Everything is
inline — the player's modules, the CSS, the runs' chunks — and a Content-Security-Policy
forbids every network request, so it plays opened from disk, offline, on any static host
or in a blog's <iframe>. Fonts are the reader's system fonts (nothing is bundled).
"""

from __future__ import annotations

from html import escape

from specreplay.importers.imported import imported_info, source_line
from specreplay.languages import LANGUAGES, Lang
from specreplay.recording.format import Recording
from specreplay.replay.html import player_html
from specreplay.replay.panes import Pane
from specreplay.replay.payload import player_payload
from specreplay.replay.playback import default_speed, speed_note
from specreplay.replay.selection import Selection
from specreplay.replay.source import provenance
from specreplay.replay.titles import title
from specreplay.words import arm_label, word

# data: is needed for the player's own modules (an import map points ./timeline.js at a data: URL)
CSP = "default-src 'none'; script-src 'unsafe-inline' data:; style-src 'unsafe-inline'; img-src data:"
STYLE = """body { display: flex; flex-direction: column; }
.export-head { flex: none; padding: 8px 8px 0; }
.export-head h1 { font-size: 17px; margin: 0 0 4px; }
.export-head p { margin: 0 0 3px; font-size: 12.5px; color: var(--muted); }
.export-head ul { margin: 0 0 3px; padding-left: 18px; font-size: 12.5px; color: var(--muted); }
.export-head .kind { color: var(--strong); border-radius: 9px; padding: 0 6px; font-weight: 600; font-size: 11px; }
#player { flex: 1; min-height: 460px; }"""


def _kind_line(kind: str, text: str, lang: Lang) -> str:
    return (f'<p><span class="kind" style="background:var(--{kind})">{escape(word(kind, lang))}</span> '
            f"{escape(text)}</p>")


def standalone_html(panes: list[Pane], *, title: str, rec: Recording | None = None, lang: Lang = LANGUAGES[0],
                    speed: float | None = None, reference: int | None = None) -> str:
    """One self-contained document that plays these panes exactly as the app's player does; the speed defaults to
    the rule's opening speed (specreplay.replay.playback.default_speed)."""
    if speed is None:
        speed = default_speed(max((p.track.end_us for p in panes), default=0))
    payload = {**player_payload(panes, speed=speed, lang=lang, reference=reference), "standalone": True}
    parts = [f"<h1>{escape(title)}</h1>", f"<p>{escape(word('export_note', lang))}</p>",
             f'<p class="export-speed">{escape(word("speed", lang))}: {escape(speed_note(speed, lang))}</p>']
    ref = payload["reference"]
    if ref is not None:
        parts.append(f"<p>{escape(word('export_ratio', lang).format(x=arm_label(panes[ref].label, lang)))}</p>")
    warned = [(pp["label"], w, pp["defect"]) for pp in payload["panes"] for w in pp["warnings"]]
    if warned:  # an engine defect's line links to its fix
        parts.append('<ul class="export-warn">' + "".join(
            f"<li>⚠ {escape(label)}: " + (f'<a href="{escape(d["href"])}">{escape(w)}</a>' if d and w == d["text"]
                                          else escape(w)) + "</li>" for label, w, d in warned) + "</ul>")
    info = imported_info(rec) if rec else None
    if rec and info:
        parts.append(_kind_line("imported", source_line(info), lang))
        if info.lacks:
            parts.append(f"<p>{escape(word('export_lacks', lang))}</p><ul>"
                         + "".join(f"<li>{escape(x)}</li>" for x in info.lacks) + "</ul>")
    elif rec:  # every recorded kind on screen, timing only apart from measured here
        for kind in dict.fromkeys(p.kind for p in panes if p.kind in ("measured", "timing_only")):
            parts.append(_kind_line(kind, provenance(rec.header).line(), lang))
    if any(p.counts == "chunks" for p in panes):
        parts.append(f"<p>{escape(word('export_chunks', lang))}</p>")
    if any(p.kind == "simulated" for p in panes):
        parts.append(_kind_line("simulated", word("export_sim", lang), lang))
    parts.append(f"<p>{escape(word('export_offline', lang))}</p>")
    head = (f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style>")
    return player_html(payload, head=head, before=f'<header class="export-head">{"".join(parts)}</header>')


def export_recording(rec: Recording, sel: Selection, lang: Lang = LANGUAGES[0]) -> str:
    """The replay of this selection as one document, the same panes the replay page shows for it."""
    panes = sel.panes(rec, word("simulated", lang))
    return standalone_html(panes, title=f"{title(rec, lang)} — {sel.prompt}", rec=rec, lang=lang,
                           speed=sel.opening_speed(panes), reference=sel.reference)
