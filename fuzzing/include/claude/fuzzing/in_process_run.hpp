// In-process runs: one scenario played by fake-claude's Engine against the C++ SDK in the same
// process, through the SDK's InMemoryTransport — the fast path of fuzz/fuzz_sdk_session.
//
// What it is: the C++ driver's session logic (drivers/cpp, the spec in the doc's header) with a
// pump thread in place of the CLI: it feeds the SDK's frames to the Engine, runs the Engine's
// clock, and frames the Engine's stdout with the SDK's LineBuffer (so framing mutators reach the
// SDK's line handling as through a pipe); the Engine's ending becomes the exit status. The
// result is a RunOutcome like a driver process gives, so the same oracles judge it.
//
// How it fails: nullopt for a doc that does not load and for what is not supported (print mode,
// specs with control calls, `hang` steps); a session past the spec's timeout_ms ends the stream
// (exit 3, a timeout observation). A crash of the SDK is a crash of the process, as a fuzzer
// wants.
//
// What it costs: the SDK's threads plus one pump thread per run, waking every millisecond.
#pragma once

#include <optional>

#include "claude/conformance/grade.hpp"
#include "claude/fuzzing/scenario_doc.hpp"

namespace claude::fuzzing {

// Whether run_in_process can play `doc` (see above).
bool runs_in_process(const ScenarioDoc& doc);

std::optional<claude::conformance::RunOutcome> run_in_process(const ScenarioDoc& doc);

}  // namespace claude::fuzzing
