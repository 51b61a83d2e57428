"""Recording format v1: an append-only JSON-lines file.

Line 1 is the header (what was recorded, where, how). Every later line is one
finished run (one streamed request) or one sweep level. Because each line is
written whole and flushed, a crash leaves a valid file: at worst the last,
partial line is dropped by `load(..., repair=True)` and the run is redone.
See docs/recording-format.md for every field.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from specreplay.fields import FieldError, typed
from specreplay.output import write_atomic
from specreplay.recording.arm import Arm
from specreplay.recording.counts import SpecCounts
from specreplay.recording.events import Event as Event  # read from here by the pages
from specreplay.recording.events import Events
from specreplay.recording.header import Header, Imported, Machine, Mix, RecorderSettings
from specreplay.recording.kinds import Kind
from specreplay.recording.prompt import Prompt

FORMAT_NAME = "specreplay-recording"
FORMAT_VERSION = 1
PROMPT_KINDS = ("chat", "reasoning", "long-prose", "code", "copy-quote")
PROMPT_APIS = ("chat", "completions")  # which OpenAI endpoint a prompt was sent to (absent = chat)
MAX_CHUNK_TOKENS = 65_536  # more than any context window streams in one chunk
MAX_EVENT_S = 86_400  # a chunk later than a day after its request is a broken clock, not a recording
RESERVED_ARM_PREFIX = "sim:"  # simulated arms on the replay page are named sim:…, so no recorded arm may be
MAX_ARMS = 256  # more arms than any page can offer side by side or any machine can record one after another
MAX_LEVELS = 256  # distinct concurrency levels, and prompt mixes: a page lists each, so a file's count is bounded
MAX_MIXES = 256
MAX_ID_CHARS = 128
MAX_INT_DIGITS = 20  # every count and token id fits in 64 bits; a 5,000-digit number is not a recording
MAX_INT = 2**63
# Arm ids travel in URLs (?arms= is comma-separated) and become parts of file names: letters, digits and . _ - @ only
# ('@' for a served name NAME@L, one acceptance length of a synthetic-acceptance server: gpu/synthetic_switch.py).
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]*")
# Prompt ids also name files (a video's default name); '/' is allowed (AIPerf's turn ids, req-3/2), '..' is not;
# '@' as for arms, so every id a recorder config accepts (recorder/config.py check_id) loads.
SAFE_PROMPT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/@-]*")
COUNTS = ("tokens", "chunks")
SAMPLING: dict[str, type | tuple[type, ...]] = {"temperature": (int, float), "top_p": (int, float), "seed": int,
                                                "max_tokens": int}  # the sampling fields typed at load


class RecordingError(ValueError):
    """A recording that cannot be used; the message names file, line and field."""

    def __init__(self, path: str | os.PathLike, line: int, field_name: str, problem: str, fix: str = ""):
        self.path, self.line, self.field, self.problem = str(path), line, field_name, problem
        where = f"{Path(path).name}:{line}" if line else Path(path).name
        msg = f"{where}: field '{field_name}': {problem}" if field_name else f"{where}: {problem}"
        super().__init__(msg + (f" — {fix}" if fix else ""))


@dataclass(frozen=True)
class Run:
    arm: str
    prompt: str
    repeat: int
    warmup: bool
    concurrency: int
    stream: int
    started_wall: str
    started_mono: float
    events: Events
    ttft_us: int | None
    usage: dict[str, int] | None
    finish_reason: str | None
    spec: SpecCounts | None
    request_metrics: dict[str, Any] | None
    status: str  # "ok" or "error"
    error: str | None
    line: int = 0
    mix: str | None = None  # the sweep prompt mix this run belonged to (absent: the one implicit mix)

    @property
    def tokens(self) -> int:
        return sum(self.events.n)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @cached_property
    def decode_rate(self) -> float | None:
        """Decode tok/s over the whole run (specreplay.replay.timeline.decode_rate of its track), computed once: a sweep's
        pages ask for it several times per request."""
        from specreplay.replay.timeline import decode_rate, track_of  # timeline reads Run, so not at the top

        return decode_rate(track_of(self))


@dataclass(frozen=True)
class Level:
    """One concurrency level of a sweep for one arm (all its streams together)."""

    arm: str
    concurrency: int
    started_mono: float
    ended_mono: float
    spec: SpecCounts | None
    line: int = 0
    mix: str | None = None  # the prompt mix (absent in files without mixes: all prompts)
    host_busy: float | None = None  # host CPU busy share (0..1, /proc/stat) just before the level
    text_check: str | None = None  # the recorder's verdict on greedy text vs the baseline's single-stream text
    mixed_sampling: bool = False  # the level batched greedy with sampled prompts (allowed explicitly)


@dataclass
class Recording:
    path: str
    header: Header
    runs: list[Run] = field(default_factory=list)
    levels: list[Level] = field(default_factory=list)
    # (arm, prompt) -> runs, built on first use: a page's per-click look-ups stay independent of the number of arms
    # and prompts (rebuilt if runs were added since)
    _by_cell: dict[tuple[str, str], list[Run]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _indexed: int = field(default=-1, init=False, repr=False, compare=False)
    # tables computed from the runs (e.g. sweeps.level_table), by name, each with the (runs, levels) counts it was
    # computed at: a cached recording is read by several charts per page run, and a sweep's table takes ~0.3 s
    derived: dict[str, tuple[tuple[int, int], Any]] = field(default_factory=dict, init=False, repr=False,
                                                             compare=False)

    @property
    def title(self) -> str:
        return self.header.title

    @property
    def arms(self) -> tuple[Arm, ...]:
        return self.header.arms

    @property
    def prompts(self) -> tuple[Prompt, ...]:
        return self.header.prompts

    @property
    def timing_only(self) -> bool:
        """True when the weights were dummy (random): the timings are real, the text is noise."""
        return self.header.timing_only

    def kind(self, arm_id: str | None = None) -> Kind:
        """Which kind of number this recording's figures are, or one arm's (Header.kind)."""
        return self.header.kind(arm_id)

    @property
    def machine_line(self) -> str:
        """The header's machine in a few words: accelerator if any, else CPU and cores."""
        return self.header.machine.line

    def arm(self, arm_id: str) -> Arm:
        """An arm by id; StopIteration for an unknown id."""
        return self.header.arm(arm_id)

    def prompt(self, prompt_id: str) -> Prompt:
        """A prompt by id; StopIteration for an unknown id."""
        return self.header.prompt(prompt_id)

    def _cell(self, arm: str, prompt: str) -> list[Run]:
        if self._indexed != len(self.runs):
            self._by_cell = {}
            for r in self.runs:
                self._by_cell.setdefault((r.arm, r.prompt), []).append(r)
            self._indexed = len(self.runs)
        return self._by_cell.get((arm, prompt), [])

    def cells(self) -> set[tuple[str, str]]:
        """Every (arm, prompt) that has at least one run line."""
        self._cell("", "")
        return set(self._by_cell)

    def select(self, arm: str | None = None, prompt: str | None = None, *, warmup: bool | None = False,
               concurrency: int | None = 1, ok: bool = True) -> list[Run]:
        """Runs matching every given filter (None = any)."""
        runs = self.runs if arm is None or prompt is None else self._cell(arm, prompt)
        return [r for r in runs
                if (arm is None or r.arm == arm) and (prompt is None or r.prompt == prompt)
                and (warmup is None or r.warmup == warmup)
                and (concurrency is None or r.concurrency == concurrency) and (not ok or r.ok)]


# ---------------------------------------------------------------- validation

def _need(obj: dict, key: str, types: type | tuple[type, ...], path: str, line: int, prefix: str = "",
          optional: bool = False) -> Any:
    value: Any = obj.get(key)
    kind = type(value)
    if kind is types and (kind is not int or -MAX_INT < value < MAX_INT):  # the common case, decided at once
        return value
    if optional and value is None:
        return None
    try:
        value = typed(obj, key, types)
    except FieldError as e:
        raise RecordingError(path, line, f"{prefix}{key}", str(e),
                             "re-record this line or fix the file by hand" if e.missing else "") from None
    if type(value) is int and not -MAX_INT < value < MAX_INT:  # no count or time needs more than 64 bits
        raise RecordingError(path, line, f"{prefix}{key}", f"a {len(str(abs(value)))}-digit number is too large to "
                             "be a count here")
    return value


def _parse_header(obj: Any, path: str) -> Header:
    """Validate line 1 and type what readers use; every problem is a RecordingError naming line 1 and the field."""
    if not isinstance(obj, dict) or obj.get("type") != "header":
        raise RecordingError(path, 1, "type", "the first line is not a recording header",
                             "is this a specreplay recording (.jsonl)?")
    if obj.get("format") != FORMAT_NAME:
        raise RecordingError(path, 1, "format", f"expected '{FORMAT_NAME}', got {obj.get('format')!r}")
    version = _need(obj, "version", int, path, 1)
    if version != FORMAT_VERSION:
        raise RecordingError(path, 1, "version", f"format version {version} is not supported (this build reads "
                             f"{FORMAT_VERSION})", "upgrade specreplay or re-record")
    for key, typ in (("title", str), ("created", str), ("machine", dict), ("arms", list), ("prompts", list)):
        _need(obj, key, typ, path, 1)
    timing_only = _need(obj, "timing_only", bool, path, 1, optional=True) is True
    machine = _parse_machine(obj["machine"], path)
    recorder = _parse_recorder(obj, path)
    _check_imported(obj, path, "")
    if not obj["arms"]:
        raise RecordingError(path, 1, "arms", "no arms")
    if len(obj["arms"]) > MAX_ARMS:
        raise RecordingError(path, 1, "arms", f"{len(obj['arms'])} arms; a recording holds at most {MAX_ARMS}",
                             "split it into several recordings")
    seen: set[str] = set()
    for i, arm in enumerate(obj["arms"]):
        pre = f"arms[{i}]."
        _check_entry(arm, "arm", i, SAFE_ID, "letters, digits, '.', '_', '-' and '@'", seen, path)
        for key in ("label", "model"):
            _need(arm, key, str, path, 1, pre)
        _need(arm, "engine", dict, path, 1, pre)
        _need(arm, "flags", dict, path, 1, pre)
        endpoint = _need(arm, "endpoint", str, path, 1, pre, optional=True) or ""
        if "@" in endpoint.split("//", 1)[-1].split("/", 1)[0]:
            raise RecordingError(path, 1, pre + "endpoint", "holds credentials", "remove user:password@")
        counts = _need(arm, "counts", str, path, 1, pre, optional=True)
        if counts is not None and counts not in COUNTS:
            raise RecordingError(path, 1, pre + "counts", f"expected 'tokens' or 'chunks', got {counts[:40]!r}")
        _check_imported(arm, path, pre)
    for i, arm in enumerate(obj["arms"]):
        base = _need(arm, "baseline", str, path, 1, f"arms[{i}].", optional=True)
        if base is not None and (base not in seen or base == arm["id"]):
            raise RecordingError(path, 1, f"arms[{i}].baseline", f"{base!r} is not another arm's id",
                                 "name the arm this one is compared against")
    pids: set[str] = set()
    for i, prompt in enumerate(obj["prompts"]):
        pre = f"prompts[{i}]."
        _check_entry(prompt, "prompt", i, SAFE_PROMPT_ID, "letters, digits, '.', '_', '-', '@' and '/'", pids, path)
        kind = _need(prompt, "kind", str, path, 1, pre)
        if kind not in PROMPT_KINDS:
            raise RecordingError(path, 1, pre + "kind", f"unknown kind {kind!r}", f"use one of {', '.join(PROMPT_KINDS)}")
        _need(prompt, "text", str, path, 1, pre)
        sampling = _need(prompt, "sampling", dict, path, 1, pre)
        for key, types in SAMPLING.items():
            _need(sampling, key, types, path, 1, pre + "sampling.", optional=True)
        api = _need(prompt, "api", str, path, 1, pre, optional=True)
        if api is not None and api not in PROMPT_APIS:
            raise RecordingError(path, 1, pre + "api", f"unknown api {api!r}", f"use one of {', '.join(PROMPT_APIS)}")
    return Header(title=obj["title"], created=obj["created"], machine=machine,
                  arms=tuple(Arm.of(a, timing_only) for a in obj["arms"]),
                  prompts=tuple(Prompt.of(p) for p in obj["prompts"]), timing_only=timing_only, recorder=recorder,
                  imported=Imported.of(obj.get("imported")))


def _check_entry(entry: Any, what: str, i: int, pattern: re.Pattern, allowed: str, seen: set[str], path: str) -> None:
    """arms[i] or prompts[i] (`what`: "arm" or "prompt") is an object whose id is safe and new (added to `seen`);
    an arm's may not name a simulated arm."""
    where = f"{what}s[{i}]"
    if not isinstance(entry, dict):
        raise RecordingError(path, 1, where, "expected an object")
    entry_id = _need(entry, "id", str, path, 1, where + ".")
    if what == "arm" and entry_id.startswith(RESERVED_ARM_PREFIX):
        raise RecordingError(path, 1, where + ".id", f"arm id {entry_id[:40]!r} starts with {RESERVED_ARM_PREFIX!r}, "
                             "which names simulated arms", "rename the arm")
    _check_id(entry_id, pattern, path, where + ".id", allowed)
    if entry_id in seen:
        raise RecordingError(path, 1, where + ".id", f"duplicate {what} id {entry_id!r}")
    seen.add(entry_id)


def _parse_machine(machine: dict, path: str) -> Machine:
    """The fields the machine line is made of; the rest (ram, os, python, notes) is kept and not read."""
    description, accelerator, cpu = (_need(machine, key, str, path, 1, "machine.", optional=True)
                                     for key in ("description", "accelerator", "cpu"))
    cores = _need(machine, "cores", int, path, 1, "machine.", optional=True)
    if description:
        return Machine(accelerator or None, description)
    line = (accelerator or cpu or "") + (f" ({cores} cores)" if cores and not accelerator else "")
    return Machine(accelerator or None, line)


def _check_id(value: str, rule: re.Pattern, path: str, name: str, allowed: str) -> None:
    """Ids name files and travel in URLs: a short run of safe characters, never a path that climbs ('..')."""
    if len(value) > MAX_ID_CHARS or not rule.fullmatch(value) or ".." in value:
        raise RecordingError(path, 1, name, f"{value[:40]!r} is not a usable id",
                             f"use 1–{MAX_ID_CHARS} of {allowed}, starting with a letter or digit, without '..'")


def _check_imported(obj: dict, path: str, pre: str) -> None:
    """An `imported` block (header or arm): tool, version and file are text, lacks and notes lists of sentences."""
    info = _need(obj, "imported", dict, path, 1, pre, optional=True)
    if info is None:
        return
    for key in ("tool", "version", "file", "imported_at"):
        _need(info, key, str, path, 1, f"{pre}imported.", optional=True)
    for key in ("lacks", "notes"):
        items = _need(info, key, list, path, 1, f"{pre}imported.", optional=True) or []
        if not all(isinstance(x, str) for x in items):
            raise RecordingError(path, 1, f"{pre}imported.{key}", "expected an array of strings")


def _parse_recorder(obj: dict, path: str) -> RecorderSettings:
    """The recorder's settings block: the pages read its mode and prompt mixes, resume compares all four."""
    if "recorder" not in obj:
        return RecorderSettings()
    rec = _need(obj, "recorder", dict, path, 1)
    mixes = []
    for i, mix in enumerate(_need(rec, "mixes", list, path, 1, "recorder.", optional=True) or []):
        if not isinstance(mix, dict):
            raise RecordingError(path, 1, f"recorder.mixes[{i}]", "expected an object")
        mix_id = _need(mix, "id", str, path, 1, f"recorder.mixes[{i}].")
        prompts = _need(mix, "prompts", list, path, 1, f"recorder.mixes[{i}].")
        if not all(isinstance(x, str) for x in prompts):
            raise RecordingError(path, 1, f"recorder.mixes[{i}].prompts", "expected an array of prompt ids")
        mixes.append(Mix(mix_id, tuple(prompts)))
        if len(mixes) > MAX_MIXES:
            raise RecordingError(path, 1, "recorder.mixes", f"more than {MAX_MIXES} prompt mixes",
                                 "split the sweep into several recordings")
    return RecorderSettings(mode=_need(rec, "mode", str, path, 1, "recorder.", optional=True),
                            max_tokens=_need(rec, "max_tokens", int, path, 1, "recorder.", optional=True),
                            rounds=_need(rec, "rounds", int, path, 1, "recorder.", optional=True),
                            mixes=tuple(mixes))


def _parse_spec(obj: Any, path: str, line: int, name: str) -> SpecCounts | None:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise RecordingError(path, line, name, "expected an object or null")
    vals = [_need(obj, k, int, path, line, name + ".") for k in ("drafts", "draft_tokens", "accepted")]
    per_pos = _need(obj, "per_position", list, path, line, name + ".", optional=True) or []
    if any(v < 0 for v in vals) or any(not isinstance(v, int) or v < 0 for v in per_pos):
        raise RecordingError(path, line, name, "counter deltas must be non-negative integers")
    drafts, draft_tokens, accepted = vals
    return SpecCounts(drafts, draft_tokens, accepted, per_position=tuple(per_pos))


@dataclass(frozen=True)
class _Ids:
    """The header's arm and prompt ids, built once per file: checking a line is then O(1), not O(arms)."""

    arms: frozenset[str]
    prompts: frozenset[str]

    @staticmethod
    def of(header: Header) -> _Ids:
        return _Ids(frozenset(a.id for a in header.arms), frozenset(p.id for p in header.prompts))


def _parse_run(obj: dict, path: str, line: int, known: _Ids, keep_ids: bool = True) -> Run:
    arm = _need(obj, "arm", str, path, line)
    if arm not in known.arms:
        raise RecordingError(path, line, "arm", f"unknown arm {arm[:40]!r}", "it must be one of the header's arms")
    prompt = _need(obj, "prompt", str, path, line)
    if prompt not in known.prompts:
        raise RecordingError(path, line, "prompt", f"unknown prompt {prompt[:40]!r}")
    status = _need(obj, "status", str, path, line)
    if status not in ("ok", "error"):
        raise RecordingError(path, line, "status", f"expected 'ok' or 'error', got {status!r}")
    raw_events = _need(obj, "events", list, path, line)
    # columns, not an Event per chunk (specreplay/recording/events.py): what a parsed upload holds
    times: list[int] = []
    sizes: list[int] = []  # tokens per chunk
    texts: list[str] = []
    token_ids: list[tuple[int, ...] | None] | None = [] if keep_ids else None
    last = -1
    for i, ev in enumerate(raw_events):
        # Most of a file's work is here (one pass per chunk): a well-formed chunk takes the fast path; anything else
        # goes through the checks below, which name the field and what is wrong.
        t, n, text, ids = (ev.get("t"), ev.get("n"), ev.get("text"), ev.get("ids")) if type(ev) is dict else (None,) * 4
        if (type(t) is float or type(t) is int) and type(n) is int and type(text) is str and 0 <= t <= MAX_EVENT_S \
                and 0 <= n <= MAX_CHUNK_TOKENS and (ids is None or type(ids) is list and len(ids) == n
                                                    and all(type(x) is int for x in ids)):
            t_us = round(t * 1_000_000)
            if t_us >= last:
                last = t_us
                times.append(t_us)
                sizes.append(n)
                texts.append(text)
                if token_ids is not None:
                    token_ids.append(None if ids is None else tuple(ids))
                continue
        pre = f"events[{i}]"
        if not isinstance(ev, dict):
            raise RecordingError(path, line, pre, "expected an object")
        t = _need(ev, "t", (int, float), path, line, pre + ".")
        if t < 0:
            raise RecordingError(path, line, pre + ".t", "negative time")
        if t > MAX_EVENT_S:  # checked before scaling: 1e303 s in microseconds is past a float's range
            raise RecordingError(path, line, pre + ".t", f"{t:g} s after the request is more than a day",
                                 "chunk times are seconds since the request was sent")
        t_us = round(t * 1_000_000)
        if t_us < last:
            raise RecordingError(path, line, pre + ".t", f"time goes backwards ({t} s after a later chunk)",
                                 "chunk times must be non-decreasing")
        last = t_us
        n = _need(ev, "n", int, path, line, pre + ".")
        if not 0 <= n <= MAX_CHUNK_TOKENS:
            raise RecordingError(path, line, pre + ".n", f"{n} tokens in one chunk is outside 0..{MAX_CHUNK_TOKENS}")
        ids = _need(ev, "ids", list, path, line, pre + ".", optional=True)
        if ids is not None and len(ids) != n:
            raise RecordingError(path, line, pre + ".ids", f"{len(ids)} token ids for n={n}")
        if ids is not None and not all(type(x) is int for x in ids):
            raise RecordingError(path, line, pre + ".ids", "expected an array of integer token ids")
        times.append(t_us)
        sizes.append(n)
        texts.append(_need(ev, "text", str, path, line, pre + "."))
        if token_ids is not None:
            token_ids.append(None if ids is None else tuple(ids))
    usage = _need(obj, "usage", dict, path, line, optional=True)
    tokens = sum(sizes)
    if status == "ok" and usage is not None and usage.get("completion_tokens") is not None \
            and usage["completion_tokens"] != tokens:
        raise RecordingError(path, line, "usage.completion_tokens",
                             f"usage says {usage['completion_tokens']} tokens but the chunks add up to {tokens}",
                             "re-record this run")
    ttft = _need(obj, "ttft", (int, float), path, line, optional=True)
    if ttft is not None and not 0 <= ttft <= MAX_EVENT_S:
        raise RecordingError(path, line, "ttft", f"{ttft:g} s is outside 0 s..1 day")
    counts = {key: _need(obj, key, int, path, line) for key in ("repeat", "concurrency", "stream")}
    for key, low in (("repeat", 0), ("concurrency", 1), ("stream", 0)):
        if counts[key] < low:
            raise RecordingError(path, line, key, f"{counts[key]} is below {low}")
    return Run(
        arm=arm, prompt=prompt,
        repeat=counts["repeat"],
        warmup=_need(obj, "warmup", bool, path, line),
        concurrency=counts["concurrency"],
        stream=counts["stream"],
        started_wall=_need(obj, "started_wall", str, path, line),
        started_mono=float(_need(obj, "started_mono", (int, float), path, line)),
        events=Events(times, sizes, texts, token_ids),
        ttft_us=None if ttft is None else round(ttft * 1_000_000),
        usage=usage,
        finish_reason=_need(obj, "finish_reason", str, path, line, optional=True),
        spec=_parse_spec(obj.get("spec"), path, line, "spec"),
        request_metrics=_need(obj, "request_metrics", dict, path, line, optional=True),
        status=status,
        error=_need(obj, "error", str, path, line, optional=True),
        line=line,
        mix=_need(obj, "mix", str, path, line, optional=True),
    )


def _parse_level(obj: dict, path: str, line: int, known: _Ids) -> Level:
    arm = _need(obj, "arm", str, path, line)
    if arm not in known.arms:
        raise RecordingError(path, line, "arm", f"unknown arm {arm[:40]!r}")
    start = float(_need(obj, "started_mono", (int, float), path, line))
    end = float(_need(obj, "ended_mono", (int, float), path, line))
    if end < start:
        raise RecordingError(path, line, "ended_mono", "ends before it starts")
    busy = _need(obj, "host_busy", (int, float), path, line, optional=True)
    if busy is not None and not 0 <= busy <= 1:
        raise RecordingError(path, line, "host_busy", f"expected a share between 0 and 1, got {busy}")
    return Level(arm, _need(obj, "concurrency", int, path, line), start, end,
                 _parse_spec(obj.get("spec"), path, line, "spec"), line,
                 mix=_need(obj, "mix", str, path, line, optional=True),
                 host_busy=None if busy is None else float(busy),
                 text_check=_need(obj, "text_check", str, path, line, optional=True),
                 mixed_sampling=bool(_need(obj, "mixed_sampling", bool, path, line, optional=True)))


class _NotANumber(ValueError):
    pass


def _refuse_constant(name: str) -> float:
    raise _NotANumber(name)  # Python's json accepts NaN / Infinity; a timeline cannot


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # 1e400: valid JSON, but no time or count
        raise _NotANumber(text)
    return value


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite)  # one, not one per line


def parse_json(text: str) -> Any:
    """json.loads with finite floats. ValueError names the number and where it is ("field 'events[0].t': 1e400 is
    too large …"), also for an integer too long for Python (4,300+ digits); RecursionError for nesting deeper than
    Python's stack. Integers are bounded where they are read (_need): a hook per integer would slow loading by half
    (token ids are most of a file's numbers)."""
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError:
        raise
    except ValueError:  # ours (NaN, 1e400), or int() refusing thousands of digits in Python's own words
        where, problem = _first_bad(text)
        raise _NotANumber(f"field '{where}': {problem}" if where else problem) from None


class _Bad:
    def __init__(self, problem: str):
        self.problem = problem


def _bad_float(text: str) -> Any:
    return _Bad(f"{text[:20]} is too large to be a number here") if math.isinf(float(text)) else 0.0


def _bad_int(text: str) -> Any:
    digits = len(text.lstrip("-"))
    return _Bad(f"a {digits}-digit number is too large to be a count here") if digits > MAX_INT_DIGITS else 0


def _first_bad(text: str) -> tuple[str, str]:
    """(path, problem) of the first number the strict parse refused: parsed again with that number as a marker."""
    doc = json.loads(text, parse_constant=lambda name: _Bad(f"{name} is not a number JSON allows"),
                     parse_float=_bad_float, parse_int=_bad_int)
    stack: list[tuple[str, Any]] = [("", doc)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, _Bad):
            return where, value.problem
        if isinstance(value, dict):
            stack += [(f"{where}.{k}" if where else str(k), v) for k, v in reversed(list(value.items()))]
        elif isinstance(value, list):
            stack += [(f"{where}[{i}]", v) for i, v in reversed(list(enumerate(value)))]
    return "", "a number this file cannot hold"


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # JSON's way to write half of a UTF-16 pair
_SURROGATE = re.compile("[\ud800-\udfff]")


def _refuse_lone_surrogate(obj: Any, path: str, line: int) -> None:
    """JSON may write half of a UTF-16 surrogate pair (\\ud800) alone: Python keeps it, and it cannot become UTF-8
    (the page, the HTML export). A whole pair decodes to one character and passes."""
    stack: list[tuple[str, Any]] = [("", obj)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str) and _SURROGATE.search(value):
            raise RecordingError(path, line, where, "holds half of a UTF-16 surrogate pair (\\ud800–\\udfff escaped "
                                 "alone), which is no character", "re-export the text as UTF-8")
        if isinstance(value, dict):
            stack += [(f"{where}.{k}" if where else str(k), v) for k, v in value.items()]
            stack += [(f"{where}.{k}" if where else str(k), k) for k in value]  # a key is text too
        elif isinstance(value, list):
            stack += [(f"{where}[{i}]", v) for i, v in enumerate(value)]


def loads(text: str, path: str = "<recording>", *, repair: bool = False, keep_ids: bool = True) -> Recording:
    """Parse and validate a recording. With repair=True a cut-off last line (a crash mid-write) is dropped. With
    keep_ids=False token ids are checked but not kept (Event.ids is None): no page reads them, and they are about a
    third of a parsed recording's memory (the replay page's uploads)."""
    if text.startswith("\ufeff"):
        raise RecordingError(path, 1, "", "the file starts with a UTF-8 byte-order mark (BOM), which JSON lines do "
                             "not have", "save it as UTF-8 without a BOM")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines and repair:
        lines.pop()  # no trailing newline: the last line was never finished
    if not lines:
        raise RecordingError(path, 0, "", "the file is empty", "record with `specreplay record`")
    rec: Recording | None = None
    cut = None if text.endswith("\n") else len(lines)
    for line in parsed_lines(lines, path, keep_ids=keep_ids, cut=cut):
        if isinstance(line, Run):
            assert rec is not None
            rec.runs.append(line)
        elif isinstance(line, Level):
            assert rec is not None
            rec.levels.append(line)
        else:
            rec = Recording(path, line)
    if rec is None:
        raise RecordingError(path, 0, "", "the file holds only blank lines", "record with `specreplay record`")
    return rec


def parsed_lines(lines: Iterable[str], path: str, *, keep_ids: bool = True, cut: int | None = None
                 ) -> Iterator[Header | Run | Level]:
    """Each line validated, one at a time: the header (typed), then runs and level lines. A caller
    that does not keep them checks a whole file in the memory of one line (an importer writing a large file).
    `cut`: the number of a last line that has no newline (named as truncated if it is not JSON)."""
    ids: _Ids | None = None
    seen: tuple[set[int], set[str | None]] = (set(), set())  # concurrency levels and mixes so far
    for i, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = parse_json(raw)
        except _NotANumber as exc:
            raise RecordingError(path, i, "", str(exc), "write times and counts as finite numbers") from None
        except RecursionError:
            raise RecordingError(path, i, "", "nested too deeply to be a recording line") from None
        except json.JSONDecodeError as exc:
            raise RecordingError(path, i, "", f"not valid JSON ({exc.msg} at column {exc.colno})"
                                 + (" — the file looks truncated" if i == cut else ""),
                                 "rerun the recorder to resume; it drops a cut-off last line" if i == cut else ""
                                 ) from None
        if "\\u" in raw and _SURROGATE_ESCAPE.search(raw):
            _refuse_lone_surrogate(obj, path, i)
        if ids is None:
            header = _parse_header(obj, path)
            ids = _Ids.of(header)
            yield header
            continue
        if not isinstance(obj, dict):
            raise RecordingError(path, i, "type", "expected an object")
        kind = obj.get("type")
        line: Run | Level
        if kind == "run":
            line = _parse_run(obj, path, i, ids, keep_ids)
        elif kind == "level":
            line = _parse_level(obj, path, i, ids)
        else:
            raise RecordingError(path, i, "type", f"unknown line type {str(kind)[:40]!r}", "expected 'run' or 'level'")
        _count_level(line, seen, path, i)
        yield line


def _count_level(line: Run | Level, seen: tuple[set[int], set[str | None]], path: str, i: int) -> None:
    """Levels and mixes are bounded like arms: every page lists them, and a file of 8,000 of either is no sweep."""
    levels, mixes = seen
    levels.add(line.concurrency)
    mixes.add(line.mix)
    if len(levels) > MAX_LEVELS:
        raise RecordingError(path, i, "concurrency", f"a {len(levels)}th concurrency level; a recording holds at most "
                             f"{MAX_LEVELS}", "split the sweep into several recordings")
    if len(mixes) > MAX_MIXES:
        raise RecordingError(path, i, "mix", f"a {len(mixes)}th prompt mix; a recording holds at most {MAX_MIXES}",
                             "split the sweep into several recordings")


def load(path: str | os.PathLike, *, repair: bool = False) -> Recording:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecordingError(p, 0, "", f"not UTF-8 text (byte {exc.start})", "is this a recording?") from None
    return loads(text, str(p), repair=repair)


def load_header(path: str | os.PathLike) -> Header:
    """Line 1 alone, validated and typed as `load` does (for sorting and picking files without reading them).
    OSError if unreadable; RecordingError for anything else."""
    p = Path(path)
    try:
        with open(p, encoding="utf-8") as fh:
            line = fh.readline()
        obj = parse_json(line)
    except UnicodeDecodeError as exc:
        raise RecordingError(p, 1, "", f"not UTF-8 text (byte {exc.start})", "is this a recording?") from None
    except (ValueError, RecursionError):
        raise RecordingError(p, 1, "", "the header is not valid JSON", "is this a recording (.jsonl)?") from None
    return _parse_header(obj, str(p))


# ------------------------------------------------------------------- writing

def _dump(obj: dict) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def event_dict(t_s: float, n: int, text: str, ids: list[int] | None) -> dict[str, Any]:
    ev: dict[str, Any] = {"t": round(t_s, 6), "n": n, "text": text}
    if ids is not None:
        ev["ids"] = ids
    return ev


def _header_line(header: dict[str, Any]) -> dict[str, Any]:
    """Line 1 as `create` writes it: the format's name and version, then the header's fields."""
    return {"type": "header", "format": FORMAT_NAME, "version": FORMAT_VERSION, **header}


def check_header(path: str | os.PathLike, header: dict[str, Any]) -> Header:
    """A header about to be written to `path`, validated and typed as `load` will read it."""
    return _parse_header(_header_line(header), str(path))


def create(path: str | os.PathLike, header: dict[str, Any]) -> None:
    """Start a new recording file with its header (validated first)."""
    check_header(path, header)
    _append_line(path, _header_line(header), mode="x")


def append(path: str | os.PathLike, record: dict[str, Any]) -> None:
    """Append one finished run or level line, flushed and fsynced so a crash keeps it."""
    _append_line(path, record, mode="a")


def _append_line(path: str | os.PathLike, obj: dict, mode: str) -> None:
    with open(path, mode, encoding="utf-8") as fh:
        fh.write(_dump(obj))
        fh.flush()
        os.fsync(fh.fileno())


def replace_header(path: str | os.PathLike, header: dict[str, Any], rest: list[str]) -> None:
    """Rewrite the header line (validated first) above the file's other lines, atomically."""
    _parse_header(header, str(path))
    write_atomic(Path(path), _dump(header) + "".join(rest))


def drop_partial_tail(path: str | os.PathLike) -> bool:
    """Cut a last line that was never finished (no newline). Returns True if something was cut."""
    p = Path(path)
    data = p.read_bytes()
    if not data or data.endswith(b"\n"):
        return False
    keep = data.rfind(b"\n") + 1
    with open(p, "r+b") as fh:
        fh.truncate(keep)
    return True
