// Grading: one case run → PASS / FAIL / NON-STRICT / SKIPPED, with findings a maintainer can act
// on.
//
// What it is: a pure function of what a run produced — the driver's exit status and observations
// (docs/drivers.md §3) and fake-claude's JSON report — against the case's expectations. The wire
// side (what the SDK sent) is fake-claude's verdict; the API side (what the SDK showed its user)
// is the `observe*` patterns, matched in order as a subsequence with the scenario pattern language.
//
//   SKIPPED     the driver exited 4: its SDK cannot express what the case needs
//   FAIL        wire mismatch, a required observation missing or in the wrong order, a forbidden
//               one present, the driver timing out (the SDK hung) or breaking (exit 2/3/other),
//               or no fake-claude report at all (the SDK never started the CLI)
//   NON-STRICT  everything required holds, but an `observe_should` pattern is unmet
//   PASS        everything holds
//
// How it fails: it does not; malformed observation lines become findings.
//
// What it costs: one pattern walk per (expectation, observation) pair tried.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "claude/conformance/conformance_case.hpp"

namespace claude::conformance {

enum class Verdict { pass, fail, non_strict, skipped };

std::string_view to_string(Verdict verdict);

struct RunOutcome {
  std::optional<int> driver_exit;      // nullopt: killed (by the timeout or a signal)
  int driver_signal = 0;               // the signal that ended the driver, if any
  bool timed_out = false;              // the harness stopped the driver at the case deadline
  std::vector<Json> observations;      // parsed stdout lines
  std::vector<std::string> bad_lines;  // stdout lines that were not JSON objects
  std::optional<Json> fake_report;     // FAKE_CLAUDE_REPORT contents, when written
  std::string driver_stderr;           // tail, for the report
  double seconds = 0;
  // Processes of the driver's process group (the SDK's CLI, …) still running 500 ms after the
  // driver exited; they were killed then. Always 0 when the driver was stopped at the deadline.
  std::size_t leaked_processes = 0;
};

struct Finding {
  std::string where;    // "wire", "observe", "observe_absent", "observe_should", "driver"
  std::string message;  // one line, plain words
  std::optional<Json> expected;
  std::optional<Json> closest;  // the nearest received value (line or observation)
  std::string pointer;          // JSON Pointer of the first difference in `closest`
  std::string detail;           // extra lines (fake-claude's own text, the driver's stderr)
};

struct Grade {
  Verdict verdict = Verdict::pass;
  std::vector<Finding> findings;  // the reasons for anything but PASS (and NON-STRICT notes)
};

Grade grade(const ConformanceCase& c, const RunOutcome& run);

}  // namespace claude::conformance
