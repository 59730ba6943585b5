// RunSlot: the number of a fake-claude session among all those one harness run starts.
//
// What it is: with FAKE_CLAUDE_RUNS=DIR (set by harness replay/run/check), every session claims
// the lowest free number N by creating DIR/run-N.started exclusively (O_EXCL, mode 0600, holding
// the process id), and writes its JSON report to DIR/run-N.json. harness counts the claims to
// know that (and how often) claude ran, waits for each claimed run's report, and grades every
// run; run N of a multi-run scenario plays its part N.
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
