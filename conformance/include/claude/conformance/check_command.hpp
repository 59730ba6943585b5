// `harness check`: grades an SDK against the conformance suite.
//
// What it is: the command behind `harness check --sdk NAME|CMD [options] [ID-PREFIX…]`. It loads
// the suite, runs the SDK's driver once per case (docs/drivers.md) with `-j N` cases at a time
// (more than one: the longest expected first, run_order.hpp), prints one line per case as it
// finishes and a summary table, and writes `--junit`/`--json` reports (in case id order). With
// `--baseline FILE` (expected failures, one case id per line, `#` comments) a listed case that
// fails is accepted and a listed case that passes fails the run as stale.
//
// Exit codes: 0 every case passed (or NON-STRICT, SKIPPED, or failed as baselined); 1 a case
// failed, or a baselined case passed (stale); 2 usage error, a bad case file or baseline.
//
// How it fails: bad input is reported as "file:line: reason" with exit 2 before any case runs.
//
// What it costs: one driver process group per case, N at a time; results are kept in memory.
#pragma once

#include <ostream>
#include <span>
#include <string>

namespace claude::conformance {

int run_check(std::span<const std::string> args, std::ostream& out, std::ostream& err);

std::string check_usage();

}  // namespace claude::conformance
