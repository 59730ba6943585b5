#!/bin/sh
# A "real CLI" whose output (about 2 MB) is larger than the small disk the test records onto.
[ "$1" = --version ] && { echo "1.0.0 (Claude Code)"; exit 0; }
i=0
while [ $i -lt 2000 ]; do
  printf '{"type":"assistant","text":"%01000d"}\n' "$i"
  i=$((i + 1))
done
