"""What both modes share: preparing the arms, writing or checking the header, resuming a file."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from recorder import launch, machine, server
from recorder.config import Arm, Config
from recorder.errors import RecorderError
from recorder.server import Capabilities
from specreplay.output import OutputError, check_target
from specreplay.recording import format as fmt


@dataclass(frozen=True)
class Idle:
    """How the recorder decides an endpoint is idle before each cell."""

    polls: int = 3
    interval: float = 0.2
    timeout: float = 120.0


@dataclass(frozen=True)
class Options:
    output: Path
    max_tokens: int
    request_timeout: float  # seconds without a byte
    idle: Idle
    progress: bool = True
    workers: int = 1  # processes a sweep level's streams are split over (recorder/workers.py)
    request_total: float = 600.0  # seconds for a whole request, keep-alive comments or not


Entries = dict[str, tuple[dict[str, Any], Capabilities | None]]


def note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


async def prepare(client: httpx.AsyncClient, cfg: Config, opts: Options) -> Entries:
    """Identify every endpoint-only arm and probe what it accepts, one arm at a time; arms with a launch block
    get a provisional header entry, completed when the recorder has started their server (arm_up).
    Returns arm id -> (header entry, caps or None)."""
    out = unprobed(cfg)
    for arm in cfg.arms:
        if arm.launch is not None:
            continue
        engine, served = await server.identify(client, arm)
        caps = await _probe(client, arm, cfg, opts)
        out[arm.id] = (arm_header(arm, engine, served, caps), caps)
    return out


def unprobed(cfg: Config) -> Entries:
    """Every arm's header entry from the config alone (engine version unknown): enough to check an existing
    output file before any server is contacted."""
    return {arm.id: (arm_header(arm, {"name": arm.engine, "version": None}, {}, None), None) for arm in cfg.arms}


async def _probe(client: httpx.AsyncClient, arm: Arm, cfg: Config, opts: Options) -> Capabilities:
    try:
        async with asyncio.timeout(opts.request_total):
            caps = await server.probe(client, arm, cfg.prompts[0], opts.request_timeout)
    except TimeoutError:
        raise RecorderError(f"arm {arm.id}: the probe request to {arm.endpoint} did not finish within "
                            f"{opts.request_total:g} s — is the server stuck? (--request-total-timeout)") from None
    except httpx.HTTPError as exc:
        raise RecorderError(f"arm {arm.id}: the probe request to {arm.endpoint} failed "
                            f"({type(exc).__name__}) — is the server still starting or overloaded?") from None
    for text in caps.notes:
        note(f"recorder: arm {arm.id}: {text}")
    return caps


def arm_header(arm: Arm, engine: dict, served: dict, caps: Capabilities | None,
               startup_s: float | None = None) -> dict[str, Any]:
    h: dict[str, Any] = {"id": arm.id, "label": arm.label, "endpoint": arm.endpoint, "model": arm.model,
                         "engine": engine, "flags": arm.flags, "served": served,
                         "stream_interval": arm.flags.get("stream_interval")}
    if caps is not None:
        h["capabilities"] = caps.header()
    if arm.baseline:
        h["baseline"] = arm.baseline
    if arm.launch is not None:  # as the config writes it: ${VAR} unexpanded, so no secret is written down
        h["launch"] = {"command": list(arm.launch.shown_command), "env": arm.launch.shown_env,
                       "health_url": arm.launch.shown_health_url, "startup_s": startup_s}
    return h


@asynccontextmanager
async def arm_up(client: httpx.AsyncClient, cfg: Config, arm: Arm, entries: Entries, opts: Options
                 ) -> AsyncIterator[Capabilities]:
    """The arm's server, ready: as given (endpoint-only), or started here and stopped when the block ends,
    also on Ctrl-C and errors. A started arm's header entry (engine version, capabilities, start-up seconds)
    is written into the file's header once the server answers."""
    if arm.launch is None:
        caps = entries[arm.id][1]
        assert caps is not None
        yield caps
        return
    await launch.check_port_free(arm, client)
    note(f"recorder: starting arm {arm.id}: {shlex.join(arm.launch.shown_command)}")
    srv = launch.start(arm)
    failing = False
    try:
        startup = await launch.wait_healthy(srv, client)
        note(f"recorder: arm {arm.id} healthy after {startup:.1f} s (log {srv.log})")
        engine, served = await server.identify(client, arm)
        caps = await _probe(client, arm, cfg, opts)
        entry = arm_header(arm, engine, served, caps, round(startup, 1))
        entries[arm.id] = (entry, caps)
        update_header_arm(opts.output, entry)
        yield caps
    except BaseException:
        failing = True
        raise
    finally:
        left = launch.stop(srv)
        if left is None:
            note(f"recorder: arm {arm.id} stopped")
        elif failing:  # the error already on its way says why the recording stopped; this line says what is left
            note(f"recorder: {left}")
        else:
            raise RecorderError(left)


def update_header_arm(path: Path, entry: dict[str, Any]) -> None:
    """Put a started arm's entry into the file's header (atomically), checking it is the same engine as before."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    head = json.loads(lines[0])
    i = next(k for k, a in enumerate(head["arms"]) if a["id"] == entry["id"])
    was, now = head["arms"][i].get("engine", {}).get("version"), entry["engine"].get("version")
    if was is not None and was != now:
        raise RecorderError(f"{path}: arm {entry['id']} was recorded on engine version {was}, its server now "
                            f"reports {now} — write to a new file with -o, or delete this one to start over")
    head["arms"][i] = entry
    fmt.replace_header(path, head, lines[1:])


def header(cfg: Config, arms: Entries, mode: str, opts: Options,
           extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": cfg.title,
        **({"timing_only": True} if cfg.timing_only else {}),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine.describe(),
        "arms": [arms[a.id][0] for a in cfg.arms],
        "prompts": [{"id": p.id, "kind": p.kind, "text": p.text, "api": p.api,
                     "sampling": {**p.sampling, "max_tokens": opts.max_tokens}} for p in cfg.prompts],
        "recorder": {"mode": mode, "max_tokens": opts.max_tokens,
                     "idle_check": {"polls": opts.idle.polls, "interval_s": opts.idle.interval},
                     "config": os.path.basename(cfg.path), **extra},
    }


def check_output(path: Path, new_header: dict[str, Any], cfg: Config | None = None
                 ) -> tuple[fmt.Recording | None, str]:
    """Read an existing output file without changing it and prove it is a recording of this same config.

    Returns (what it holds, or None when there is nothing yet; how its end must be mended: "" nothing,
    "newline" a complete last line lacks its newline, "cut" a cut-off last line). RecorderError, with the file
    untouched, when it is a directory, unreadable, not a recording, or recorded differently.
    """
    try:  # the rule every writer shares: a regular file or nothing yet, never the config itself
        check_target(path, inputs=[Path(cfg.path)] if cfg is not None else [], example="rec.jsonl")
    except OutputError as exc:
        raise RecorderError(str(exc)) from None
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None, ""
    except OSError as exc:
        raise RecorderError(f"{path}: cannot read it ({exc.strerror}) — check the path and its permissions") from None
    if not data:
        return None, ""
    keep = "write to a new file with -o, or move this one away to start over; nothing in it was changed"
    mend = ""
    try:
        text = data.decode("utf-8")
        if text.endswith("\n"):
            rec = fmt.loads(text, str(path))
        else:
            mend = "newline" if _is_json(text.rsplit("\n", 1)[-1]) else "cut"  # whole, only lacking its newline
            rec = fmt.loads(text + "\n", str(path)) if mend == "newline" else fmt.loads(text, str(path), repair=True)
    except UnicodeDecodeError:
        raise RecorderError(f"{path}: is not a recording (not UTF-8 text) — {keep}") from None
    except RecursionError:
        raise RecorderError(f"{path}: exists and is not a recording (nested too deeply) — {keep}") from None
    except fmt.RecordingError as exc:
        raise RecorderError(f"{path}: exists and is not a recording this command can resume ({exc}) — {keep}") from None
    old, new = rec.header, fmt.check_header(path, new_header)
    # the entries as written: an old file's launch command is compared in the form this config stores it
    old_arms = [same_launch(a.entry, arm) for a, arm in zip(old.arms, cfg.arms)] if cfg is not None \
        else [a.entry for a in old.arms]
    # A launched arm's version is known only once its server runs (arm_up checks it then).
    versions = [(a["engine"].get("version"), b.engine.version) for a, b in zip(old_arms, new.arms)
                if a["engine"].get("version") is not None and b.engine.version is not None]
    same = {
        "mode": (old.recorder.mode, new.recorder.mode),
        "max_tokens": (old.recorder.max_tokens, new.recorder.max_tokens),
        "rounds": (old.recorder.rounds, new.recorder.rounds),
        "arms": ([_arm_key(a) for a in old_arms], [_arm_key(a.entry) for a in new.arms]),
        "engine versions": ([v for v, _ in versions], [w for _, w in versions]),
        "mixes": (old.recorder.mixes, new.recorder.mixes),
        "prompts": ([_prompt_key(p.entry) for p in old.prompts], [_prompt_key(p.entry) for p in new.prompts]),
    }
    for name, (was, now) in same.items():
        if was != now:
            raise RecorderError(f"{path}: was recorded with different {name} than this config asks for — {keep}")
    return rec, mend


def open_output(path: Path, new_header: dict[str, Any], cfg: Config | None = None) -> fmt.Recording:
    """Create the file, or resume an existing one once check_output has proven it is this config's recording."""
    rec, mend = check_output(path, new_header, cfg)
    if rec is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.unlink()  # an empty file
        fmt.create(path, new_header)
        return fmt.load(path)
    if mend == "newline":
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("\n")
    elif mend == "cut" and fmt.drop_partial_tail(path):
        note(f"recorder: {path.name}: dropped a cut-off last line (an interrupted write); it will be redone")
    return fmt.load(path)


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return False
    return True


def _arm_key(a: Mapping[str, Any]) -> tuple:
    return a["id"], a["model"], repr(sorted(a["flags"].items())), (a.get("launch") or {}).get("command")


def same_launch(old: Mapping[str, Any], arm: Arm) -> Mapping[str, Any]:
    """A header from before launch commands were stored unexpanded holds the expanded argv: when that is exactly
    what this config expands to, it is the same arm (returned with the stored form, so it compares equal)."""
    launch = old.get("launch")
    if arm.launch is None or not isinstance(launch, dict) or launch.get("command") != list(arm.launch.command):
        return old
    return {**old, "launch": {**launch, "command": list(arm.launch.shown_command)}}


def _prompt_key(p: Mapping[str, Any]) -> tuple:
    return p["id"], p["kind"], p["text"], p.get("api", "chat"), repr(sorted(p["sampling"].items()))
