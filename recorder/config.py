"""The TOML config: which arms (servers) to record and which prompts to send them.

See recorder/configs/smollm2.toml for an annotated example.
"""

from __future__ import annotations

import difflib
import math
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from recorder.errors import RecorderError
from specreplay import engines
from specreplay.fields import MISSING, FieldError, typed
from specreplay.recording.arm import DRAFT_FLAGS, SYNTH_FLAGS, WEIGHT_FLAGS, speculative_kind
from specreplay.recording.format import (
    MAX_ID_CHARS,
    MAX_LEVELS,
    MAX_MIXES,
    PROMPT_APIS,
    PROMPT_KINDS,
    SAFE_ID,
    SAMPLING,
)

DEFAULT_LEVELS = (1, 2, 4, 8, 16)
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")  # ${VAR} or ${VAR:-default}
# Bounds on what one config may ask for (docs/recorder.md): each level is that many streams and connections open at
# once; the rest keep a typo (levels = [100000000], repeats = 1e6) from running for weeks or filling memory.
MAX_LEVEL = 1024
LIMITS = {"repeats": (1, 1000), "warmup": (0, 100), "max_tokens": (1, 262_144), "rounds": (1, 100)}
MAX_WAIT_S = 86_400.0  # every timeout and wait: finite, at most a day
STOP_SIGNALS = ("SIGTERM", "SIGINT", "SIGQUIT", "SIGHUP", "SIGKILL")  # signals that stop a server by default
ID_RULE = "1–128 letters, digits, '.', '_', '-' or '@', starting with a letter or digit, without '..'"
# Every table's settings. Anything else is refused: a typo ([recrd], max_tokns) would otherwise run with defaults.
# sampling and flags are passed on as they are (an engine has settings of its own), so only a near miss of a name
# the recorder or the engines read is refused there (temprature, quantisation); launch.env's keys are free.
KNOWN = {
    "": ("title", "timing_only", "record", "arms", "prompts", "mixes"),
    "record.": ("output", "repeats", "warmup", "max_tokens", "levels", "rounds", "allow_mixed_sampling",
                "host_busy_max", "host_busy_max_wait_s", "host_busy_on_timeout"),
    "arms.": ("id", "label", "endpoint", "model", "flags", "engine", "baseline", "api_key_env", "api_key", "launch"),
    "arms.launch.": ("command", "env", "health_url", "start_timeout_s", "stop_signal", "stop_grace_s"),
    "prompts.": ("id", "kind", "text", "sampling", "api"),
    "mixes.": ("id", "prompts"),
    "prompts.sampling.": (*SAMPLING, "top_k", "min_p", "typical_p", "min_tokens", "ignore_eos", "n_predict", "stop",
                          "presence_penalty", "frequency_penalty", "repetition_penalty", "logprobs", "top_logprobs"),
    "arms.flags.": ("speculative_config", "parallel", "stream_interval", *WEIGHT_FLAGS, "draft_model", "spec_type",
                    *DRAFT_FLAGS, *SYNTH_FLAGS, "draft_graphs", "drafter_kind", "synthetic_switch", "target_size"),
}
FREE = {"prompts.sampling.": "sampling setting", "arms.flags.": "flag"}  # tables whose other keys are passed on


@dataclass(frozen=True)
class Launch:
    """How the recorder starts an arm's server itself (one arm's server alive at a time)."""

    command: tuple[str, ...]  # ${VAR} already expanded from the environment: what runs
    env: dict[str, str]  # added to the recorder's environment
    health_url: str
    start_timeout_s: float = 600.0
    stop_signal: str = "SIGTERM"  # to the server's process group; SIGKILL after stop_grace_s
    stop_grace_s: float = 30.0
    # The same as the config writes them, ${VAR} unexpanded: what is stored in a recording and printed, so a key
    # or a private path taken from the environment is never written down (recorder/redact.py hides the values too).
    shown_command: tuple[str, ...] = ()
    shown_env: dict[str, str] = field(default_factory=dict)
    shown_health_url: str = ""
    expanded: tuple[tuple[str, str], ...] = field(default=(), repr=False)  # (variable, value) taken from the env


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
    auth: tuple[str, str] | None = field(default=None, repr=False)  # user:password@ from the URL (Basic auth)
    launch: Launch | None = None

    @property
    def speculative(self) -> bool:
        """Whether it drafts, by the recording layer's rule (what a reader of the recording will say of it)."""
        return speculative_kind(self.id, self.flags, list(self.launch.command) if self.launch else []) is not None


@dataclass(frozen=True)
class Prompt:
    id: str
    kind: str
    text: str
    sampling: dict[str, Any]  # temperature, top_p, seed, max_tokens ...
    api: str = "chat"

    @property
    def greedy(self) -> bool:
        """Temperature 0 or absent: the text is deterministic and can be checked against the baseline's."""
        return not self.sampling.get("temperature")


@dataclass(frozen=True)
class Mix:
    """The prompts one sweep level batches together. id None: the implicit mix of all prompts (no [[mixes]])."""

    id: str | None
    prompts: tuple[Prompt, ...]
    mixed_sampling: bool = False  # greedy and sampled together on a speculative arm, allowed by allow_mixed_sampling


@dataclass(frozen=True)
class HostIdle:
    """The machine must be quiet too: /proc/stat CPU busy share (0..1) before each cell/level."""

    busy_max: float = 0.25
    max_wait_s: float = 600.0
    on_timeout: str = "stop"  # or "proceed" (the level line then says how busy the host was)


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
    mixes: tuple[Mix, ...] = ()
    allow_mixed_sampling: bool = False
    host: HostIdle = HostIdle()
    timing_only: bool = False  # the text is not the model's output (dummy weights, or acceptance set by a benchmark mode)


def _err(path: str, where: str, problem: str) -> RecorderError:
    return RecorderError(f"{Path(path).name}: {where}: {problem}")


def _get(d: dict, key: str, typ: type | tuple[type, ...], path: str, where: str, default: Any = MISSING) -> Any:
    try:
        return typed(d, key, typ, default)
    except FieldError as e:
        raise _err(path, f"{where}{key}", str(e)) from None


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
    _finite(raw, p, "")
    _known(raw, "", p, "")
    rec = _get(raw, "record", dict, p, "", {})
    _known(rec, "record.", p, "record.")
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
    mixes = _mixes(raw, prompts, p)
    levels = check_levels(_get(rec, "levels", list, p, "record.", list(DEFAULT_LEVELS)),
                          lambda problem: _err(p, "record.levels", problem))
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
        mixes=mixes,
        allow_mixed_sampling=_get(rec, "allow_mixed_sampling", bool, p, "record.", False),
        timing_only=_get(raw, "timing_only", bool, p, "", False),
        host=HostIdle(
            busy_max=float(_get(rec, "host_busy_max", (int, float), p, "record.", 0.25)),
            max_wait_s=_seconds(rec, "host_busy_max_wait_s", 600, p, "record.", low=0),
            on_timeout=_get(rec, "host_busy_on_timeout", str, p, "record.", "stop"),
        ),
    )
    if not 0 < cfg.host.busy_max <= 1:
        raise _err(p, "record.host_busy_max", "expected a share of the CPU between 0 and 1, e.g. 0.25")
    if cfg.host.on_timeout not in ("stop", "proceed"):
        raise _err(p, "record.host_busy_on_timeout", f"expected \"stop\" or \"proceed\", got {cfg.host.on_timeout!r}")
    for name, (low, high) in LIMITS.items():
        if not low <= getattr(cfg, name) <= high:
            raise _err(p, f"record.{name}", f"{getattr(cfg, name)} is outside the allowed {low}–{high}")
    return cfg


def _finite(value: Any, p: str, where: str) -> None:
    """TOML has nan and inf; no setting, flag or sampling value may be one: JSON has no such number, so the request
    or the recording's header could not hold it."""
    if isinstance(value, float) and not math.isfinite(value):
        raise _err(p, where, f"{value} is not a finite number — write a number")
    if isinstance(value, dict):
        for key, item in value.items():
            _finite(item, p, f"{where}.{key}" if where else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _finite(item, p, f"{where}[{i}]")


def _known(table: Any, kind: str, p: str, where: str) -> None:
    """Refuse a key this table does not have, naming the nearest one that it does; in a table passed on to the
    server (FREE), only a near miss of a known name."""
    known = KNOWN[kind]
    for key in table if isinstance(table, dict) else ():
        if key in known:
            continue
        near = difflib.get_close_matches(key, known, n=1, cutoff=0.8 if kind in FREE else 0.6)
        what = f"[{where}{key}]" if isinstance(table[key], dict) else where + key
        if kind in FREE:
            if near:
                raise _err(p, what, f"not a {FREE[kind]} the recorder or the engines know — did you mean "
                                    f"{where}{near[0]}? (a name far from every known one is passed on as it is)")
            continue
        raise _err(p, what, "not a setting the recorder knows — " + (
            f"did you mean {where}{near[0]}?" if near else f"{kind or 'the top level'} holds {', '.join(known)}"))


def check_levels(levels: list[Any], err: Callable[[str], Exception]) -> tuple[int, ...]:
    """Concurrency levels: whole numbers (not booleans) from 1 to MAX_LEVEL, each once."""
    if not levels:
        raise err(f"expected a list of whole numbers from 1 to {MAX_LEVEL}, e.g. [1, 2, 4, 8]")
    for n in levels:
        if type(n) is not int or not 1 <= n <= MAX_LEVEL:
            raise err(f"{n!r} is not a level: expected whole numbers from 1 to {MAX_LEVEL} (streams at once)")
    if len(levels) > MAX_LEVELS:
        raise err(f"{len(levels)} levels; a recording holds at most {MAX_LEVELS} — split the sweep into several configs")
    dup = next((n for i, n in enumerate(levels) if n in levels[:i]), None)
    if dup is not None:
        raise err(f"{dup} is listed twice: each level is recorded once")
    return tuple(levels)


def _seconds(d: dict, key: str, default: float, p: str, where: str, low: float = 0.0, above: bool = False) -> float:
    """A finite number of seconds from `low` (exclusive if `above`) to a day."""
    value = float(_get(d, key, (int, float), p, where, default))
    if not (value > low if above else value >= low) or not value <= MAX_WAIT_S:  # NaN fails both
        raise _err(p, where + key, f"{value:g} s is outside the allowed {'more than ' if above else ''}{low:g}–"
                   f"{MAX_WAIT_S:g} s")
    return value


def check_id(value: str, p: str, where: str) -> str:
    """An id that names files (launch logs) and travels in URLs (?arms=): the recording format's rule."""
    if len(value) > MAX_ID_CHARS or not SAFE_ID.fullmatch(value) or ".." in value:
        raise _err(p, where, f"{value[:40]!r} is not a usable id: use {ID_RULE}")
    return value


def _flags(a: dict, p: str, w: str) -> dict[str, Any]:
    flags = _get(a, "flags", dict, p, w, {})
    _known(flags, "arms.flags.", p, w + "flags.")
    return flags


def _arm(a: Any, p: str, i: int) -> Arm:
    w = f"arms[{i}]."
    if not isinstance(a, dict):
        raise _err(p, f"arms[{i}]", "expected a table")
    _known(a, "arms.", p, w)
    key_env = _get(a, "api_key_env", str, p, w, None)
    if "api_key" in a:
        raise _err(p, w + "api_key", "keys do not belong in a config file: set api_key_env = \"VAR\" and export VAR")
    if key_env and key_env not in os.environ:
        raise _err(p, w + "api_key_env", f"environment variable {key_env} is not set")
    given = _get(a, "endpoint", str, p, w)
    if not given.startswith(("http://", "https://")):
        shown = "***@" + given.rsplit("@", 1)[-1] if "@" in given else given
        raise _err(p, w + "endpoint", f"expected an http(s) URL, got {shown!r}")
    # user:password@ in the URL becomes Basic auth; the endpoint kept, printed and recorded is without it
    parts = urlsplit(given)
    auth = (unquote(parts.username or ""), unquote(parts.password or "")) if "@" in parts.netloc else None
    if auth and key_env:
        raise _err(p, w + "endpoint", "has user:password@ and the arm has api_key_env too — use one of them")
    endpoint = public_endpoint(given)
    arm_id = check_id(_get(a, "id", str, p, w), p, w + "id")  # no ':', so never the replay page's 'sim:'
    engine = _get(a, "engine", str, p, w, "vllm")
    arm = Arm(
        id=arm_id, label=_get(a, "label", str, p, w, arm_id),
        endpoint=endpoint, model=_get(a, "model", str, p, w),
        flags=_flags(a, p, w), engine=engine,
        baseline=_get(a, "baseline", str, p, w, None),
        api_key=os.environ.get(key_env) if key_env else None, auth=auth,
        launch=(_launch(a["launch"], endpoint + engines.health_path(engine), p, w + "launch.")
                if "launch" in a else None),
    )
    if arm.launch is not None:
        _launch_agrees(arm, arm.launch.command, p, w)
    return arm


def _option(command: tuple[str, ...], *names: str) -> str | None:
    """The value a command line gives an option (`--port 8311` or `--port=8311`; the last one counts)."""
    found = None
    for i, arg in enumerate(command):
        for name in names:
            if arg == name and i + 1 < len(command):
                found = command[i + 1]
            elif arg.startswith(name + "="):
                found = arg.split("=", 1)[1]
    return found


def _launch_agrees(arm: Arm, command: tuple[str, ...], p: str, w: str) -> None:
    """What the config says of a server it starts must be what the command line starts: the recording stores the
    flags as the truth about the arm, and the recorder waits at the endpoint's port. Checked for the options both
    can name: the port, llama-server's slots (--parallel) and its set acceptance (--spec-synth-len)."""
    port, endpoint_port = _option(command, "--port"), urlsplit(arm.endpoint).port
    if port is not None and endpoint_port is not None and port != str(endpoint_port):
        raise _err(p, w + "launch.command", f"starts the server on port {port}, but the endpoint is {arm.endpoint}: "
                   "the recorder would wait at a port nothing listens on — use the same port in both")
    spec = arm.flags.get("speculative_config")
    synth = spec.get("synthetic_acceptance_length") if isinstance(spec, dict) else None
    slots = _option(command, "--parallel", "-np")
    if slots is not None and arm.flags.get("parallel") is not None:
        _same(arm.flags["parallel"], slots, "--parallel", p, w, "flags.parallel")
    given = _option(command, "--spec-synth-len")
    if given is not None or (synth is not None and arm.engine == "llama.cpp"):
        _same(synth, given, "--spec-synth-len", p, w, "flags.speculative_config.synthetic_acceptance_length")


def _same(said: Any, given: str | None, option: str, p: str, w: str, flag: str) -> None:
    """A flag's value and the launch command's option must be the same number."""
    try:
        number = None if given is None else float(given)
    except ValueError:
        raise _err(p, w + "launch.command", f"{option} {str(given)[:40]!r} is not a number") from None
    if number is None or type(said) not in (int, float) or float(said) != number:
        raise _err(p, w + flag, f"says {said!r}, but the launch command " + (
            f"sets {option} {given}" if given is not None else f"has no {option}")
            + ": the recording would store what the config claims, not what the server does — make them agree")


def expand(value: str, p: str, where: str, used: list[tuple[str, str]] | None = None) -> str:
    """${VAR} (or ${VAR:-default}) from the environment; an unset variable without a default is a config error.
    Each (VAR, value) taken from the environment is added to `used`."""
    def one(m: re.Match) -> str:
        name, default = m.group(1), m.group(2)
        if os.environ.get(name):
            if used is not None:
                used.append((name, os.environ[name]))
            return os.environ[name]
        if default is None:
            raise _err(p, where, f"environment variable {name} is not set (used as ${{{name}}}) — export it")
        return default
    return _VAR.sub(one, value)


def _launch(lb: Any, default_health_url: str, p: str, w: str) -> Launch:
    if not isinstance(lb, dict):
        raise _err(p, w.rstrip("."), "expected a table ([arms.launch])")
    _known(lb, "arms.launch.", p, w)
    command = _get(lb, "command", list, p, w)
    if not command or not all(isinstance(x, str) for x in command):
        raise _err(p, w + "command", "expected a non-empty list of strings, e.g. [\"python\", \"-m\", \"...\"]")
    env = _get(lb, "env", dict, p, w, {})
    for k, v in env.items():
        if not isinstance(v, str):
            raise _err(p, f"{w}env.{k}", f"expected a string, got {type(v).__name__} (quote it: {k} = \"{v}\")")
    sig = _get(lb, "stop_signal", str, p, w, "SIGTERM")
    if sig not in STOP_SIGNALS:
        raise _err(p, w + "stop_signal", f"{sig[:20]!r} is not a signal that stops a server: use one of "
                   f"{', '.join(STOP_SIGNALS)}")
    health = _get(lb, "health_url", str, p, w, default_health_url)
    used: list[tuple[str, str]] = []
    return Launch(
        command=tuple(expand(x, p, f"{w}command[{i}]", used) for i, x in enumerate(command)),
        env={k: expand(v, p, f"{w}env.{k}", used) for k, v in env.items()},
        health_url=expand(health, p, w + "health_url", used),
        start_timeout_s=_seconds(lb, "start_timeout_s", 600, p, w, above=True),
        stop_signal=sig,
        stop_grace_s=_seconds(lb, "stop_grace_s", 30, p, w),
        shown_command=tuple(command), shown_env=dict(env), shown_health_url=health,
        expanded=tuple(dict.fromkeys(used)),
    )


def _mixes(raw: dict, prompts: list[Prompt], p: str) -> tuple[Mix, ...]:
    """[[mixes]] as given, else one implicit mix of every prompt (configs from before mixes keep working)."""
    if "mixes" not in raw:
        return (Mix(None, tuple(prompts)),)
    by_id = {q.id: q for q in prompts}
    out: list[Mix] = []
    for i, m in enumerate(_get(raw, "mixes", list, p, "")):
        w = f"mixes[{i}]."
        if not isinstance(m, dict):
            raise _err(p, f"mixes[{i}]", "expected a table ([[mixes]])")
        _known(m, "mixes.", p, w)
        mid = check_id(_get(m, "id", str, p, w), p, w + "id")
        if any(x.id == mid for x in out):
            raise _err(p, w + "id", f"duplicate mix id {mid!r}")
        ids = _get(m, "prompts", list, p, w)
        if not ids:
            raise _err(p, w + "prompts", "name at least one prompt id")
        for pid in ids:
            if pid not in by_id:
                raise _err(p, w + "prompts", f"{pid!r} is not a prompt id (prompts: {', '.join(by_id)})")
        out.append(Mix(mid, tuple(by_id[pid] for pid in ids)))
    if not out:
        raise _err(p, "mixes", "an empty list: leave [[mixes]] out to use all prompts as one mix")
    if len(out) > MAX_MIXES:
        raise _err(p, "mixes", f"{len(out)} mixes; a recording holds at most {MAX_MIXES} — split them into several "
                   "configs")
    return tuple(out)


def check_mixes(cfg: Config) -> tuple[Config, list[str]]:
    """The sweep rule: a level never batches greedy with sampled prompts on a speculative arm.

    vLLM CPU 0.32.0 returns wrong greedy text in such a batch (docs/recorder.md), so it is refused, unless
    [record] allow_mixed_sampling = true: then each such mix is marked (its level lines say mixed_sampling)
    and one warning per mix is returned.
    """
    spec = [a.id for a in cfg.arms if a.speculative]
    warnings: list[str] = []
    mixes = []
    for i, mix in enumerate(cfg.mixes):
        greedy = [q.id for q in mix.prompts if q.greedy]
        sampled = [q.id for q in mix.prompts if not q.greedy]
        if not (greedy and sampled and spec):
            mixes.append(mix)
            continue
        name = f"mixes[{i}] {mix.id!r}" if mix.id else "the prompt mix (no [[mixes]]: all prompts)"
        what = (f"{name} batches greedy ({', '.join(greedy)}) with sampled ({', '.join(sampled)}) prompts "
                f"on speculative arm {', '.join(spec)}")
        if not cfg.allow_mixed_sampling:
            raise _err(cfg.path, "mixes", what + " — vLLM CPU 0.32.0 returns wrong greedy text in such batches "
                       "(docs/recorder.md); put greedy and sampled prompts in separate [[mixes]], or set "
                       "[record] allow_mixed_sampling = true to record it anyway, marked")
        warnings.append(f"warning: {what}; recording it anyway (allow_mixed_sampling), "
                        "its level lines say mixed_sampling")
        mixes.append(Mix(mix.id, mix.prompts, mixed_sampling=True))
    return replace(cfg, mixes=tuple(mixes)), warnings


def _prompt(q: Any, p: str, i: int) -> Prompt:
    w = f"prompts[{i}]."
    if not isinstance(q, dict):
        raise _err(p, f"prompts[{i}]", "expected a table")
    _known(q, "prompts.", p, w)
    kind = _get(q, "kind", str, p, w)
    if kind not in PROMPT_KINDS:
        raise _err(p, w + "kind", f"unknown kind {kind!r}; use one of {', '.join(PROMPT_KINDS)}")
    api = _get(q, "api", str, p, w, "chat")
    if api not in PROMPT_APIS:
        raise _err(p, w + "api", f"unknown api {api!r}; use one of {', '.join(PROMPT_APIS)}")
    sampling = _get(q, "sampling", dict, p, w, {"temperature": 0.0})
    _known(sampling, "prompts.sampling.", p, w + "sampling.")
    for key, types in SAMPLING.items():
        _get(sampling, key, types, p, w + "sampling.", None)
    return Prompt(id=check_id(_get(q, "id", str, p, w), p, w + "id"), kind=kind, text=_get(q, "text", str, p, w),
                  sampling=sampling, api=api)
