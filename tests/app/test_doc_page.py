"""The docs one click away: the captions that name a doc link to the hidden doc page, which shows it."""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from specreplay import languages, repo_docs
from specreplay.views import pages
from tests.browser_fixtures import ROOT


def _doc(lang: str, **query: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["lang"] = lang
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(str(Path(pages.DOCS.file).relative_to(ROOT)))
    return at.run()


@pytest.mark.parametrize("lang", languages.LANGUAGES)
def test_every_doc_a_text_names_is_a_link_to_the_doc_page(lang: str) -> None:
    lines = (languages.DIRECTORY / f"{lang}.toml").read_text().splitlines()
    text = "\n".join(line for line in lines if not line.startswith("#"))  # the file's own comments are not shown
    named = re.findall(r"docs/[a-z-]+\.md", text)
    linked = re.findall(r"\[docs/([a-z-]+)\.md\]\(doc\?name=([a-z-]+)&lang=(\w+)(?:#[a-z0-9-]+)?\)", text)
    assert not re.search(r"(?<![\w/])(?:bench|specreplay|views|recorder)/[\w/]+\.py", text)  # no source file named
    assert named and len(linked) == len(named)  # no doc named as plain text
    assert all(a == b and a in repo_docs.doc_names() and code == lang for a, b, code in linked)


def test_the_doc_page_shows_the_doc_with_its_links_to_other_docs_on_the_page() -> None:
    at = _doc("en", name="recorder")
    assert not at.exception
    body = "\n".join(m.value for m in at.markdown)
    assert body.startswith((ROOT / "docs/recorder.md").read_text().splitlines()[0])
    assert "](doc?name=llamacpp&lang=en)" in body  # docs/recorder.md links llamacpp.md
    assert not re.search(r"\]\((?!doc\?|https?:|#)[^)]*\)", body)  # no link the app cannot serve
    assert "docs/recorder.md" in at.caption[0].value


@pytest.mark.parametrize("name", ["nope", "../README", "x" * 5000])
def test_an_unknown_doc_lists_the_docs_there_are(name: str) -> None:
    at = _doc("ko", name=name)
    assert not at.exception and len(at.warning) == 1
    listed = re.findall(r"\(doc\?name=([a-z-]+)&lang=ko\)", at.markdown[-1].value)
    assert listed == repo_docs.doc_names() and len(listed) >= 10


def test_only_regular_files_inside_docs_are_served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A symbolic link placed in docs/ served any file it pointed at (only the operator can place one; still):
    links, FIFOs (a read would hang) and folders named *.md are no docs."""
    import os

    secret = tmp_path / "secret.txt"
    secret.write_text("not a doc")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "real.md").write_text("# Real\n")
    (docs / "leak.md").symlink_to(secret)
    (docs / "inside.md").symlink_to(docs / "real.md")
    os.mkfifo(docs / "pipe.md")
    (docs / "folder.md").mkdir()
    monkeypatch.setattr(repo_docs, "DOCS", docs)
    assert repo_docs.doc_names() == ["real"]
    assert [repo_docs.doc_markdown(n) for n in ("leak", "inside", "pipe", "folder")] == [None] * 4
    assert repo_docs.doc_markdown("real") == "# Real\n"
