#!/bin/sh
# A "real CLI" whose output (about 2 MB) is larger than the small disk the test records onto.
i=0
while [ $i -lt 2000 ]; do
  printf '{"type":"assistant","text":"%01000d"}\n' "$i"
  i=$((i + 1))
done
