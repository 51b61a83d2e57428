"""Launched arms ([arms.launch]) without an engine: a tiny python HTTP server started as the arm's server.

- A server that daemonizes out of its process group (double fork + setsid) is stopped too, and its port is free
  when "arm stopped" is said.
- A port still held by a process that is not the arm's server is named (pid, program), not reported as stopped.
- Values a launch block takes from the environment (${VAR}) are never written into the recording and never
  printed: the recording, stdout and stderr are grepped for them.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import httpx
import pytest

from recorder import config, launch
from recorder.errors import RecorderError
from tests.browser_fixtures import ROOT

# A server that answers GET /health with 200. "escape": the process started stays (as a supervisor) while the
# child that serves calls setsid; "daemon": it double-forks and calls setsid, and the process started exits 0. Either
# way the process that serves is in a session and process group of its own: what `killpg` cannot reach.
SERVER = """
import http.server, os, sys, time
port, mode = int(sys.argv[1]), sys.argv[2]
if mode == "escape":
    if os.fork():
        while True:
            time.sleep(1)
    os.setsid()
if mode == "daemon":
    if os.fork():
        os._exit(0)
    os.setsid()
    if os.fork():
        os._exit(0)
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", port), H).serve_forever()
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def eventually(check: Callable[[], bool], bound_s: float = 60) -> bool:
    """check(), polled until it holds or bound_s passes. Processes end and ports close a moment after the event
    that ends them, longer on a busy machine: the bound is a limit on waiting, not a speed asked of anything."""
    deadline = time.monotonic() + bound_s
    while not check() and time.monotonic() < deadline:
        time.sleep(0.05)
    return check()


def wait_open(port: int) -> None:
    assert eventually(lambda: port_open(port)), f"nothing listens on {port}"


def launched_arm(tmp_path: Path, port: int, command: list[str], grace: float = 2) -> config.Arm:
    cfg = tmp_path / "c.toml"
    cfg.write_text(f"""
[[arms]]
id = "a"
endpoint = "http://127.0.0.1:{port}"
model = "m"
[arms.launch]
command = {json.dumps(command)}
stop_grace_s = {grace}
start_timeout_s = 120
[[prompts]]
id = "p"
kind = "code"
text = "x"
""")
    return config.load(cfg).arms[0]


def healthy(server: launch.Server) -> float:
    async def wait() -> float:
        async with httpx.AsyncClient() as client:
            return await launch.wait_healthy(server, client)
    return asyncio.run(wait())


@pytest.mark.parametrize("mode", ["escape", "daemon"])
def test_a_server_that_leaves_its_process_group_is_stopped_and_its_port_freed(tmp_path: Path, mode: str) -> None:
    port = free_port()
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    arm = launched_arm(tmp_path, port, [sys.executable, str(script), str(port), mode])
    server = launch.start(arm)
    try:
        healthy(server)
        # the daemon's middle process may still be exiting when its child already answers
        def serving() -> list[int]:
            return [pid for pid in launch.carriers(server.token) if pid != server.proc.pid]
        assert eventually(lambda: len(serving()) == 1), serving()
        serving_pid = serving()[0]
        # the serving process really escaped: another process group than the one the recorder stops, its own session
        assert os.getpgid(serving_pid) != server.watchdog.pid and os.getsid(serving_pid) != os.getsid(0)
        if mode == "daemon":
            assert server.proc.wait(60) == 0  # the process the recorder started is long gone
    finally:
        left = launch.stop(server)
    assert left is None
    assert not port_open(port) and launch.carriers(server.token) == []


@contextmanager
def foreign_server(tmp_path: Path) -> Iterator[tuple[int, subprocess.Popen]]:
    """(port, process) of a server the recorder did not start (it carries no launch token)."""
    port = free_port()
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    other = subprocess.Popen([sys.executable, str(script), str(port), "plain"])
    try:
        wait_open(port)
        yield port, other
    finally:
        other.kill()
        other.wait()


def test_a_port_held_by_another_process_after_the_stop_is_named(tmp_path: Path) -> None:
    with foreign_server(tmp_path) as (port, other):
        # the arm's own command only sleeps
        arm = launched_arm(tmp_path, port, [sys.executable, "-c", "import time; time.sleep(60)"], grace=1)
        server = launch.start(arm)
        left = launch.stop(server)
        assert left is not None and left.startswith(f"arm a: port {port} still accepts connections after its server "
                                                    f"was stopped (pid {other.pid} (python")
        assert "stop it before recording another arm on that port" in left
        assert other.poll() is None  # never signalled: it is not the arm's


@pytest.mark.parametrize("arm_id", ["../x", "a/b", "..", ".hidden", "a b", "sim:x", "x" * 129, "a,b"])
def test_arm_ids_that_are_not_safe_file_names_are_refused(tmp_path: Path, arm_id: str) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[[arms]]\nid = {json.dumps(arm_id)}\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n'
                   '[[prompts]]\nid = "p"\nkind = "code"\ntext = "x"\n')
    with pytest.raises(RecorderError) as err:
        config.load(cfg)
    assert str(err.value).startswith("c.toml: arms[0].id: ") and "is not a usable id: use 1–128 letters" in str(err.value)


def test_values_from_the_environment_are_neither_recorded_nor_printed(tmp_path: Path) -> None:
    """The launch command gets a key from the environment and prints its argv before failing; the recording's
    header (written before the first server starts), stdout and stderr hold ${SR_SECRET}, never the value."""
    secret = "LAUNCH-SECRET-777"
    cfg = tmp_path / "c.toml"
    cfg.write_text("""
[[arms]]
id = "a"
endpoint = "http://127.0.0.1:9"
model = "m"
[arms.launch]
command = ["${SR_PY}", "-c", "import sys; print('starting with', sys.argv); sys.exit(3)", "--key", "${SR_SECRET}"]
env = { API_KEY = "${SR_SECRET}", PLAIN = "2" }
health_url = "http://127.0.0.1:9/health?key=${SR_SECRET}"
[[prompts]]
id = "p"
kind = "code"
text = "x"
""")
    out = tmp_path / "rec.jsonl"
    proc = subprocess.run([sys.executable, "-m", "specreplay", "record", str(cfg), "-o", str(out), "--no-progress",
                           "--host-busy-max", "1"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "SR_SECRET": secret, "SR_PY": sys.executable})
    assert proc.returncode == 2, proc.stderr
    recording = out.read_text()
    for where in (recording, proc.stdout, proc.stderr):
        assert secret not in where
    header = json.loads(recording.splitlines()[0])
    stored = header["arms"][0]["launch"]
    assert stored["command"][-2:] == ["--key", "${SR_SECRET}"] and stored["command"][0] == "${SR_PY}"
    assert stored["env"] == {"API_KEY": "${SR_SECRET}", "PLAIN": "2"}
    assert stored["health_url"] == "http://127.0.0.1:9/health?key=${SR_SECRET}"
    assert "recorder: starting arm a: '${SR_PY}' -c" in proc.stderr and "--key '${SR_SECRET}'" in proc.stderr
    # the server's own output, quoted in the one line that says why it stopped, shows the variable's name
    assert "the server exited with code 3 before it was healthy" in proc.stderr
    assert "'--key', '${SR_SECRET}']" in proc.stderr


def test_a_header_recorded_before_commands_were_stored_unexpanded_still_resumes(tmp_path: Path, monkeypatch) -> None:
    """An older file holds the expanded argv; when it is exactly what the config expands to, it is the same arm."""
    from recorder import session

    monkeypatch.setenv("SR_PY", "/opt/py")
    cfg_path = tmp_path / "c.toml"
    cfg_path.write_text('[[arms]]\nid = "a"\nendpoint = "http://127.0.0.1:9"\nmodel = "m"\n[arms.launch]\n'
                        'command = ["${SR_PY}", "-m", "s"]\n[[prompts]]\nid = "p"\nkind = "code"\ntext = "x"\n')
    cfg = config.load(cfg_path)
    opts = session.Options(output=tmp_path / "r.jsonl", max_tokens=8, request_timeout=5, idle=session.Idle())
    new = session.header(cfg, session.unprobed(cfg), "cells", opts, {})
    old = json.loads(json.dumps(new))
    old["arms"][0]["launch"]["command"] = ["/opt/py", "-m", "s"]
    from specreplay.recording import format as fmt
    fmt.create(opts.output, old)
    assert session.check_output(opts.output, new, cfg)[0] is not None
    monkeypatch.setenv("SR_PY", "/elsewhere/py")
    with pytest.raises(RecorderError, match="different arms"):
        session.check_output(opts.output, new, config.load(cfg_path))


# A recorder in miniature: starts the arm's server as the recorder does (launch.start, so with its watchdog), says
# the server's token and process group once it answers, then waits to be killed.
MINI_RECORDER = """
import asyncio, sys, time
import httpx
from recorder import config, launch
arm = config.load(sys.argv[1]).arms[0]
server = launch.start(arm)
async def wait():
    async with httpx.AsyncClient() as client:
        await launch.wait_healthy(server, client)
asyncio.run(wait())
print(server.token, server.watchdog.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize("mode", ["plain", "daemon", "env -i"])
def test_a_killed_recorder_leaves_no_server_running(tmp_path: Path, mode: str) -> None:
    """SIGKILL gives the recorder no chance to stop its server: the server's watchdog does (6 of 6 kills used to
    leave llama-server running, and the rerun then found its port taken). A launch command that clears its
    environment (`env -i`) carries no token: the watchdog finds it in its process group."""
    port = free_port()
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    serve = [sys.executable, str(script), str(port), "daemon" if mode == "daemon" else "plain"]
    launched_arm(tmp_path, port, ["env", "-i", *serve] if mode == "env -i" else serve)
    recorder = subprocess.Popen([sys.executable, "-c", MINI_RECORDER, str(tmp_path / "c.toml")], cwd=ROOT,
                                stdout=subprocess.PIPE, text=True)
    token, group = recorder.stdout.readline().split()  # type: ignore[union-attr]
    pgid = int(group)

    def left() -> list[int]:
        return sorted(launch.members(pgid) | set(launch.carriers(token)))
    try:
        assert left() and port_open(port)
        if mode == "env -i":
            assert launch.carriers(token) == []  # nothing carries the token: only the group finds it
        recorder.kill()
        recorder.wait()
        # A dying process leaves /proc's environ (so `carriers` stops finding it) before its sockets close: wait
        # for both (the watchdog's grace is 2 s), then say which one never came.
        eventually(lambda: not left() and not port_open(port))
        assert left() == []
        assert not port_open(port)
    finally:
        launch.stop_group(pgid, token, signal.SIGKILL, 0)  # a failed test leaves no server behind either


# Starts the arm's server as the recorder does, saying "go" just before launch.start and "started" after it.
MINI_STARTER = """
import sys, time
from recorder import config, launch
arm = config.load(sys.argv[1]).arms[0]
print("go", flush=True)
launch.start(arm)
print("started", flush=True)
time.sleep(600)
"""


def _live(where: str, value: str | int) -> list[int]:
    """Live processes (zombies are gone: their files are closed) whose command line holds the argument `value`
    (where="argv"), or in session `value` (where="session")."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()
            argv = Path(f"/proc/{entry.name}/cmdline").read_bytes().split(b"\0") if where == "argv" else []
        except OSError:
            continue
        if fields[0] not in ("Z", "X") and (str(value).encode() in argv if where == "argv"
                                            else int(fields[3]) == value):
            found.append(int(entry.name))
    return found


TRIES = 30


def test_a_recorder_killed_at_any_moment_of_the_start_leaves_no_server(tmp_path: Path) -> None:
    """The server used to start before its watchdog existed: a SIGKILL in between left it running (2 of 30 tries).
    Now the watchdog starts first and the server joins its process group. The recorder is killed at a random
    moment around launch.start (seeded), half of the servers behind `env -i`; every try must end with no server and
    no watchdog left. How long a start takes here is measured first, only to spread the kills over it.

    The recorder runs in a session of its own, and what it starts stays in that session (the watchdog and the
    server only change process group): "nothing left" is "no live process in the session", which also sees a child
    forked but not yet exec'd, and which, once true, stays true (only a member can add one)."""
    rng = random.Random(42)

    def start(i: int) -> tuple[subprocess.Popen, str]:
        marker = f"specreplay-start-race-{os.getpid()}-{i}"
        serve = [sys.executable, "-c", "import time; time.sleep(600)", marker]
        launched_arm(tmp_path, free_port(), ["env", "-i", *serve] if i % 2 else serve, grace=1)
        proc = subprocess.Popen([sys.executable, "-c", MINI_STARTER, str(tmp_path / "c.toml")], cwd=ROOT,
                                stdout=subprocess.PIPE, text=True, start_new_session=True)
        assert proc.stdout is not None and proc.stdout.readline() == "go\n"
        return proc, marker

    proc, marker = start(-1)
    began = time.monotonic()
    assert proc.stdout is not None and proc.stdout.readline() == "started\n"
    span = time.monotonic() - began
    proc.kill()
    proc.wait()
    assert eventually(partial(lambda sid: not _live("session", sid), proc.pid))
    caught = 0
    for i in range(TRIES):
        proc, marker = start(i)
        time.sleep(rng.uniform(0, 1.5 * span))
        proc.kill()
        proc.wait()
        caught += bool(_live("argv", marker))  # a server already there when the recorder died
        assert eventually(partial(lambda sid: not _live("session", sid), proc.pid)), (i, _live("session", proc.pid))
    print(f"{caught} of {TRIES} kills found a server already started; none was left")


# As MINI_STARTER, but the server's child waits JOIN_S between its fork and joining the watchdog's group (a few
# microseconds in the recorder), saying "forked" first: a preexec_fn makes Python run the at-fork hooks in the child
# right after the fork, before it joins the group and execs.
MINI_SLOW_JOIN = """
import os, subprocess, sys, time
from recorder import config, launch
arm = config.load(sys.argv[1]).arms[0]
popen = subprocess.Popen
def slow_join(args, **kw):
    if kw.get("process_group", 0) > 0:  # the server's (the watchdog's own group is 0)
        os.register_at_fork(after_in_child=lambda: (print("forked", flush=True), time.sleep(float(sys.argv[2]))))
        kw["preexec_fn"] = lambda: None
    return popen(args, **kw)
subprocess.Popen = slow_join
launch.start(arm)
print("started", flush=True)
time.sleep(600)
"""
JOIN_S = 0.6


def test_a_recorder_killed_before_its_server_joins_the_group_leaves_no_server(tmp_path: Path) -> None:
    """The last moment of the start race: the server's child is forked but not yet in the watchdog's group when
    the recorder dies. A watchdog that acted on the recorder's exit found an empty group and left; the child then
    joined and ran on. Now the watchdog waits until the child has exec'd (its copy of the pipe's end closes then).
    The recorder is killed at a random moment of the child's wait (seeded), 30 times; none may leave a process in
    the recorder's session (see the test above)."""
    rng = random.Random(7)
    markers = []
    try:
        for i in range(TRIES):
            markers.append(marker := f"specreplay-join-race-{os.getpid()}-{i}")
            launched_arm(tmp_path, free_port(), [sys.executable, "-c", "import time; time.sleep(600)", marker],
                         grace=1)
            proc = subprocess.Popen([sys.executable, "-c", MINI_SLOW_JOIN, str(tmp_path / "c.toml"), str(JOIN_S)],
                                    cwd=ROOT, stdout=subprocess.PIPE, text=True, start_new_session=True)
            assert proc.stdout is not None and proc.stdout.readline() == "forked\n"
            time.sleep(rng.uniform(0, JOIN_S))
            proc.kill()
            proc.wait()
            assert eventually(partial(lambda sid: not _live("session", sid), proc.pid)), (i, _live("session", proc.pid))
    finally:  # a failed try leaves no sleeping server behind
        for pid in (pid for marker in markers for pid in _live("argv", marker)):
            os.kill(pid, signal.SIGKILL)


def test_a_port_taken_before_the_start_names_its_holder(tmp_path: Path) -> None:
    async def check(arm: config.Arm) -> None:
        async with httpx.AsyncClient() as client:
            await launch.check_port_free(arm, client)

    with foreign_server(tmp_path) as (port, other):
        arm = launched_arm(tmp_path, port, [sys.executable, "-c", "pass"])
        with pytest.raises(RecorderError, match=rf"arm a: something already answers at http://127.0.0.1:{port}/health "
                                                rf"\(pid {other.pid} \(python"):
            asyncio.run(check(arm))
