// run_driver: carries one driver spec out with the C++ SDK against fake-claude and reports what
// the SDK surfaced (docs/drivers.md §3).
//
// A `prompt` without control calls runs through `claude::sdk::query`, so stdin closes exactly
// when query() decides (docs/protocol.md §8.3); anything else needs `claude::sdk::Client` (control
// calls, streaming input), whose stdin closes at once when nothing can call back and no control
// call is armed, otherwise after the `result` of the last turn written. Every message is
// observed as `Message::json()`, the message as received; what the SDK throws becomes an `error`.
//
// How it fails: UnsupportedFeature (or json::exception for a spec the schema would refuse) from
// the option mapping before anything starts; otherwise never throws. Returns 0 carried out, 3 the
// session outlived `timeout_ms` (the CLI child is killed first; without an `on_timeout` the
// process then exits 3 at once).
// What it costs: one thread per armed control call and one for streaming input, plus the SDK's.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "claude/sdk/transport.hpp"
#include "driver_spec.hpp"
#include "observation_log.hpp"

namespace claude::driver {

struct DriverInvocation {
  std::string fake_claude;
  std::optional<std::string> scenario;  // passed as `--scenario FILE` before the CLI flags
  DriverSpec spec;
  // In-process runs (fuzz_sdk_session): the session runs over this transport instead of a
  // spawned CLI, and at `timeout_ms` the watchdog calls `on_timeout` (which must end the
  // transport's stream) and run_driver returns 3, instead of killing the CLI and leaving the
  // process.
  std::function<std::unique_ptr<sdk::Transport>()> transport;
  std::function<void()> on_timeout;
};

[[nodiscard]] int run_driver(const DriverInvocation& invocation, ObservationLog& log);

// Checks the option mapping without starting anything (the same errors run_driver throws).
void check_options(const DriverSpec& spec);

}  // namespace claude::driver
