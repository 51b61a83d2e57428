"""A launched server's watchdog: stops the server when the recorder that started it is gone without stopping it
(killed with SIGKILL, or by the OOM killer: no handler runs then, and the server used to keep its port, so the
rerun could not start it again).

    python -m recorder.watchdog ALIVE_FD TOKEN SIGNAL GRACE_S

The recorder starts one before each launched server, as the leader of a process group of its own, and starts the
server into that group (recorder/launch.py). ALIVE_FD is the read end of a pipe whose write end the recorder holds,
and with it every child the recorder forked that has not exec'd yet: a server child on its way into the group. The
watchdog waits for the pipe's end, then stops every other process of its group and every process carrying the
server's LAUNCH_TOKEN as the recorder's stop does: SIGNAL, then SIGKILL after GRACE_S. The recorder ends its
watchdog when it stops the server itself.
"""

from __future__ import annotations

import os
import signal
import sys

from recorder.launch import stop_group


def wait_for_end(fd: int) -> None:
    """Return once every write end of the pipe is closed (nothing is ever written to it)."""
    while os.read(fd, 4096):
        pass


def main(argv: list[str]) -> int:
    alive, token, sig, grace = int(argv[0]), argv[1], getattr(signal, argv[2]), float(argv[3])
    wait_for_end(alive)
    stop_group(os.getpgrp(), token, sig, grace)  # the group this watchdog leads: the server's
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
