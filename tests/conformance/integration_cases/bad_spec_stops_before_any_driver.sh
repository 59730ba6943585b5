#!/bin/sh
# harness check with one bad driver spec in the suite: exit 2 with file:line and the member,
# before any driver starts (the driver here would leave a marker file).
# usage: bad_spec_stops_before_any_driver.sh HARNESS SUITE_DIR
set -u
harness=$1 suite=$2
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
printf '#!/bin/sh\ntouch "%s/driver-started"\n' "$work" > "$work/driver"
chmod +x "$work/driver"
"$harness" check --sdk "$work/driver" --suite "$suite" > "$work/out" 2> "$work/err"
status=$?
cat "$work/err"
fail=0
[ "$status" -eq 2 ] || { echo "FAIL: exit $status, expected 2"; fail=1; }
grep -q 'perm/bad-spec.ndjson:2: driver spec /can_use_tool/0: a deny gives its "message"' "$work/err" ||
  { echo "FAIL: no file:line and member for the deny rule"; fail=1; }
[ ! -e "$work/driver-started" ] || { echo "FAIL: a driver started"; fail=1; }
[ "$fail" -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit "$fail"
