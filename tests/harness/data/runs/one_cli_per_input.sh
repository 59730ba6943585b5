#!/bin/sh
# Starts `claude` once per input file, one after another, as apps that start one CLI per query
# (or per request) do. Exits 0 whatever the CLIs say: only harness's verdict grades the runs.
for input in "$@"; do
  claude --output-format stream-json --verbose --input-format stream-json <"$input" >/dev/null
done
exit 0
