// The lenient rewrite: what turns a conformance case or a recording into a fuzzing seed, so that
// the SDK's behaviour, not the scenario's expectations, decides how a mutated session goes.
//
// What it does: the header becomes non-strict (leftover SDK lines are fine), loses its argv/env
// requirements and the conformance `observe*` patterns, and gets short waits (`timeout_ms`,
// every `within_ms` and `sleep_ms` capped at `wait_ms`, except that a `request` or an `expect` of
// a control_response waits `answer_ms` for the SDK's answer, which the control oracle judges);
// the driver spec's `timeout_ms` is capped
// at `session_ms`, the bound after which a session counts as hung. `expect` patterns keep only
// what routes the session — `type`, `subtype`, `request_id` strings and `$capture`s — so an SDK
// line that differs in detail still moves the scenario on, and an `expect` of a control_response
// or an `expect_response` accepts any answer, success or error (the control oracle, not the
// pattern, judges answers).
//
// How it fails: it does not; a doc that did not load before may still not load after.
//
// What it costs: one walk over each step.
#pragma once

#include <cstdint>

#include "claude/fuzzing/scenario_doc.hpp"

namespace claude::fuzzing {

struct LenientBounds {
  std::int64_t wait_ms = 1000;     // longest wait or sleep of fake-claude
  std::int64_t answer_ms = 2500;   // how long a CLI request waits for its answer
  std::int64_t session_ms = 8000;  // the driver spec's timeout_ms: longer is a hang
};

void make_lenient(ScenarioDoc& doc, const LenientBounds& bounds);

// The routing part of a pattern (see above); {} when nothing routes.
Json relaxed_pattern(const Json& pattern);

}  // namespace claude::fuzzing
