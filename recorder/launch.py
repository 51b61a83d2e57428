"""Arms whose server the recorder starts itself ([arms.launch]): start, wait for health, stop.

The server's watchdog (recorder/watchdog.py) is started first, as the leader of a process group of its own, and
the server is started into that group: from the server's first instant a watchdog exists that can find it. The
watchdog acts when the write end of a pipe the recorder holds (`Server.alive`) is closed everywhere: in the
recorder, and in a server child forked but not yet in the group (the fork copies the end, exec closes it), so a
recorder killed at any moment of the start, that one included, leaves no server behind. Stopping signals every process of the group
but the watchdog, so it reaches every process the server spawned (vLLM's engine core is a child process), also
one whose environment was cleared (`env -i`). A process that leaves the group (a server that daemonizes with
setsid) still carries the environment it was started with: every launched server gets a variable with a token of
its own (LAUNCH_TOKEN), and stop signals every process whose environment holds it too. Stop = the configured
signal, then SIGKILL after the grace period; then the server's port must be free (nothing accepts a connection
there), or stop says which process still holds it. Only one launched server is alive at a time: the caller stops
one before the next.
"""

from __future__ import annotations

import asyncio
import io
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from recorder.config import Arm
from recorder.errors import RecorderError

LAUNCH_TOKEN = "SPECREPLAY_LAUNCH_TOKEN"


@dataclass
class Server:
    arm: Arm
    proc: subprocess.Popen
    log: Path
    started: float  # monotonic time of the start
    token: str  # LAUNCH_TOKEN's value in this server's environment (and its descendants')
    # stops the server if the recorder dies first (recorder/watchdog.py); its pid is the server's process group
    watchdog: subprocess.Popen
    alive: io.FileIO  # the pipe's write end: closed (by the stop, or by the recorder's death), the watchdog acts
    startup_s: float | None = None  # start to first healthy answer


def log_dir() -> Path:
    d = Path(tempfile.gettempdir()) / "specreplay-launch"
    d.mkdir(exist_ok=True)
    return d


def start(arm: Arm) -> Server:
    assert arm.launch is not None
    log = log_dir() / f"{arm.id}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"  # arm ids are safe names
    token = uuid.uuid4().hex
    # The watchdog waits for the end of this pipe, not for the recorder's exit: the write end is copied into every
    # child the recorder forks until that child execs, so a server child killed on its way into the group (its
    # recorder dead between fork and joining) still holds it, and the watchdog acts only after the child joined.
    # Both ends are close-on-exec; only the watchdog gets the read end.
    read_end, write_end = os.pipe()
    alive = io.FileIO(write_end, "w")
    # A group of its own, not the recorder's: a signal to the recorder's group (Ctrl-C, a killed job) leaves the
    # watchdog and the server to the recorder's own stop.
    try:
        watchdog = subprocess.Popen([sys.executable, "-m", "recorder.watchdog", str(read_end), token,
                                     arm.launch.stop_signal, str(arm.launch.stop_grace_s)], pass_fds=(read_end,),
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    process_group=0)
    finally:
        os.close(read_end)
    with open(log, "w") as fh:
        try:
            proc = subprocess.Popen(list(arm.launch.command), stdout=fh, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL,
                                    env={**os.environ, **arm.launch.env, LAUNCH_TOKEN: token},
                                    process_group=watchdog.pid)
        except OSError as exc:
            watchdog.kill()
            watchdog.wait()
            alive.close()
            raise RecorderError(f"arm {arm.id}: cannot start {shlex.join(arm.launch.shown_command)} "
                                f"({exc.strerror}) — check [arms.launch] command") from None
    return Server(arm, proc, log, time.monotonic(), token=token, watchdog=watchdog, alive=alive)


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
    port = urlsplit(arm.launch.health_url).port
    holder = f" ({_holder(port)})" if port else ""
    raise RecorderError(f"arm {arm.id}: something already answers at {arm.launch.shown_health_url}{holder} before the "
                        "recorder started this arm's server — stop it (or change the port), then rerun")


async def wait_healthy(server: Server, client: httpx.AsyncClient) -> float:
    """Poll the health URL until it answers 200; stop at once (one clear line) if the process died."""
    launch = server.arm.launch
    assert launch is not None
    deadline = server.started + launch.start_timeout_s
    while True:
        code = server.proc.poll()
        # exit 0 with a child left (in the group or carrying the token): a daemon
        if code is not None and not (code == 0 and (carriers(server.token) or members(server.watchdog.pid))):
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
            raise RecorderError(f"arm {server.arm.id}: {launch.shown_health_url} not healthy after "
                                f"{launch.start_timeout_s:.0f} s (log {server.log}): {tail(server.log)} — "
                                "raise [arms.launch] start_timeout_s if the server is just slow to start")
        await asyncio.sleep(0.5)


def stop(server: Server) -> str | None:
    """The stop signal to every process of the server's group but its watchdog and to every process carrying its
    token, SIGKILL after the grace period; waits until they are gone, then ends the server's watchdog. Returns None
    when the server's port is free again, else one line saying which process still holds it."""
    launch = server.arm.launch
    assert launch is not None
    stop_group(server.watchdog.pid, server.token, getattr(signal, launch.stop_signal), launch.stop_grace_s,
               server.proc)
    server.watchdog.kill()
    server.watchdog.wait()
    server.alive.close()  # after the kill: closed first, it would set the watchdog stopping an empty group
    return _port_left(server)


def stop_group(pgid: int, token: str, sig: int, grace_s: float, proc: subprocess.Popen | None = None) -> None:
    """Stop every process of group `pgid` but its leader (the watchdog, whose pid it is) and every carrier of
    `token`: `sig`, SIGKILL after grace_s, and wait until they are gone. The recorder's stop (which reaps the server's
    own `proc`) and the watchdog's."""
    signalled = _signal(pgid, token, sig)
    # Wait for the whole group and every escaped descendant, not just the server: children may outlive it.
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        if proc is not None:
            proc.poll()  # reap the server, or it stays in the group as a zombie
        if not members(pgid) and not _running(signalled) and not carriers(token):
            break
        time.sleep(0.2)
    else:
        signalled |= _signal(pgid, token, signal.SIGKILL)
        if proc is not None:
            proc.wait()
        _wait_gone(pgid, token, signalled, 5.0)
    if proc is not None:
        proc.poll()


def _signal(pgid: int, token: str, sig: int) -> set[int]:
    """Signals every member of the group but its leader, and every carrier; returns the processes signalled."""
    pids = members(pgid) | set(carriers(token))
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass
    return pids


def members(pgid: int) -> set[int]:
    """The live processes of group `pgid` but its leader: a group keeps its id while any member lives, so this finds
    the server and what it spawned, whatever their environment. Zombies count as gone (their files are closed)."""
    found = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == pgid:
            continue
        try:
            fields = Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            found.add(int(entry.name))
    return found


def _running(pids: set[int]) -> bool:
    """Whether any of these processes has not finished exiting. A dying process stops showing its environment
    (so `carriers` no longer finds it) before it closes its sockets; only its state "Z" (or no /proc entry) says
    its files are closed. A zombie may stay forever where PID 1 does not reap, so it counts as gone."""
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X"):
            return True
    return False


def carriers(token: str) -> list[int]:
    """Live processes (of this user) whose environment holds LAUNCH_TOKEN=token: the server and every process it
    started, in its group or not."""
    if not token:
        return []
    needle = f"{LAUNCH_TOKEN}={token}".encode()
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as fh:
                if needle in fh.read().split(b"\0"):
                    found.append(int(entry.name))
        except OSError:  # gone meanwhile, or another user's process
            continue
    return found


def _wait_gone(pgid: int, token: str, pids: set[int], timeout: float) -> None:
    """After SIGKILL: what is still there (a child forked meanwhile) gets it too, until nothing is left."""
    deadline = time.monotonic() + timeout
    while (members(pgid) or carriers(token) or _running(pids)) and time.monotonic() < deadline:
        pids |= _signal(pgid, token, signal.SIGKILL)
        time.sleep(0.1)


def _port_left(server: Server) -> str | None:
    """None when nothing accepts a connection at the arm's endpoint and health URL any more."""
    launch = server.arm.launch
    assert launch is not None
    for url in dict.fromkeys((server.arm.endpoint, launch.health_url)):
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or (443 if parts.scheme == "https" else 80)
        if not _accepts(host, port):
            continue
        return (f"arm {server.arm.id}: port {port} still accepts connections after its server was stopped "
                f"({_holder(port)}) — a process outside the server's process group holds it; stop it before "
                "recording another arm on that port")
    return None


def _accepts(host: str, port: int, settle_s: float = 1.0) -> bool:
    """Whether the port still accepts connections after up to settle_s: the kernel may close a just-killed
    server's listening socket a moment after the process is reaped."""
    deadline = time.monotonic() + settle_s
    while True:
        try:
            with socket.create_connection((host, port), timeout=1):
                pass
        except OSError:
            return False
        if time.monotonic() > deadline:
            return True
        time.sleep(0.1)


def _holder(port: int) -> str:
    """'pid 123 (python3)' for the process listening on a TCP port, from /proc; 'process unknown' otherwise."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            cols = row.split()
            if len(cols) > 9 and cols[3] == "0A" and int(cols[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                inodes.add(f"socket:[{cols[9]}]")
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            for fd in os.scandir(f"/proc/{entry.name}/fd"):
                if os.readlink(fd.path) in inodes:
                    name = Path(f"/proc/{entry.name}/comm").read_text().strip()
                    return f"pid {entry.name} ({name})"
        except OSError:
            continue
    return "process unknown"

