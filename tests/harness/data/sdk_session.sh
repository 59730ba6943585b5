#!/bin/sh
# Plays a minimal SDK for the harness tests: starts whatever `claude` is first on PATH the way the
# official SDKs do, writes an initialize request and one prompt, closes stdin, and lets the
# CLI's stdout through.
exec claude --output-format stream-json --verbose --input-format stream-json < "$(dirname "$0")/sdk_input.ndjson"
