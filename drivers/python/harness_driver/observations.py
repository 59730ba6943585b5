"""Writes observations: one JSON object per stdout line, each with `obs` and `t_ms`.

Safe to call from the event loop and from the timeout watchdog thread at once (a lock keeps
lines whole). How it fails: a closed stdout raises, which ends the driver (exit 3).
What it costs: one encode and one flushed write per observation.
"""

import json
import sys
import threading
import time

_started = time.monotonic()
_lock = threading.Lock()


def observe(obs: str, **members) -> None:
    line = json.dumps(
        {"obs": obs, **members, "t_ms": int((time.monotonic() - _started) * 1000)},
        default=repr,
    )
    with _lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
