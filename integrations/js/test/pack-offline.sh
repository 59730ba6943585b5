#!/usr/bin/env bash
# `npm pack` of the helper works offline, the tarball holds what package.json promises, and a
# project installs it offline from the tarball and imports fakeClaude from it.
# Exit codes: 0 pass, 1 a check failed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export npm_config_cache="$work/npm-cache" # an empty cache: nothing can come from an earlier download

tarball="$(cd "$here/.." && npm pack --offline --silent --pack-destination "$work")"
listing="$(tar -tzf "$work/$tarball")"
for file in package/package.json package/index.mjs package/index.d.ts package/verdict-text.mjs package/README.md; do
  grep -qx "$file" <<<"$listing" || { echo "pack-offline: $file missing from $tarball" >&2; echo "$listing" >&2; exit 1; }
done
if grep -q '^package/test/' <<<"$listing"; then
  echo "pack-offline: $tarball ships the tests" >&2
  exit 1
fi

mkdir "$work/app"
echo '{"name":"app","private":true,"type":"module"}' >"$work/app/package.json"
(cd "$work/app" && npm install --offline --no-audit --no-fund --loglevel=error "$work/$tarball" >/dev/null)
(cd "$work/app" && node --input-type=module -e '
  const m = await import("@claude-harness/fake-claude");
  if (typeof m.fakeClaude !== "function") { console.error("no fakeClaude export"); process.exit(1); }')
echo "pack-offline: $tarball packs and installs offline ($(wc -l <<<"$listing") files)"
