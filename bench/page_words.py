"""Words each page shows outside expanders, in both languages: the prose a reader meets before opening anything.

    nice python bench/page_words.py            # a Markdown table for docs/explainer.md

Each page runs once in Streamlit's AppTest, as on a fresh visit. Counted: titles, headers, Markdown, captions,
alerts, metric labels and page links; not tables, charts or the player, and nothing inside an expander. A word is a
run of letters or digits (Korean counts by spacing, as it is read); badge markup and link addresses are dropped.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.apptest_helpers import open_page  # noqa: E402

PAGES = ["home", "replay", "acceptance", "concurrency", "ladder", "cost", "roofline", "chooser"]
PROSE = {"title", "header", "subheader", "markdown", "caption", "alert", "info", "warning", "success", "error",
         "page_link"}
MARKUP = re.compile(r":[a-z]+-badge\[|\]\([^)]*\)|\\.|\u2060")


def words(text: str) -> int:
    return len(re.findall(r"\w+", MARKUP.sub(" ", text)))


def count(node) -> int:
    """Words under one node of the AppTest tree, expanders left out."""
    kind = getattr(node, "type", "")
    if kind == "expander":
        return 0
    children = getattr(node, "children", None)
    if children is not None:
        return sum(count(c) for c in children.values())
    if kind == "metric":
        return words(str(node.label))
    if kind in PROSE or type(node).__name__ in ("Info", "Warning", "Success", "Error", "Caption", "Markdown"):
        return words(str(getattr(node, "value", "") or getattr(node, "label", "")))
    return 0


def main() -> None:
    print("| page | words (ko) | words (en) |\n|---|---|---|")
    for page in PAGES:
        ko, en = (count(open_page(page, lang).main) for lang in ("ko", "en"))
        print(f"| {page} | {ko} | {en} |")


if __name__ == "__main__":
    main()
