// In-process runs: one scenario played by fake-claude's Engine against the C++ SDK in the same
// process, through the SDK's InMemoryTransport — the fast path of fuzz/fuzz_sdk_session.
//
// What it is: the C++ driver's own session logic (drivers/cpp, the spec in the doc's header)
// with its transport replaced: a pump thread feeds the SDK's frames to the Engine, runs the
// Engine's clock, frames the Engine's stdout bytes with the SDK's LineBuffer (so the framing
// mutators reach the SDK's line handling as a pipe would) and pushes the lines to the SDK; the
// Engine's ending becomes the stream's exit status. The result is a RunOutcome like a driver
// process gives (observations, exit 0/3, the Engine's report), so the same oracles judge it.
// Not supported here, and refused with nullopt: print mode, specs with control calls, and
// scenarios with a `hang` step.
//
// How it fails: nullopt for what it does not support or a doc that does not load; a session
// that outlives the spec's timeout_ms ends the stream (exit 3, a timeout observation). A crash
// of the SDK is a crash of the process, which is what a fuzzer wants.
//
// What it costs: the SDK's threads plus one pump thread per run; the pump wakes every
// millisecond while the session lasts.
#pragma once

#include <optional>

#include "claude/conformance/grade.hpp"
#include "claude/fuzzing/scenario_doc.hpp"

namespace claude::fuzzing {

// Whether run_in_process can play `doc` (see above).
bool runs_in_process(const ScenarioDoc& doc);

std::optional<claude::conformance::RunOutcome> run_in_process(const ScenarioDoc& doc);

}  // namespace claude::fuzzing
