#!/bin/sh
# CMD for `harness record`: runs `claude` (claude-tee, first on PATH) once and succeeds whatever
# happened to it, so only the recording itself can tell that the session was cut.
claude --print hello </dev/null >/dev/null 2>&1
exit 0
