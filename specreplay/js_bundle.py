"""ES modules of assets/ as one inline module: where a page takes one script (a Streamlit component, an exported
chart), each relative `import { … } from "./x.js";` is replaced by the imported module itself, once, before the
module that needs it. The files stay real modules, so node's tests import them as they are.

The modules share one scope then: their top-level names must not clash (a clash is a SyntaxError in the browser).
"""

from __future__ import annotations

import re
from pathlib import Path

_IMPORT = re.compile(r'^import \{[^}]*\} from "(\.{1,2}/[^"]+\.js)";\n', re.M)


def bundle(entry: Path) -> str:
    """`entry` with every module it imports relatively (and theirs) inlined, each module once, dependencies first."""
    done: list[Path] = []
    parts: list[str] = []

    def add(path: Path) -> None:
        path = path.resolve()
        if path in done:
            return
        done.append(path)
        text = path.read_text(encoding="utf-8")
        for target in _IMPORT.findall(text):
            add(path.parent / target)
        parts.append(_IMPORT.sub("", text))

    add(entry)
    return "\n".join(parts)
