// Whether a file claude-tee just wrote can stand for the session it recorded: it must load, and
// it must not be cut short (no exit or signal event: a killed recorder, a full disk). harness
// record, run --mode record and record --offline check every recording with it before calling
// it recorded (docs/harness.md).
//
// How it fails: it does not; the reason comes back as text, `file:line` included.
// What it costs: one load of the recording (docs/performance.md: the loader's speed).
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include "claude/harness/command_runner.hpp"

namespace claude::harness {

// nullopt when usable; otherwise "it does not load: …" or "it is incomplete: <truncated note>".
[[nodiscard]] std::optional<std::string> unusable_recording(const std::filesystem::path& path);

// Whether CMD started and ran claude (`recorded`: it left a recording); if not, says so on `err`.
[[nodiscard]] bool command_recorded(const CommandResult& result, bool recorded, std::ostream& err);

}  // namespace claude::harness
