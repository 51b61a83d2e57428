"""Arms whose server the recorder starts itself ([arms.launch]): start, wait for health, stop.

The server runs in its own process group (start_new_session), so stopping it reaches every process it
spawned (vLLM's engine core is a child process). Stop = the configured signal to the group, then SIGKILL
after the grace period. Only one launched server is alive at a time: the caller stops one before the next.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from specreplay.recorder.config import Arm
from specreplay.recorder.errors import RecorderError


@dataclass
class Server:
    arm: Arm
    proc: subprocess.Popen
    log: Path
    started: float  # monotonic time of the start
    startup_s: float | None = None  # start to first healthy answer


def log_dir() -> Path:
    d = Path(tempfile.gettempdir()) / "specreplay-launch"
    d.mkdir(exist_ok=True)
    return d


def start(arm: Arm) -> Server:
    assert arm.launch is not None
    log = log_dir() / f"{arm.id}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
    with open(log, "w") as fh:
        try:
            proc = subprocess.Popen(list(arm.launch.command), stdout=fh, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, env={**os.environ, **arm.launch.env},
                                    start_new_session=True)
        except OSError as exc:
            raise RecorderError(f"arm {arm.id}: cannot start {shlex.join(arm.launch.command)} ({exc.strerror}) — "
                                "check [arms.launch] command") from None
    return Server(arm, proc, log, time.monotonic())


def tail(log: Path, lines: int = 3) -> str:
    """The last non-empty lines of a log, joined into one line."""
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return ""
    kept = [line.strip() for line in text.splitlines() if line.strip()]
    return " | ".join(kept[-lines:])[-800:] or "(empty log)"


async def check_port_free(arm: Arm, client: httpx.AsyncClient) -> None:
    """Something already answering at the health URL would pass for the new server: refuse to start then."""
    assert arm.launch is not None
    try:
        await client.get(arm.launch.health_url, timeout=2)
    except httpx.HTTPError:
        return
    raise RecorderError(f"arm {arm.id}: something already answers at {arm.launch.health_url} before the recorder "
                        "started this arm's server — stop it (or change the port), then rerun")


async def wait_healthy(server: Server, client: httpx.AsyncClient) -> float:
    """Poll the health URL until it answers 200; stop at once (one clear line) if the process died."""
    launch = server.arm.launch
    assert launch is not None
    deadline = server.started + launch.start_timeout_s
    while True:
        code = server.proc.poll()
        if code is not None:
            raise RecorderError(f"arm {server.arm.id}: the server exited with code {code} before it was healthy "
                                f"(log {server.log}): {tail(server.log)}")
        try:
            r = await client.get(launch.health_url, timeout=2)
            if r.status_code == 200:
                server.startup_s = time.monotonic() - server.started
                return server.startup_s
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            stop(server)
            raise RecorderError(f"arm {server.arm.id}: {launch.health_url} not healthy after "
                                f"{launch.start_timeout_s:.0f} s (log {server.log}): {tail(server.log)} — "
                                "raise [arms.launch] start_timeout_s if the server is just slow to start")
        await asyncio.sleep(0.5)


def stop(server: Server) -> None:
    """The stop signal to the server's process group, SIGKILL after the grace period; waits until it is gone."""
    launch = server.arm.launch
    assert launch is not None
    pgid = server.proc.pid  # start_new_session: the group id is the leader's pid
    try:
        os.killpg(pgid, getattr(signal, launch.stop_signal))
    except ProcessLookupError:
        return
    # Wait for the whole group, not just the leader: its children may outlive it.
    deadline = time.monotonic() + launch.stop_grace_s
    while time.monotonic() < deadline:
        server.proc.poll()  # reap the leader, or it stays in the group as a zombie
        if not _group_alive(pgid):
            return
        time.sleep(0.2)
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    server.proc.wait()


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
