#!/bin/sh
# Writes the SDK lines of $1 to `claude` and keeps its stdin open until the CLI exits, as an SDK
# waiting for an answer does: only the CLI decides when the session ends.
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/in"
claude --output-format stream-json --verbose --input-format stream-json <"$dir/in" &
cli=$!
exec 3>"$dir/in"
cat "$1" >&3
wait "$cli"
