# A driver for the run-order test (tests/conformance/integration_run_order): appends the case it
# was started for to $RUN_ORDER_LOG, then waits (at most 5 s) until $RUN_ORDER_STARTS cases have
# started, so with -j2 and RUN_ORDER_STARTS=2 a third case starts only after the first two.
echo "$FAKE_CLAUDE_SCENARIO" >> "$RUN_ORDER_LOG"
waited=0
while [ "$(wc -l < "$RUN_ORDER_LOG")" -lt "$RUN_ORDER_STARTS" ] && [ "$waited" -lt 50 ]; do
  sleep 0.1
  waited=$((waited + 1))
done
echo '{"obs":"end","ok":true,"t_ms":0}'
