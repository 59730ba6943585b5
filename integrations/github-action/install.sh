#!/usr/bin/env bash
# The action's install step: puts harness and fake-claude on the job's PATH ($GITHUB_PATH).
# With INPUT_HARNESS_BIN_DIR, uses the binaries there; else installs the Debian/Ubuntu packages
# (scripts/bootstrap, through sudo when not root) and builds the two targets from the action's
# own checkout ($GITHUB_ACTION_PATH) with the release preset.
# Exit codes: 0 installed, 1 a build step failed, 2 bad input.
set -euo pipefail
: "${GITHUB_PATH:?install.sh runs as a GitHub Actions step (GITHUB_PATH unset)}"
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

if [[ -n "${INPUT_HARNESS_BIN_DIR:-}" ]]; then
  bin="$(cd "$INPUT_HARNESS_BIN_DIR" 2>/dev/null && pwd)" || {
    echo "claude-harness: harness-bin-dir '$INPUT_HARNESS_BIN_DIR' is not a directory" >&2
    exit 2
  }
else
  sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo -E)
  "${sudo[@]}" "$source_dir/scripts/bootstrap"
  (cd "$source_dir" && cmake --preset release >/dev/null &&
    cmake --build --preset release --target harness fake-claude) || exit 1
  bin="$source_dir/build/release/bin"
fi
for tool in harness fake-claude; do
  [[ -x "$bin/$tool" ]] || { echo "claude-harness: $bin/$tool is missing or not executable" >&2; exit 2; }
done
echo "$bin" >>"$GITHUB_PATH"
echo "claude-harness: harness and fake-claude from $bin"
