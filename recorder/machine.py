"""What machine a recording was made on, for the header's provenance."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:
        return ""


def describe() -> dict[str, object]:
    cpu = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                if line.startswith("model name")), platform.processor() or platform.machine())
    mem_kb = next((int(line.split()[1]) for line in _read("/proc/meminfo").splitlines()
                   if line.startswith("MemTotal:")), 0)
    osr = next((line.split("=", 1)[1].strip().strip('"') for line in _read("/etc/os-release").splitlines()
                if line.startswith("PRETTY_NAME=")), platform.system())
    return {"cpu": cpu, "cores": os.cpu_count(), "ram_gib": round(mem_kb / 2**20, 1), "accelerator": None,
            "os": f"{osr} (kernel {platform.release()})", "python": platform.python_version(),
            # Other work on the machine slows a CPU engine; the idle check only sees the endpoint's own queue.
            "load_avg_at_start": [round(x, 2) for x in os.getloadavg()]}
