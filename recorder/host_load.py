"""How busy the whole machine is: the CPU busy share from /proc/stat, and waiting for it to drop.

The endpoint's idle check sees only its own queue; other work on the same machine still slows a CPU engine
(and the recorder's own timing), so before each cell/level the recorder also reads this and stores it.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable
from pathlib import Path

from recorder.config import HostIdle
from recorder.errors import RecorderError

STAT = Path("/proc/stat")


def cpu_times(text: str) -> tuple[int, int] | None:
    """(busy, total) jiffies of the aggregate `cpu` line; idle and iowait count as not busy."""
    for line in text.splitlines():
        if line.startswith("cpu "):
            vals = [int(x) for x in line.split()[1:]]
            # user nice system idle iowait irq softirq steal [guest guest_nice: already inside user/nice]
            total = sum(vals[:8])
            return total - vals[3] - (vals[4] if len(vals) > 4 else 0), total
    return None


def busy_share(before: tuple[int, int], after: tuple[int, int]) -> float:
    busy, total = after[0] - before[0], after[1] - before[1]
    return min(max(busy / total, 0.0), 1.0) if total > 0 else 0.0


def _read() -> tuple[int, int] | None:
    try:
        return cpu_times(STAT.read_text())
    except OSError:
        return None


async def measure(window: float) -> float | None:
    """The share of all cores busy over the next `window` seconds (None where there is no /proc/stat)."""
    before = _read()
    await asyncio.sleep(window)
    after = _read()
    return busy_share(before, after) if before and after else None


async def wait_quiet(rule: HostIdle, window: float, note: Callable[[str], None] | None = None) -> float | None:
    """Measure; while busier than rule.busy_max, say so every few seconds and measure again.

    Returns the share the caller proceeds under (stored with the run or level). After rule.max_wait_s a
    RecorderError (on_timeout "stop") or the last share ("proceed", with a note).
    """
    say = note or (lambda text: print(text, file=sys.stderr, flush=True))
    started = time.monotonic()
    said = 0.0
    while True:
        share = await measure(window)
        if share is None or share <= rule.busy_max:
            if said:
                say(f"recorder: host quiet again ({share:.0%} busy) after {time.monotonic() - started:.0f} s")
            return share
        waited = time.monotonic() - started
        if waited >= rule.max_wait_s:
            if rule.on_timeout == "proceed":
                say(f"recorder: host still {share:.0%} busy after {waited:.0f} s (ceiling {rule.busy_max:.0%}); "
                    "recording anyway (host_busy_on_timeout = \"proceed\"), the level says how busy it was")
                return share
            raise RecorderError(
                f"the machine stayed {share:.0%} busy for {waited:.0f} s (ceiling {rule.busy_max:.0%}, /proc/stat) — "
                "stop the other work and rerun the same command to resume, or raise [record] host_busy_max")
        if not said or time.monotonic() - said >= 5:
            say(f"recorder: host CPU {share:.0%} busy (ceiling {rule.busy_max:.0%}) — waiting for a quiet machine "
                f"({waited:.0f} of {rule.max_wait_s:.0f} s)")
            said = time.monotonic()
        await asyncio.sleep(max(0.0, 1.0 - window))
