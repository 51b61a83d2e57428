"""A server process on 127.0.0.1 for tests: started, waited on until its health URL answers, stopped afterwards."""

from __future__ import annotations

import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def local_server(cmd: list[str], health_url: str, name: str, timeout: float,
                 **popen: Any) -> Iterator[subprocess.Popen]:
    """Run `cmd` with its output in a log file until health_url answers 200; a clear error with the log's tail
    if it exits or times out first. The process is stopped on leaving, also on failure."""
    with tempfile.NamedTemporaryFile("w", prefix=f"specreplay-{name}-", suffix=".log", delete=False) as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, **popen)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(health_url, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                tail = Path(log.name).read_text(errors="replace")[-3000:]
                raise RuntimeError(f"{name} did not come up ({health_url}); log {log.name}:\n{tail}")
            time.sleep(0.3)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
