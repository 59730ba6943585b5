// Structural diff of two loaded scenarios or recordings (after the emulator's loader has turned
// both into steps): the same verbs in the same order, the same message types and subtypes, and
// the same fields. Values other than `type` and `subtype` are not compared, so uuids, session
// ids, timestamps, durations, costs and text never count as changes; pattern operators ($any,
// $capture, $var, $re, $type) match any value.
//
// How it fails: it does not. What it costs: an LCS over the two step lists (O(n·m) time and
// memory in steps, fine for thousands of steps).
#pragma once

#include <string>
#include <vector>

#include "claude/emulator/scenario.hpp"

namespace claude::harness {

struct StepChange {
  enum class Kind { removed, added } kind;  // only in A / only in B
  std::size_t line = 0;                     // line in A (removed) or B (added)
  std::string summary;                      // "send assistant {message,session_id,uuid,…}"
};

// Empty when the two are structurally equivalent.
[[nodiscard]] std::vector<StepChange> structural_diff(const emulator::Scenario& a,
                                                      const emulator::Scenario& b);

// One line describing a step: verb, type/subtype and top-level fields.
[[nodiscard]] std::string step_summary(const emulator::Step& step);

}  // namespace claude::harness
