"""Writes observations: one JSON object per stdout line, each with `obs` and `t_ms`.

Safe to call from the event loop and from the timeout watchdog thread at once (a lock keeps
lines whole). The run ends once, by whichever side gets there first (`end`): after that nothing
more is written, so a session that dies of the watchdog's kill cannot add lines after its
timeout. How it fails: a closed stdout raises, which ends the driver (exit 3).
What it costs: one encode and one flushed write per observation.
"""

import json
import sys
import threading
import time

_started = time.monotonic()
_lock = threading.Lock()
_ended = False


def _encode(obs: str, members: dict) -> str:
    return json.dumps(
        {"obs": obs, **members, "t_ms": int((time.monotonic() - _started) * 1000)},
        default=repr,
    )


def observe(obs: str, **members) -> None:
    line = _encode(obs, members)
    with _lock:
        if not _ended:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()


def end(*closing: tuple) -> bool:
    """Writes the closing observations, each an (obs, members) pair, and ends the run; returns
    False, writing nothing, when the other side ended it first."""
    global _ended
    with _lock:
        if _ended:
            return False
        _ended = True
        for obs, members in closing:
            sys.stdout.write(_encode(obs, members) + "\n")
        sys.stdout.flush()
        return True
