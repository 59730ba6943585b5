#!/usr/bin/env bash
# The action's run step: `harness check --sdk SDK` (INPUT_SDK) or INPUT_COMMAND under
# `harness replay INPUT_SCENARIO`, writing junit.xml, report.html, the JSON report and
# summary.md into INPUT_REPORT_DIR, the summary also to $GITHUB_STEP_SUMMARY, and harness's exit
# code to $GITHUB_OUTPUT (exit-code). The step itself passes whenever the reports were written:
# the action's last step fails the job with that code, after the reports are uploaded.
# Exit codes: 0 reports written, 2 bad input (no report).
set -euo pipefail
: "${GITHUB_OUTPUT:?run.sh runs as a GitHub Actions step (GITHUB_OUTPUT unset)}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${INPUT_REPORT_DIR:-claude-harness-report}"
mkdir -p "$out"

code=0
if [[ -n "${INPUT_SDK:-}" ]]; then
  [[ -z "${INPUT_SCENARIO:-}${INPUT_COMMAND:-}" ]] || {
    echo "claude-harness: give either sdk or scenario + command, not both" >&2; exit 2; }
  read -r -a extra <<<"${INPUT_CHECK_ARGS:-}"
  harness check --sdk "$INPUT_SDK" --junit "$out/junit.xml" --json "$out/check.json" \
    --html "$out/report.html" --force "${extra[@]}" || code=$?
  kind=check
elif [[ -n "${INPUT_SCENARIO:-}" && -n "${INPUT_COMMAND:-}" ]]; then
  harness replay "$INPUT_SCENARIO" --report "$out/report.json" --html "$out/report.html" --force \
    -- bash -c "$INPUT_COMMAND" || code=$?
  kind=replay
else
  echo "claude-harness: give sdk (harness check) or scenario and command (harness replay)" >&2
  exit 2
fi

python3 "$here/summarize.py" "$kind" "$out" "$code" || code=2
[[ -z "${GITHUB_STEP_SUMMARY:-}" ]] || cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"
echo "exit-code=$code" >>"$GITHUB_OUTPUT"
