// Small recorded sets for the drift tests: recordings written the way claude-tee writes them (a
// header, one line event per message, end of input, exit), from message values in the test.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "claude/emulator/pattern.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace claude::harness::testing {

using emulator::Json;

// One line of the session: from the CLI (stdout) or from the SDK (stdin).
struct Wire {
  enum class From { cli, sdk } from;
  Json message;
};

Wire cli(Json message);
Wire sdk(Json message);

// Messages of a plain text turn; `tag` varies every value (ids, text, costs) but no shape.
Json initialize_request(const std::string& request_id);
Json control_success(const std::string& request_id);
Json user_prompt(const std::string& tag);
Json init_message(const std::string& cli_version, const std::string& tag);
Json assistant_text(const std::string& tag);
Json result_success(const std::string& tag);

// initialize round trip, prompt, init, assistant, result.
std::vector<Wire> text_turn(const std::string& cli_version, const std::string& tag);

// Writes `file` (parents created). `header_version` empty: "cli_version":null in the header.
void write_recording(const std::filesystem::path& file, const std::vector<Wire>& lines,
                     const std::string& header_version = "2.1.332");

void write_text(const std::filesystem::path& file, const std::string& text);

// A fresh directory under /tmp, removed with everything in it.
class TempDir : public test_support::TempDir {
 public:
  TempDir() : test_support::TempDir("harness-drift-test") {}
  std::filesystem::path operator/(const std::string& name) const { return path() / name; }
};

}  // namespace claude::harness::testing
