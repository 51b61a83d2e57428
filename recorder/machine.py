"""What machine a recording was made on, for the header's provenance; how many recorder processes it takes."""

from __future__ import annotations

import os
import platform
import re
import subprocess
from pathlib import Path


def default_processes() -> int:
    """Half the usable cores: the engine's own processes (API server, scheduler) need the rest on a GPU machine."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, cores // 2)


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def _run(cmd: list[str]) -> str:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode == 0 else ""


def accelerator() -> str | None:
    """The GPU as nvidia-smi names it, with memory, driver and CUDA version; None without an NVIDIA GPU."""
    rows = [r.split(", ") for r in _run(["nvidia-smi", "--query-gpu=name,memory.total,driver_version",
                                         "--format=csv,noheader"]).strip().splitlines()]
    if not rows or len(rows[0]) != 3:
        return None
    name, memory, driver = rows[0]
    cuda = re.search(r"CUDA Version:\s*([\d.]+)", _run(["nvidia-smi"]))
    count = f"{len(rows)} × " if len(rows) > 1 else ""
    return f"{count}{name} ({memory}), driver {driver}, CUDA {cuda.group(1) if cuda else 'unknown'}"


def describe() -> dict[str, object]:
    cpu = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                if line.startswith("model name")), platform.processor() or platform.machine())
    mem_kb = next((int(line.split()[1]) for line in _read("/proc/meminfo").splitlines()
                   if line.startswith("MemTotal:")), 0)
    osr = next((line.split("=", 1)[1].strip().strip('"') for line in _read("/etc/os-release").splitlines()
                if line.startswith("PRETTY_NAME=")), platform.system())
    return {"cpu": cpu, "cores": os.cpu_count(), "ram_gib": round(mem_kb / 2**20, 1), "accelerator": accelerator(),
            "os": f"{osr} (kernel {platform.release()})", "python": platform.python_version(),
            # Other work on the machine slows a CPU engine; the idle check only sees the endpoint's own queue.
            "load_avg_at_start": [round(x, 2) for x in os.getloadavg()]}
