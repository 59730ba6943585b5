// `harness check`: grades an SDK against the conformance suite, running its driver once per case
// (docs/drivers.md), `-j N` cases at a time (the longest expected first, run_order.hpp).
//
// How it fails: bad input is reported as "file:line: reason" with exit 2 before any case runs.
// Exit codes: 0 every case passed (or NON-STRICT, SKIPPED, or failed as baselined); 1 a case
// failed, or a baselined case passed (stale); 2 usage error, a bad case file or baseline.
// What it costs: one driver process group per case, N at a time; results are kept in memory.
#pragma once

#include <ostream>
#include <span>
#include <string>

namespace claude::conformance {

int run_check(std::span<const std::string> args, std::ostream& out, std::ostream& err);

}  // namespace claude::conformance
