"""Tries a TCP connection to each HOST:PORT argument and prints `<target> <verdict>` per line.

Verdicts: `open`; `firewall` (refused at once with "No route to host", which is how a
sandbox's firewall answers); `closed` (nothing listens); `timeout` (1 s); `error:<errno>`.
The red-team checks run it inside sandboxes (the sandbox-manager's `network` tests and
deploy/checks/compose.sh) and, to show a target is really there, from an unfirewalled
container beside them. Python 3 and nothing else, as the sandbox image has it.
"""

import errno
import socket
import sys
import time

for target in sys.argv[1:]:
    host, port = target.rsplit(":", 1)
    started = time.monotonic()
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
        verdict = "open"
    except TimeoutError:
        verdict = "timeout"
    except OSError as err:
        if err.errno == errno.EHOSTUNREACH and time.monotonic() - started < 0.5:
            verdict = "firewall"
        elif err.errno == errno.ECONNREFUSED:
            verdict = "closed"
        else:
            verdict = f"error:{err.errno}"
    print(target, verdict, flush=True)
