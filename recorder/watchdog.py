"""A launched server's watchdog: stops the server when the recorder that started it is gone without stopping it
(killed with SIGKILL, or by the OOM killer: no handler runs then, and the server used to keep its port, so the
rerun could not start it again).

    python -m recorder.watchdog RECORDER_PID TOKEN SIGNAL GRACE_S

The recorder starts one before each launched server, as the leader of a process group of its own, and starts the
server into that group (recorder/launch.py): a recorder killed at any moment of the start leaves nothing the
watchdog cannot find. It waits for the recorder to exit, then stops every other process of its group and every
process carrying the server's LAUNCH_TOKEN as the recorder's stop does: SIGNAL, then SIGKILL after GRACE_S. The
recorder ends its watchdog when it stops the server itself.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time

from recorder.launch import stop_group


def wait_for_exit(pid: int) -> None:
    """Return once process `pid` has exited (a pidfd: no polling), or at once if it is gone already."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    except OSError:  # no pidfd on this kernel: look once a second
        while _alive(pid):
            time.sleep(1)
        return
    select.select([fd], [], [])
    os.close(fd)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def main(argv: list[str]) -> int:
    recorder, token, sig, grace = int(argv[0]), argv[1], getattr(signal, argv[2]), float(argv[3])
    wait_for_exit(recorder)
    stop_group(os.getpgrp(), token, sig, grace)  # the group this watchdog leads: the server's
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
