#!/bin/sh
# A client that exits the moment it has read `result`: it neither closes the CLI's stdin first
# nor waits for the CLI, so the CLI finishes (and fake-claude writes its report) after it is gone.
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/in" "$dir/out"
claude --output-format stream-json --verbose --input-format stream-json <"$dir/in" >"$dir/out" &
exec 3>"$dir/in"
cat "$(dirname "$0")/../sdk_input.ndjson" >&3
while IFS= read -r line; do
  case "$line" in *'"type":"result"'*) exit 0 ;; esac
done <"$dir/out"
exit 1
