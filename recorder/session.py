"""What both modes share: preparing the arms, writing or checking the header, resuming a file."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx

from recorder import machine, server
from recorder.config import Arm, Config
from recorder.errors import RecorderError
from recorder.server import Capabilities
from specreplay import format as fmt


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
    request_timeout: float
    idle: Idle
    progress: bool = True
    workers: int = 1  # processes a sweep level's streams are split over (recorder/workers.py)


async def prepare(client: httpx.AsyncClient, cfg: Config, timeout: float) -> dict[str, tuple[dict[str, Any], Capabilities]]:
    """Identify every arm and probe what it accepts, one arm at a time. Returns arm id -> (header entry, caps)."""
    out = {}
    for arm in cfg.arms:
        engine, served = await server.identify(client, arm)
        try:
            caps = await server.probe(client, arm, cfg.prompts[0], timeout)
        except httpx.HTTPError as exc:
            raise RecorderError(f"arm {arm.id}: the probe request to {arm.endpoint} failed "
                                f"({type(exc).__name__}) — is the server still starting or overloaded?") from None
        for note in caps.notes:
            print(f"recorder: arm {arm.id}: {note}", file=sys.stderr)
        out[arm.id] = (arm_header(arm, engine, served, caps), caps)
    return out


def arm_header(arm: Arm, engine: dict, served: dict, caps: Capabilities) -> dict[str, Any]:
    h: dict[str, Any] = {"id": arm.id, "label": arm.label, "endpoint": arm.endpoint, "model": arm.model,
                         "engine": engine, "flags": arm.flags, "served": served,
                         "stream_interval": arm.flags.get("stream_interval"), "capabilities": caps.header()}
    if arm.baseline:
        h["baseline"] = arm.baseline
    return h


def header(cfg: Config, arms: dict[str, tuple[dict, Capabilities]], mode: str, opts: Options,
           extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "title": cfg.title,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": machine.describe(),
        "arms": [arms[a.id][0] for a in cfg.arms],
        "prompts": [{"id": p.id, "kind": p.kind, "text": p.text, "api": p.api,
                     "sampling": {**p.sampling, "max_tokens": opts.max_tokens}} for p in cfg.prompts],
        "recorder": {"mode": mode, "max_tokens": opts.max_tokens,
                     "idle_check": {"polls": opts.idle.polls, "interval_s": opts.idle.interval},
                     "config": os.path.basename(cfg.path), **extra},
    }


def open_output(path: Path, new_header: dict[str, Any]) -> fmt.Recording:
    """Create the file, or check an existing one was recorded the same way and return what it holds."""
    if not path.exists() or path.stat().st_size == 0:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.unlink()
        fmt.create(path, new_header)
        return fmt.load(path)
    if fmt.drop_partial_tail(path):
        print(f"recorder: {path.name}: dropped a cut-off last line (an interrupted write); it will be redone",
              file=sys.stderr)
    rec = fmt.load(path)
    old = rec.header
    same = {
        "mode": (old.get("recorder", {}).get("mode"), new_header["recorder"]["mode"]),
        "max_tokens": (old.get("recorder", {}).get("max_tokens"), new_header["recorder"]["max_tokens"]),
        "rounds": (old.get("recorder", {}).get("rounds"), new_header["recorder"].get("rounds")),
        "arms": ([_arm_key(a) for a in old["arms"]], [_arm_key(a) for a in new_header["arms"]]),
        "prompts": ([_prompt_key(p) for p in old["prompts"]], [_prompt_key(p) for p in new_header["prompts"]]),
    }
    for name, (was, now) in same.items():
        if was != now:
            raise RecorderError(f"{path}: was recorded with different {name} than this config asks for — "
                                "write to a new file with -o, or delete this one to start over")
    return rec


def _arm_key(a: dict) -> tuple:
    return a["id"], a["model"], repr(sorted(a["flags"].items())), a["engine"].get("version")


def _prompt_key(p: dict) -> tuple:
    return p["id"], p["kind"], p["text"], p.get("api", "chat"), repr(sorted(p["sampling"].items()))
