// A scripted stand-in for an SDK: spawns fake-claude with pipes and plays an "SDK script"
// (tests/emulator/data/sdk/*.ndjson) against it, so subprocess tests are data, not code.
//
// Script header: {"plays":"<scenario, relative to the source root>" | null, "args":[…],
//   "env":{…}, "exit":N | "signal":"SIGSEGV", "report":PATTERN, "stderr":PATTERN,
//   "terminate_after_ms":N}
// Steps: {"write":MSG} (after ${name} substitution), {"write_raw":"bytes"},
//   {"await":PATTERN} (reads stdout lines until one matches; captures bind names),
//   {"close_stdin":true}, {"close_stdout":true}, {"sleep_ms":N}.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "claude/emulator/pattern.hpp"

namespace claude::emulator::testing {

struct ProcessResult {
  std::optional<int> exit_code;
  std::optional<int> signal;
  std::string stdout_text;
  std::string stderr_text;
  std::optional<Json> report;  // parsed $FAKE_CLAUDE_REPORT, when written
};

// Runs fake-claude with `args` (and extra environment), writing `input` to its stdin and closing
// it.
ProcessResult run_fake_claude_process(
    const std::vector<std::string>& args, const std::string& input,
    const std::vector<std::pair<std::string, std::string>>& env = {});

// Plays one SDK script; returns a list of problems (empty = the script's expectations held).
std::vector<std::string> play_sdk_script(const std::filesystem::path& script);

}  // namespace claude::emulator::testing
