#!/bin/sh
# Stands in for the real CLI where a test needs `--version` answered: prints a version like
# Claude Code does, and otherwise copies stdin to stdout.
if [ "$1" = "--version" ] || [ "$1" = "-v" ]; then
  echo "2.1.332 (Claude Code)"
  exit 0
fi
exec cat
