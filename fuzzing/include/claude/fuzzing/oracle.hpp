// Oracles: what must hold for an SDK whatever the CLI does (docs/fuzz.md, "Oracles").
//
// What it is: a pure function of one execution — the scenario fake-claude played, what the
// driver reported (exit status, observations, docs/drivers.md §3) and fake-claude's report (which
// steps ran, the transcript) — returning every violation, most serious first:
//
//   crash               the driver died by a signal, or exited other than 0, 3 (timeout) or 4
//                       (unsupported) — an uncaught error took the SDK's process down
//   hang                the session outlived its bound although fake-claude was not told to hang
//   result-lost         fake-claude wrote a `result` (and the step ran), the SDK yielded no result
//                       and raised no error its user could catch
//   uncaught-error      the SDK raised a language runtime error (TypeError, AttributeError,
//                       KeyError, a C++ exception outside the SDK's error types, …) instead of a
//                       documented one
//   control-unanswered  a CLI control_request went unanswered while the SDK kept stdin open
//   control-answered-twice  more answers to a request_id than requests carrying it
//   leaked-process      the driver ended cleanly but a process it started (the CLI) still ran
//
// fake-claude's own verdict (did the SDK send what the scenario expected) is not an oracle: a
// mutated scenario often no longer matches the SDK, and that is not a bug.
//
// How it fails: it does not; an unreadable report only removes the checks that need it.
//
// What it costs: one pass over the observations and the transcript.
#pragma once

#include <string>
#include <vector>

#include "claude/conformance/grade.hpp"
#include "claude/fuzzing/scenario_doc.hpp"

namespace claude::fuzzing {

struct Violation {
  std::string oracle;   // crash, hang, result-lost, uncaught-error, control-unanswered, …
  std::string where;    // what it concerns: a signal, an error class, a result subtype, …
  std::string message;  // one line, plain words
  // "oracle:where": findings with the same signature are one finding.
  [[nodiscard]] std::string signature() const { return oracle + ":" + where; }
};

// `played` is the scenario fake-claude was given (its steps line up with the report's steps).
std::vector<Violation> check_oracles(const ScenarioDoc& played,
                                     const claude::conformance::RunOutcome& run);

// True when an error class name is a language runtime error rather than an SDK's documented one.
bool is_runtime_error_name(const std::string& name);

}  // namespace claude::fuzzing
