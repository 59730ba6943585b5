// RunSlot: the number of a fake-claude session among all those one harness run starts.
//
// What it is: with FAKE_CLAUDE_RUNS=DIR (set by harness), every session claims the lowest free
// number N by creating DIR/run-N.started exclusively (0600, holding its pid) and reports to
// DIR/run-N.json; harness counts the claims and grades every run.
//
// How it fails: a DIR that cannot be written gives nullopt and the reason in `error`.
// What it costs: one open(2) per number already taken.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace claude::emulator::detail {

struct RunSlot {
  std::size_t number = 0;   // 1-based
  std::string report_path;  // DIR/run-N.json
};

std::optional<RunSlot> claim_run(const std::string& dir, std::string& error);

}  // namespace claude::emulator::detail
