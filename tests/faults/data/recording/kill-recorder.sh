#!/bin/sh
# A "real CLI" that kills the claude-tee recording it (its parent) mid-session, as a crash or an
# OOM kill of the recorder would: the recording has no exit event.
[ "$1" = --version ] && { echo "1.0.0 (Claude Code)"; exit 0; }
echo '{"type":"system","subtype":"init"}'
sleep 0.5  # the header and the line reach the file first
kill -9 "$PPID"
sleep 1
