// `harness record --offline`: records a session of the real Claude Code CLI with no API key and no
// network. model-stub (a scripted fake Messages API on 127.0.0.1) answers the CLI; CMD runs with
// `claude` -> claude-tee -> the real CLI under the offline environment of docs/protocol.md §9
// (fresh temporary HOME, fake key, ANTHROPIC_BASE_URL, the four traffic-disabling variables,
// ENABLE_TOOL_SEARCH=false, none of the caller's ANTHROPIC_* / CLAUDE_* variables), inside a
// fresh network namespace whose only interface is loopback when the machine allows it.
//
// How it fails: returns an exit status from exit_codes.hpp and explains on `err`: 2 usage, a bad
// model script (`file:line: reason`), no real CLI, OUT or the model log exists; 3 the stub did not
// start, isolation was required and impossible, or CMD failed / never ran claude. Never throws.
// The stub is stopped and the temporary HOME removed on every path.
// What it costs: one forked helper process (it owns the namespace), model-stub, claude-tee and
// whatever CMD starts; no threads.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace claude::harness {

enum class NetnsMode { automatic, required, off };

// "auto", "required" or "off" (--netns); nullopt for anything else.
[[nodiscard]] std::optional<NetnsMode> parse_netns(std::string_view text);

struct OfflineRecordOptions {
  std::filesystem::path model_script;
  std::filesystem::path output;  // the recording; never overwritten
  // The stub's request log. Empty: output + ".model-log.ndjson". Never overwritten.
  std::filesystem::path model_log;
  // Empty: CLAUDE_TEE_REAL_CLI, else the first `claude` on PATH that is not claude-tee.
  std::filesystem::path real_cli;
  NetnsMode netns = NetnsMode::automatic;
  std::vector<std::string> command;
  // When set, CMD's stdout goes to this file (created or truncated) instead of ours.
  std::optional<std::filesystem::path> command_stdout;
  // Run CMD in a fresh empty directory (removed afterwards) instead of the current one, so the
  // CLI sees no project files, CLAUDE.md or git repository of the caller.
  bool fresh_cwd = false;
};

struct OfflineRecordResult {
  int exit_code = 0;      // what `harness record --offline` exits with
  bool isolated = false;  // ran in a fresh loopback-only network namespace
  bool command_started = false;
  bool command_signaled = false;
  int command_value = 0;  // CMD's exit status, or its signal number
};

[[nodiscard]] OfflineRecordResult record_offline(const OfflineRecordOptions& options,
                                                 std::ostream& out, std::ostream& err);

// `harness record --offline …`; `args` are those after "record" (they include "--offline").
int record_offline_command(const std::vector<std::string>& args, std::ostream& out,
                           std::ostream& err);

// True when `args` (after "record", before "--") contain --offline.
[[nodiscard]] bool wants_offline_record(const std::vector<std::string>& args);

}  // namespace claude::harness
