// fake-claude: a drop-in fake of the Claude Code CLI (see docs/fake-claude.md).
// Its arguments are NOT parsed with CLI11 like our other executables (base/cli.hpp): parsing them
// the way the real CLI's commander does, errors and their wording included, is part of what it
// emulates (emulator/cli_options, from the recorded options table; docs/fake-claude.md).
#include <string>
#include <vector>

#include "claude/emulator/fake_claude.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return claude::emulator::run_fake_claude(args, claude::emulator::current_environment());
}
