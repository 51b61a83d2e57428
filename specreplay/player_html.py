"""The player as one self-contained HTML document (for st.iframe, the benchmark and tests).

The JS stays in assets/player/ as real ES modules (node tests import timeline.js
directly); here they are inlined. An import map points player.js's
`import ... from "./timeline.js"` at a data: URL, so the document needs no server.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from specreplay import resources
from specreplay.theme import css

ASSETS = resources.ASSETS / "player"


def _asset(name: str) -> str:
    return (ASSETS / name).read_text(encoding="utf-8")


def payload_json(payload: dict[str, Any]) -> str:
    """JSON safe inside a <script> element: no '<' survives, so token text like '</script>' cannot close it."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def player_html(payload: dict[str, Any], *, head: str = "", before: str = "") -> str:
    """The player document; `head` and `before` (trusted markup, already escaped) let a standalone export add its
    title, policy and notes around the same player."""
    timeline = base64.b64encode(_asset("timeline.js").encode()).decode()
    imports = json.dumps({"imports": {"./timeline.js": f"data:text/javascript;base64,{timeline}"}})
    return (
        f'<!doctype html><html lang="{payload["lang"]}"><head><meta charset="utf-8">{head}'
        f"<style>{css()}{_asset('player.css')}</style>"
        f'<script type="importmap">{imports}</script></head>'
        f'<body>{before}<div id="player" tabindex="0"></div>'
        f'<script type="application/json" id="specreplay-payload">{payload_json(payload)}</script>'
        f'<script type="module">{_asset("player.js")}</script></body></html>'
    )
