#!/bin/sh
# Installs a pinned ajv into the git-ignored .cache/ (once) and validates the bundled scenarios
# against docs/scenario.schema.json. Exit 77 (skipped) when node or npm is missing.
set -eu
root=${1:?source root}
ajv_version=8.17.1
cache="$root/.cache/emulator-ajv-$ajv_version"
command -v node >/dev/null 2>&1 || { echo "node not found: skipped"; exit 77; }
if [ ! -f "$cache/node_modules/ajv/package.json" ]; then
  command -v npm >/dev/null 2>&1 || { echo "npm not found: skipped"; exit 77; }
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --silent "ajv@$ajv_version" >/dev/null
fi
exec node "$(dirname "$0")/validate_scenarios.mjs" "$root" "$cache/node_modules/ajv"
