// fake-claude: a drop-in fake of the Claude Code CLI (see docs/fake-claude.md).
#include <string>
#include <vector>

#include "claude/emulator/fake_claude.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return claude::emulator::run_fake_claude(args, claude::emulator::current_environment());
}
