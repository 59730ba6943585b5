// claude_tee_command: claude-tee as the tests of its pumps start it — a given CLI behind it, the
// recording at a given path, a fixed CLI version, and none of the test's own CLAUDE_TEE_*.
// Costs nothing but the Command; start it with start() (command.hpp) or ChildProcess.
#pragma once

#include <filesystem>

#include "claude/test_support/command.hpp"

namespace claude::test_support {

inline Command claude_tee_command(const std::filesystem::path& claude_tee,
                                  const std::filesystem::path& real_cli,
                                  const std::filesystem::path& recording) {
  Command command;
  command.program = claude_tee;
  command.unset_env = {"CLAUDE_TEE_*"};
  command.env = {{"CLAUDE_TEE_REAL_CLI", real_cli.string()},
                 {"CLAUDE_TEE_OUT", recording.string()},
                 {"CLAUDE_TEE_CLI_VERSION", "test"}};
  return command;
}

}  // namespace claude::test_support
