"""The TOML config: which arms (servers) to record and which prompts to send them.

See recorder/configs/smollm2.toml for an annotated example.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from recorder.errors import RecorderError
from specreplay.format import PROMPT_APIS, PROMPT_KINDS

DEFAULT_LEVELS = (1, 2, 4, 8, 16)


@dataclass(frozen=True)
class Arm:
    id: str
    label: str
    endpoint: str  # base URL, e.g. http://127.0.0.1:8000 (no /v1, no credentials)
    model: str  # the served model name sent in requests
    flags: dict[str, Any]  # how the server was started: speculative config, quantization, ...
    engine: str = "vllm"
    baseline: str | None = None  # id of the arm this one is compared against
    api_key: str | None = field(default=None, repr=False)  # read from env, never written out


@dataclass(frozen=True)
class Prompt:
    id: str
    kind: str
    text: str
    sampling: dict[str, Any]  # temperature, top_p, seed, max_tokens ...
    api: str = "chat"


@dataclass(frozen=True)
class Config:
    path: str
    title: str
    output: str | None
    arms: tuple[Arm, ...]
    prompts: tuple[Prompt, ...]
    repeats: int = 3
    warmup: int = 1
    max_tokens: int = 256
    levels: tuple[int, ...] = DEFAULT_LEVELS
    rounds: int = 1


def _err(path: str, where: str, problem: str) -> RecorderError:
    return RecorderError(f"{Path(path).name}: {where}: {problem}")


def _get(d: dict, key: str, typ: type | tuple[type, ...], path: str, where: str, default: Any = ...) -> Any:
    if key not in d:
        if default is ...:
            raise _err(path, f"{where}{key}", "missing")
        return default
    v = d[key]
    if not isinstance(v, typ) or (isinstance(v, bool) and typ is int):
        raise _err(path, f"{where}{key}", f"expected {getattr(typ, '__name__', typ)}, got {type(v).__name__}")
    return v


def public_endpoint(url: str) -> str:
    """The URL without user:password@, so it can go into a recording."""
    parts = urlsplit(url)
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def load(path: str | os.PathLike) -> Config:
    p = str(path)
    try:
        raw = tomllib.loads(Path(p).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RecorderError(f"{p}: no such config file — see recorder/configs/ for examples") from None
    except tomllib.TOMLDecodeError as exc:
        raise RecorderError(f"{Path(p).name}: not valid TOML ({exc})") from None
    rec = raw.get("record", {})
    arms = [_arm(a, p, i) for i, a in enumerate(_get(raw, "arms", list, p, ""))]
    prompts = [_prompt(q, p, i) for i, q in enumerate(_get(raw, "prompts", list, p, ""))]
    if not arms or not prompts:
        raise _err(p, "arms/prompts", "need at least one [[arms]] and one [[prompts]]")
    ids = [a.id for a in arms]
    for i, a in enumerate(arms):
        if ids.count(a.id) > 1:
            raise _err(p, f"arms[{i}].id", f"duplicate id {a.id!r}")
        if a.baseline is not None and (a.baseline not in ids or a.baseline == a.id):
            raise _err(p, f"arms[{i}].baseline", f"{a.baseline!r} is not another arm's id")
    pids = [q.id for q in prompts]
    for i, q in enumerate(prompts):
        if pids.count(q.id) > 1:
            raise _err(p, f"prompts[{i}].id", f"duplicate id {q.id!r}")
    levels = tuple(_get(rec, "levels", list, p, "record.", list(DEFAULT_LEVELS)))
    if not levels or any(not isinstance(n, int) or n < 1 for n in levels):
        raise _err(p, "record.levels", "expected a list of positive integers")
    cfg = Config(
        path=p,
        title=_get(raw, "title", str, p, "", Path(p).stem),
        output=_get(rec, "output", str, p, "record.", None),
        arms=tuple(arms), prompts=tuple(prompts),
        repeats=_get(rec, "repeats", int, p, "record.", 3),
        warmup=_get(rec, "warmup", int, p, "record.", 1),
        max_tokens=_get(rec, "max_tokens", int, p, "record.", 256),
        levels=levels,
        rounds=_get(rec, "rounds", int, p, "record.", 1),
    )
    for name in ("repeats", "max_tokens", "rounds"):
        if getattr(cfg, name) < 1:
            raise _err(p, f"record.{name}", "must be at least 1")
    if cfg.warmup < 0:
        raise _err(p, "record.warmup", "must be 0 or more")
    return cfg


def _arm(a: Any, p: str, i: int) -> Arm:
    w = f"arms[{i}]."
    if not isinstance(a, dict):
        raise _err(p, f"arms[{i}]", "expected a table")
    key_env = _get(a, "api_key_env", str, p, w, None)
    if "api_key" in a:
        raise _err(p, w + "api_key", "keys do not belong in a config file: set api_key_env = \"VAR\" and export VAR")
    if key_env and key_env not in os.environ:
        raise _err(p, w + "api_key_env", f"environment variable {key_env} is not set")
    endpoint = _get(a, "endpoint", str, p, w)
    if not endpoint.startswith(("http://", "https://")):
        raise _err(p, w + "endpoint", f"expected an http(s) URL, got {endpoint!r}")
    return Arm(
        id=_get(a, "id", str, p, w), label=_get(a, "label", str, p, w, a.get("id", "")),
        endpoint=endpoint.rstrip("/"), model=_get(a, "model", str, p, w),
        flags=_get(a, "flags", dict, p, w, {}), engine=_get(a, "engine", str, p, w, "vllm"),
        baseline=_get(a, "baseline", str, p, w, None),
        api_key=os.environ.get(key_env) if key_env else None,
    )


def _prompt(q: Any, p: str, i: int) -> Prompt:
    w = f"prompts[{i}]."
    if not isinstance(q, dict):
        raise _err(p, f"prompts[{i}]", "expected a table")
    kind = _get(q, "kind", str, p, w)
    if kind not in PROMPT_KINDS:
        raise _err(p, w + "kind", f"unknown kind {kind!r}; use one of {', '.join(PROMPT_KINDS)}")
    api = _get(q, "api", str, p, w, "chat")
    if api not in PROMPT_APIS:
        raise _err(p, w + "api", f"unknown api {api!r}; use one of {', '.join(PROMPT_APIS)}")
    return Prompt(id=_get(q, "id", str, p, w), kind=kind, text=_get(q, "text", str, p, w),
                  sampling=_get(q, "sampling", dict, p, w, {"temperature": 0.0}), api=api)
