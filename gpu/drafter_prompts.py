"""Training prompts for the drafter we train (issue #38), built offline from Python's standard library.

    python3 -m gpu.drafter_prompts OUT.jsonl [--configs recorder/configs] [--limit 3000]

The lent GPU has no network, so the prompts come from what every Python carries: the public functions and
classes of a fixed list of pure-Python standard-library modules, their docstrings and their source. Three kinds,
like the prompts we record: write code from a description (code), explain a module or function in prose (prose),
and reproduce or lightly edit a given text or function (copy). The answers are the target's own (self-distillation,
as EAGLE-3 trains): gpu/drafter_train.py generates them on the device.

Disjoint from what we record: a prompt that shares any run of SHINGLE words with a prompt of any recorder config
(recorder/configs/*.toml) is dropped, and the CPU ladder's texts are checked the same way. The list depends on the
Python that builds it (its standard library's docstrings); the device's Python 3.12 built the bundled head's.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import random
import re
import sys
import tomllib
import types
from collections.abc import Iterable, Iterator
from pathlib import Path

MODULES = (
    "argparse", "ast", "base64", "bisect", "calendar", "collections", "colorsys", "configparser", "contextlib",
    "copy", "csv", "dataclasses", "datetime", "decimal", "difflib", "email.utils", "enum", "filecmp", "fnmatch",
    "fractions", "ftplib", "functools", "getopt", "gettext", "glob", "graphlib", "gzip", "heapq", "hmac", "html",
    "html.parser", "http.cookies", "imaplib", "inspect", "ipaddress", "json", "keyword", "linecache", "locale",
    "logging", "mailbox", "mimetypes", "netrc", "ntpath", "numbers", "operator", "optparse", "os", "pathlib",
    "pickletools", "platform", "plistlib", "poplib", "posixpath", "pprint", "queue", "quopri", "random", "re",
    "reprlib", "sched", "secrets", "selectors", "shlex", "shutil", "smtplib", "socketserver", "statistics", "string",
    "stringprep", "subprocess", "sysconfig", "tarfile", "tempfile", "textwrap", "threading", "timeit", "tokenize",
    "tomllib", "trace", "traceback", "types", "typing", "urllib.parse", "urllib.request", "uuid", "warnings",
    "wave", "weakref", "webbrowser", "xml.dom.minidom", "zipapp", "zipfile",
)
SHINGLE = 6  # words: a shared run this long counts as overlap with a recorded prompt
MAX_SOURCE = 1600  # characters of a function's source in a copy prompt
SEED = 38  # the shuffle before --limit (issue #38)

CODE = ("Implement a Python function `{name}{signature}` from scratch, without importing `{module}`, that behaves as "
        "described below. Use type hints, a docstring and two doctest examples.\n\n{doc}")
CODE_CLASS = ("Write a small Python class `{name}` modelled on `{module}.{name}`, described below. Keep it short, "
              "give every method a docstring, and show how to use it.\n\n{doc}")
PROSE = ("Explain to a junior developer what `{module}.{name}` is for, when it is the right tool, and which "
         "mistakes people make with it. Write a few paragraphs of plain prose.")
PROSE_MODULE = ("Give an overview of Python's `{module}` module for someone who has never used it: what problems it "
                "solves, its most important functions or classes, and a short example.")
COPY_SOURCE = ("Here is a function from Python's standard library. Return it unchanged in a code block, only adding "
               "type hints to its signature, then say in one sentence what it does.\n\n```python\n{source}```")
COPY_DOC = "Reproduce this documentation text exactly as given, then summarise it in one sentence.\n\n{doc}"


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def shingles(text: str, n: int = SHINGLE) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def recorded_prompts(configs: Path) -> list[str]:
    """Every prompt text of every recorder config in this folder: what must never be trained on."""
    texts = []
    for path in sorted(configs.glob("*.toml")):
        texts += [p["text"] for p in tomllib.loads(path.read_text(encoding="utf-8")).get("prompts", [])
                  if isinstance(p.get("text"), str)]
    return texts


def overlaps(text: str, recorded: set[tuple[str, ...]]) -> bool:
    return not shingles(text).isdisjoint(recorded)


def first_paragraph(doc: str, limit: int = 900) -> str:
    para = doc.strip().split("\n\n", 1)[0].strip()
    return para[:limit]


def members(module: types.ModuleType) -> Iterator[tuple[str, object]]:
    names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
    for name in sorted(set(names)):
        obj = getattr(module, name, None)
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and getattr(obj, "__module__", "") == module.__name__:
            yield name, obj


def signature(obj: object) -> str:
    try:
        return str(inspect.signature(obj))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "(...)"


def source(obj: object) -> str | None:
    try:
        text = inspect.getsource(obj)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return None
    return text if len(text) <= MAX_SOURCE else None


def module_prompts(module_name: str) -> Iterator[dict]:
    try:
        module = importlib.import_module(module_name)
    except Exception:  # noqa: BLE001 - a module this Python lacks (uu went in 3.13) is skipped
        return
    if inspect.getdoc(module):
        yield {"kind": "prose", "source": module_name, "text": PROSE_MODULE.format(module=module_name)}
    for name, obj in members(module):
        doc = inspect.getdoc(obj)
        if not doc or len(doc) < 60:
            continue
        where = f"{module_name}.{name}"
        para = first_paragraph(doc)
        if inspect.isclass(obj):
            yield {"kind": "code", "source": where, "text": CODE_CLASS.format(name=name, module=module_name, doc=para)}
        else:
            yield {"kind": "code", "source": where,
                   "text": CODE.format(name=name, signature=signature(obj), module=module_name, doc=para)}
        yield {"kind": "prose", "source": where, "text": PROSE.format(module=module_name, name=name)}
        body = source(obj) if inspect.isfunction(obj) else None
        if body:
            yield {"kind": "copy", "source": where, "text": COPY_SOURCE.format(source=body)}
        elif len(doc) >= 200:
            yield {"kind": "copy", "source": where, "text": COPY_DOC.format(doc=doc[:MAX_SOURCE])}


def build(recorded: Iterable[str], limit: int | None = None, modules: Iterable[str] = MODULES) -> list[dict]:
    """The training prompts: unique, none sharing a SHINGLE-word run with a recorded prompt, shuffled with SEED and
    cut to limit, each with an id."""
    banned: set[tuple[str, ...]] = set().union(*(shingles(t) for t in recorded))
    seen: set[str] = set()
    kept = []
    for module_name in modules:
        for prompt in module_prompts(module_name):
            if prompt["text"] in seen or overlaps(prompt["text"], banned):
                continue
            seen.add(prompt["text"])
            kept.append(prompt)
    random.Random(SEED).shuffle(kept)
    kept = kept[:limit] if limit else kept
    return [{"id": f"train-{i:05d}", **p} for i, p in enumerate(kept)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="JSONL file to write (one prompt a line)")
    ap.add_argument("--configs", type=Path, default=Path(__file__).resolve().parent.parent / "recorder/configs",
                    help="recorder configs whose prompts must stay unseen (default: this checkout's)")
    ap.add_argument("--limit", type=int, default=None, help="keep at most this many prompts")
    args = ap.parse_args(argv)
    recorded = recorded_prompts(args.configs)
    if not recorded:
        raise SystemExit(f"drafter_prompts: no recorder config with prompts in {args.configs}")
    prompts = build(recorded, args.limit)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in prompts), encoding="utf-8")
    kinds = {k: sum(p["kind"] == k for p in prompts) for k in ("code", "prose", "copy")}
    print(f"drafter_prompts: {len(prompts)} prompts ({kinds}) disjoint from {len(recorded)} recorded ones "
          f"-> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
