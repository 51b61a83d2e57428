"""Every page's text home: each key has Korean and English, the English has no Hangul, and a formatted text's
placeholders are the same in both languages; no other view module writes a Korean/English pair inline, and every
key a module asks its home for is there (a missing one would break the page for its reader)."""

import ast
import importlib
import re
from pathlib import Path

import pytest

HANGUL = re.compile("[\uac00-\ud7a3]")
VIEWS = Path(__file__).resolve().parents[2] / "views"
HOMES = sorted(p.stem for p in VIEWS.glob("*_text.py"))
# Still moving their pairs into text homes (issue #23 item 6, in another branch): drop a name once it has moved.
MODULES = sorted(p for p in VIEWS.glob("*.py") if not p.stem.endswith("_text"))


def test_the_text_homes_are_found() -> None:
    assert {"home_text", "full_scale_text", "shell_text", "chart_parts_text"} <= set(HOMES)
    assert {"full_scale.py", "hero.py", "shell.py", "chart_parts.py"} <= {p.name for p in MODULES}


@pytest.mark.parametrize("home", HOMES)
def test_each_text_has_both_languages_with_the_same_placeholders(home: str) -> None:
    texts = importlib.import_module(f"specreplay.views.{home}").TEXT
    assert texts
    for key, (ko, en) in texts.items():
        assert ko.strip() and en.strip(), key
        assert not HANGUL.search(en), key
        assert set(re.findall(r"\{(\w+)", ko)) == set(re.findall(r"\{(\w+)", en)), key


def _written(node: ast.AST) -> bool:
    """A string written in the code: a literal or an f-string, alone or inside an expression (a + "…")."""
    return any(isinstance(n, ast.JoinedStr) or (isinstance(n, ast.Constant) and isinstance(n.value, str))
               for n in ast.walk(node))


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)
            and (getattr(n.func, "id", None) == name or getattr(n.func, "attr", None) == name)]


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_no_view_module_writes_a_korean_english_pair_inline(module: Path) -> None:
    """`tr("한국어", "English")` belongs in the page's text home; tr() on data fields (a rule's why_ko / why_en) or
    on a shared note (recording.arm.F16_NOTE) stays."""
    inline = [f"{module.name}:{c.lineno}" for c in _calls(ast.parse(module.read_text()), "tr")
              if any(_written(a) for a in c.args)]
    assert not inline, f"inline tr() pairs, move them into a views/*_text.py home: {inline}"


def test_the_inline_pair_check_sees_every_written_form() -> None:
    code = 'tr("가", "a")\ntr(f"{x}가", f"{x} a")\ntr("가" + y, "a" + y)\ntr(*NOTE)\ntr(r.why_ko, r.why_en)\n'
    assert [c.lineno for c in _calls(ast.parse(code), "tr") if any(_written(a) for a in c.args)] == [1, 2, 3]


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_every_key_a_module_reads_is_in_its_text_home(module: Path) -> None:
    tree = ast.parse(module.read_text())
    homes = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
             and n.module.endswith("_text") and any(a.name == "TEXT" for a in n.names)]
    if not homes:
        return
    assert len(homes) == 1, homes
    texts = importlib.import_module(homes[0]).TEXT
    keys = [c.args[0].value for c in _calls(tree, "T")
            if c.args and isinstance(c.args[0], ast.Constant) and isinstance(c.args[0].value, str)]
    assert keys
    assert [k for k in keys if k not in texts] == []


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_each_formatted_read_fills_exactly_its_texts_placeholders(module: Path) -> None:
    """A value left out breaks the page (KeyError), a misspelt one too. A text read without values is a template
    the browser fills (the live charts' "{level}"), and Plotly's own "%{x}" is not ours to fill."""
    tree = ast.parse(module.read_text())
    homes = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
             and n.module.endswith("_text") and any(a.name == "TEXT" for a in n.names)]
    if not homes:
        return
    texts = importlib.import_module(homes[0]).TEXT
    wrong = []
    for c in _calls(tree, "T"):
        if not (c.args and isinstance(c.args[0], ast.Constant) and c.args[0].value in texts):
            continue
        if not c.keywords or any(k.arg is None for k in c.keywords):  # a template, or T(key, **values)
            continue
        wanted = set(re.findall(r"(?<!%)\{(\w+)", texts[c.args[0].value][1]))
        given = {k.arg for k in c.keywords}
        if wanted != given:
            wrong.append(f"{module.name}:{c.lineno} {c.args[0].value}: text has {sorted(wanted)}, given {sorted(given)}")
    assert not wrong, wrong
