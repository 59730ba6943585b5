#!/bin/sh
# Stands in for a real CLI whose `--version` hangs after starting a child of its own (which
# writes its pid to $PROBE_PIDS); otherwise it prints its own pid and copies stdin to stdout.
if [ "$1" = "--version" ]; then
  sh -c 'echo $$ >>"$PROBE_PIDS"; exec sleep 300' </dev/null >/dev/null 2>&1 &
  exec sleep 300
fi
echo "pid $$"
exec cat
