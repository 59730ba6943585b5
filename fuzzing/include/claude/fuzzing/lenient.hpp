// The lenient rewrite: what turns a conformance case or a recording into a fuzzing seed, so that
// the SDK's behaviour, not the scenario's expectations, decides how a mutated session goes.
//
// What it does: the header becomes non-strict, loses argv/env and the `observe*` patterns, and
// every wait (`timeout_ms`, `within_ms`, `sleep_ms`) is capped at `wait_ms`, except that a
// `request` or an `expect` of a control_response waits `answer_ms` for the SDK's answer; the
// driver spec's `timeout_ms` is capped at `session_ms`, past which a session counts as hung.
// `expect` patterns keep only what routes the session (`type`, `subtype`, `request_id` strings
// and `$capture`s), and any answer, success or error, satisfies an expected control_response or
// `expect_response`: the control oracle, not the pattern, judges answers.
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
