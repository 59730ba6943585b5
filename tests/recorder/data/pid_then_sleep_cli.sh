#!/bin/sh
# Stands in for a real CLI that runs on after its stdin closes: prints its pid, then sleeps.
echo "pid $$"
exec sleep 300
