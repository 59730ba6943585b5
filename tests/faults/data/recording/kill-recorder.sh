#!/bin/sh
# A "real CLI" that kills the claude-tee recording it (its parent) mid-session, as a crash or an
# OOM kill of the recorder would: the recording has no exit event.
echo '{"type":"system","subtype":"init"}'
kill -9 "$PPID"
sleep 1
