"""The player as one self-contained HTML document (for st.iframe, the benchmark and tests).

The JS stays in assets/player/ as real ES modules (node tests import clock.js and
timeline.js directly; tests/fixtures/player/ loads them as they are); here they are
inlined. An import map points player.js's `import ... from "./clock.js"` and
`"./timeline.js"` at data: URLs, so the document needs no server. The one inline module
is player.js followed by embed.js (which mounts it), embed.js's import of player.js
dropped because its `mount` is then in the same module.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from specreplay import resources
from specreplay.replay.theme import css
from specreplay.words import word

ASSETS = resources.ASSETS / "player"


def _asset(name: str) -> str:
    return (ASSETS / name).read_text(encoding="utf-8")


def payload_json(payload: dict[str, Any]) -> str:
    """JSON safe inside a <script> element: no '<' survives, so token text like '</script>' cannot close it."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


_EMBED_IMPORT = 'import { mount } from "./player.js";\n'


def _data_url(name: str) -> str:
    return "data:text/javascript;base64," + base64.b64encode(_asset(name).encode()).decode()


def _player_module() -> str:
    embed = _asset("embed.js")
    if _EMBED_IMPORT not in embed:
        raise ValueError(f"assets/player/embed.js must import mount with {_EMBED_IMPORT.strip()!r}")
    return _asset("player.js") + "\n" + embed.replace(_EMBED_IMPORT, "")


def player_html(payload: dict[str, Any], *, head: str = "", before: str = "", height: int | None = None) -> str:
    """The player document; `head` and `before` (trusted markup, already escaped) let a standalone export add its
    title, policy and notes around the same player.

    Without `height` the player fills its window (an exported file, opened or in a blog's iframe). With it the
    player is that tall on a wide screen and as tall as its stacked panes on a phone (player.css, html.sized), so a
    frame that follows its content (st.iframe's height="content") never draws over what comes after it."""
    imports = json.dumps({"imports": {f"./{m}": _data_url(m) for m in ("clock.js", "timeline.js")}})
    sized = f' class="sized" style="--player-height:{int(height)}px"' if height else ""
    return (
        f'<!doctype html><html lang="{payload["lang"]}"{sized}><head><meta charset="utf-8">{head}'
        f"<style>{css()}{_asset('player.css')}</style>"
        f'<script type="importmap">{imports}</script></head>'
        f'<body>{before}<div id="player" tabindex="0"><p class="loading" role="status">'
        f'{word("loading", payload["lang"])}</p></div>'
        f'<script type="application/json" id="specreplay-payload">{payload_json(payload)}</script>'
        f'<script type="module">{_player_module()}</script></body></html>'
    )
