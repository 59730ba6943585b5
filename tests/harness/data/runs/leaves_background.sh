#!/bin/sh
# Plays the session, then leaves a `setsid` sleeper and a double-forked one behind and exits.
# Both write their pid to $LEAK_PIDS first, so a test can check they were ended.
setsid sh -c 'echo $$ >>"$LEAK_PIDS"; exec sleep 300' </dev/null >/dev/null 2>&1 &
( sh -c 'echo $$ >>"$LEAK_PIDS"; exec sleep 300' </dev/null >/dev/null 2>&1 & ) 
exec "$(dirname "$0")/../sdk_session.sh"
