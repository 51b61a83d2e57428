"""Words each page shows outside expanders, in both languages: the prose a reader meets before opening anything.

    nice python bench/page_words.py            # a Markdown table for docs/explainer.md

Each page runs once in Streamlit's AppTest, as on a fresh visit. Counted: titles, headers, Markdown, captions,
alerts, metric labels and page links; not tables, charts or the player, and nothing inside an expander. A word is a
run of letters or digits (Korean counts by spacing, as it is read); badge markup and link addresses are dropped.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from specreplay.views import pages  # noqa: E402
from tests.apptest_helpers import open_page, prose_words  # noqa: E402

PAGES = [p.name for p in pages.PAGES]


def main() -> None:
    print("| page | words (ko) | words (en) |\n|---|---|---|")
    for page in PAGES:
        ko, en = (prose_words(open_page(page, lang).main) for lang in ("ko", "en"))
        print(f"| {page} | {ko} | {en} |")


if __name__ == "__main__":
    main()
