"""The language files (assets/lang/<code>.toml, specreplay.languages): every language has every key, with the same
placeholders; every key the code asks for is there and filled with exactly its placeholders; no key is dead; and
no module picks a language by comparing its code (a language is its file plus its code in LANGUAGES)."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from specreplay import languages

ROOT = Path(__file__).resolve().parents[2]
HANGUL = re.compile("[\uac00-\ud7a3]")
CODE = sorted([*(ROOT / "specreplay").rglob("*.py"), ROOT / "app.py"])
FIRST = languages.LANGUAGES[0]
WHOLE_TABLES = {"arm_words"}  # read as a whole (words.arm_label swaps every term), not key by key


def fields(text: str) -> set[str]:
    """The names a text's {placeholders} take (Plotly's own %{x} included: it must survive translation too)."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def keys(lang: str) -> set[str]:
    return {f"{t}.{k}" for t, table in languages.language(lang).items() for k in table}


def test_the_languages_are_found() -> None:
    assert languages.LANGUAGES[:2] == ("ko", "en")
    for lang in languages.LANGUAGES:
        assert (languages.DIRECTORY / f"{lang}.toml").is_file()
        assert languages.name(lang).strip() and languages.data(lang) in ("ko", "en")
    assert [languages.name(c) for c in ("ko", "en")] == ["한국어", "English"]
    with pytest.raises(ValueError, match="unknown language"):
        languages.language("xx")


@pytest.mark.parametrize("lang", languages.LANGUAGES[1:])
def test_every_language_has_every_key_with_the_same_placeholders(lang: str) -> None:
    assert keys(lang) == keys(FIRST)
    wrong = [key for key in keys(FIRST) if fields(languages.text(lang, key)) != fields(languages.text(FIRST, key))]
    assert wrong == []


@pytest.mark.parametrize("lang", languages.LANGUAGES)
def test_every_text_is_written(lang: str) -> None:
    assert [key for key in keys(lang) if not languages.text(lang, key).strip()] == []
    if languages.data(lang) == "en":
        assert [key for key in keys(lang) if HANGUL.search(languages.text(lang, key))] == []


def _homes(tree: ast.AST) -> dict[str, str]:
    """Which table each reader name reads: T = Texts("acceptance"), T, W = say("concurrency", lang), say(...)."""
    out = {}
    for n in ast.walk(tree):
        if not isinstance(n, ast.Assign):
            continue
        targets = n.targets[0].elts if isinstance(n.targets[0], ast.Tuple) else n.targets
        values = n.value.elts if isinstance(n.value, ast.Tuple) else [n.value]
        for target, value in zip(targets, values):
            if (isinstance(target, ast.Name) and isinstance(value, ast.Call)
                    and getattr(value.func, "id", None) in ("Texts", "say") and value.args
                    and isinstance(value.args[0], ast.Constant)):
                out[target.id] = value.args[0].value
    return out


def _reads(path: Path) -> list[tuple[int, str, bool, ast.Call]]:
    """Every key the module reads: (line, "table.key", or "table.prefix" and True for an f-string key, the call)."""
    tree = ast.parse(path.read_text())
    homes, out = _homes(tree), []
    for c in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        name = getattr(c.func, "id", None) or getattr(c.func, "attr", None)
        if name in homes and c.args:
            table, arg = homes[name], c.args[0]
        elif name == "word" and c.args:
            table, arg = "words", c.args[0]
        elif name == "text" and len(c.args) > 1 and isinstance(c.args[1], ast.Constant | ast.JoinedStr):
            table, arg = "", c.args[1]
        else:
            continue
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            out.append((c.lineno, f"{table}.{arg.value}" if table else arg.value, False, c))
        elif isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
            out.append((c.lineno, f"{table}.{arg.values[0].value}" if table else str(arg.values[0].value), True, c))
    return out


def test_the_key_reader_sees_every_form(tmp_path: Path) -> None:
    code = ('T = Texts("a")\nT, W = say("b", lang), say("c", lang)\nT("k")\nW(f"p_{x}")\nword("w")\n'
            'languages.text(lang, "d.e", n=1)\n')
    path = tmp_path / "case.py"
    path.write_text(code)
    assert [(key, prefix) for _, key, prefix, _ in _reads(path)] == [
        ("b.k", False), ("c.p_", True), ("words.w", False), ("d.e", False)]


@pytest.mark.parametrize("module", CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_key_a_module_reads_is_there_with_its_placeholders(module: Path) -> None:
    """A missing key or a misspelt value breaks the page for its reader. A text read without values is a template
    the reader fills later (the live charts' "{level}", the player's "{n} concurrent")."""
    every = keys(FIRST)
    missing, wrong = [], []
    for line, key, prefix, call in _reads(module):
        if not (any(k.startswith(key) for k in every) if prefix else key in every):
            missing.append(f"{line}: {key}")
            continue
        if prefix or not call.keywords or any(k.arg is None for k in call.keywords):
            continue
        wanted = {f for f in fields(languages.text(FIRST, key)) if "%{" + f not in languages.text(FIRST, key)}
        if wanted != {k.arg for k in call.keywords}:
            wrong.append(f"{line}: {key} has {sorted(wanted)}, given {sorted(k.arg for k in call.keywords)}")
    assert missing == [] and wrong == []


def test_no_key_is_dead() -> None:
    """Every key is read somewhere: by its own name, as "table.key", or under an f-string prefix (T(f"rung_{arm}"))."""
    names, prefixes = set(), set()
    for path in CODE:
        for n in ast.walk(ast.parse(path.read_text())):
            if isinstance(n, ast.Constant) and isinstance(n.value, str):
                names.add(n.value)
            elif isinstance(n, ast.JoinedStr) and n.values and isinstance(n.values[0], ast.Constant):
                prefixes.add(str(n.values[0].value))
    prefixes.discard("")
    dead = [key for key in sorted(keys(FIRST)) if key.split(".")[0] not in WHOLE_TABLES
            and key.split(".", 1)[1] not in names and key not in names
            and not any(key.split(".", 1)[1].startswith(p) or key.startswith(p) for p in prefixes)]
    assert dead == []


@pytest.mark.parametrize("module", CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_picks_a_language_by_its_code(module: Path) -> None:
    """`lang == "en"` and its kin: a third language would silently get Korean or English. Words come from the
    language files, data columns through languages.localized."""
    found = re.findall(r"""[=!]=\s*["'](?:ko|en)["']|["'](?:ko|en)["']\s*[=!]=|\bif\s+en\b""", module.read_text())
    assert found == []


def _strings(tree: ast.AST) -> list[tuple[int, str]]:
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


@pytest.mark.parametrize("module", sorted((ROOT / "specreplay" / "views").glob("*.py")), ids=lambda p: p.name)
def test_no_page_writes_korean_inline(module: Path) -> None:
    """A page's Korean belongs in ko.toml; the language switch's own label is written in both on purpose."""
    inline = [f"{line}: {s[:40]}" for line, s in _strings(ast.parse(module.read_text()))
              if HANGUL.search(s) and s != "언어 / Language"]
    assert inline == []


class _Row:
    series, series_en = "시리즈", "series"
    label, label_ko = "label", "레이블"


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_data_field_is_read_from_its_languages_column(lang: str) -> None:
    """`<field>_<data>` where the item has it, else the bare field: Korean beside `_en`, English beside `_ko`."""
    ko = lang == "ko"  # the expectation only; the code under test reads the language file's `data`
    assert languages.localized(_Row(), "series", lang) == ("시리즈" if ko else "series")
    assert languages.localized(_Row(), "label", lang) == ("레이블" if ko else "label")
    assert languages.localized({"text_ko": "가", "text_en": "a"}, "text", lang) == ("가" if ko else "a")


def test_a_text_is_filled_from_its_values() -> None:
    assert languages.text("en", "words.level", n=4) == "4 concurrent"
    assert languages.text("ko", "words.level", n=4) == "동시 4개"
    assert languages.text("en", "words.level") == "{n} concurrent"  # a template, for the player to fill
