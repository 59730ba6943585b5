// Structural diff of two loaded scenarios or recordings (after the emulator's loader has turned
// both into steps): the same verbs in the same order, the same message types and subtypes, and
// the same fields. Values other than `type` and `subtype` are not compared, so uuids, session
// ids, timestamps, durations, costs and text never count as changes; pattern operators ($any,
// $capture, $var, $re, $type) match any value.
//
// What it reports: a step only in A (removed) or only in B (added); a step that is in both but
// at another place (moved: same structure, found out of order); and a step that became another
// shape in place (changed: same verb and type/subtype, within one run of differences), with the
// JSON Pointer of each field that differs ("/message/usage/cache_read: only in B").
//
// How it fails: it does not. What it costs: an LCS over the two step lists (O(n·m) time and
// memory in steps, fine for thousands of steps), then a pass over the unmatched ones.
#pragma once

#include <string>
#include <vector>

#include "claude/emulator/scenario.hpp"

namespace claude::harness {

struct StepChange {
  enum class Kind { removed, added, moved, changed } kind;
  std::size_t line = 0;    // line in A (removed, moved, changed) or B (added)
  std::size_t line_b = 0;  // moved, changed: the line in B
  std::string summary;  // "send assistant {message,session_id,uuid,…}" (of A's step, but added)
  std::vector<std::string> fields;  // changed: "/pointer: what differs", in document order
};

// Empty when the two are structurally equivalent.
[[nodiscard]] std::vector<StepChange> structural_diff(const emulator::Scenario& a,
                                                      const emulator::Scenario& b);

}  // namespace claude::harness
