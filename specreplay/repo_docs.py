"""The project's docs/*.md as the app shows them (the hidden `doc` page), so a caption's "docs/gpu.md" is a link.

The docs are written for the repository: links between them (`recorder.md#the-mix-rule`) become links to the
doc page, links to other files of the checkout become plain code text, and images (screenshots) their alt text.
They exist in a checkout only (an installed wheel ships no docs/); `doc_names()` is then empty.
"""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGE = "doc"  # the hidden page's url_path (specreplay/views/shell.py)

_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")
_DOC_TARGET = re.compile(r"(?:\./)?([a-z0-9-]+)\.md(#[\w-]+)?")


def doc_names() -> list[str]:
    """The docs there are, by stem (`gpu` for docs/gpu.md), sorted: regular files in docs/ only, so a symbolic link
    placed there (to any file of the machine), a FIFO (a read would hang) or a folder is never served."""
    if not DOCS.is_dir():
        return []
    return sorted(p.stem for p in DOCS.glob("*.md") if p.is_file() and not p.is_symlink())


def doc_url(name: str, anchor: str = "", lang: str | None = None) -> str:
    """The doc page's address for docs/<name>.md, relative to any page of the app."""
    query = f"name={name}" + (f"&lang={lang}" if lang else "")
    return f"{PAGE}?{query}" + (f"#{anchor.lstrip('#')}" if anchor else "")


def doc_markdown(name: str, lang: str | None = None) -> str | None:
    """docs/<name>.md ready for st.markdown, or None when there is no such doc."""
    if name not in doc_names():
        return None
    text = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    text = _IMAGE.sub(lambda m: f"*{m.group(1)}*" if m.group(1) else "", text)
    return _LINK.sub(lambda m: _relink(m.group(1), m.group(2), lang), text)


def _relink(label: str, target: str, lang: str | None) -> str:
    if re.match(r"[a-z]+:", target) or target.startswith("#"):  # a web address or an anchor on the same doc
        return f"[{label}]({target})"
    doc = _DOC_TARGET.fullmatch(target)
    if doc and doc.group(1) in doc_names():
        return f"[{label}]({doc_url(doc.group(1), doc.group(2) or '', lang)})"
    return f"{label} (`{target}`)"  # a file of the checkout: named, not linked
