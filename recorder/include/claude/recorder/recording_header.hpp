// The first line of a recording: what was run, where, with which CLI, and the environment names
// that shape the CLI's behaviour (those starting with CLAUDE or ANTHROPIC).
//
// Secrets: every value passes through the Redactor; values of secret-named variables
// (is_secret_env_name) become `<redacted:env:NAME>`, and add_secret_env_rules (redactor.hpp)
// removes those values from the stream lines too. Local paths: hide_local_paths (the default)
// keeps no absolute path of this machine (see LocalPaths).
//
// How it fails: it does not; bytes that are not UTF-8 in argv or cwd are replaced by U+FFFD in
// the header only (forwarding is unaffected).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "claude/recorder/redactor.hpp"

namespace claude::recorder {

struct RecordingHeader {
  std::vector<std::string> argv;  // the arguments after the program name, as forwarded
  std::vector<std::pair<std::string, std::string>> env;  // NAME, raw value
  std::string cwd;
  std::string cli;                         // path of the real CLI that was run
  std::optional<std::string> cli_version;  // from `<cli> --version`, when it answered
  std::string started_at;                  // UTC, ISO 8601 with milliseconds
};

[[nodiscard]] bool is_recorded_env_name(std::string_view name) noexcept;

// Splits "NAME=VALUE" entries and keeps the recorded names, sorted by name.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> recorded_env(
    const std::vector<std::string>& environment);

// The header as one JSON line ending in '\n', redacted.
[[nodiscard]] std::string encode_header_line(const RecordingHeader& header,
                                             const Redactor& redactor);

// The paths hide_local_paths replaces; an empty one is left alone.
struct LocalPaths {
  std::string recording;  // the recording file → its file name
  std::string real_cli;   // the CLI that was run → its file name
  std::string cwd;        // → "."
  std::string home;       // → "~"
};

// Replaces every occurrence of the local paths in the header's argv, env values, cwd and cli
// (longest path first, so the recording under the cwd becomes its name, not "./name").
void hide_local_paths(RecordingHeader& header, const LocalPaths& paths);

[[nodiscard]] std::string utc_timestamp_now();

}  // namespace claude::recorder
