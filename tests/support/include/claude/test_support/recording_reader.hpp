// Reads a claude-tee recording back for assertions: checks that every complete line is JSON, and
// rebuilds each stream's bytes from its events (pieces joined, base64 decoded, '\n' restored
// except after a partial line).
//
// How it fails: throws std::runtime_error naming the file and line when a complete line is not a
// JSON object or its base64 does not decode, or when the file cannot be opened.
// What it costs: the file is read whole and every line parsed.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace claude::test_support {

struct ReadRecording {
  nlohmann::json header;
  std::vector<nlohmann::json> events;          // every event after the header, in file order
  std::map<std::string, std::string> streams;  // "in"/"out"/"err" → bytes
  std::string raw;                             // the file as written
  bool truncated_tail = false;                 // the last line lacks its '\n' (killed writer)
};

[[nodiscard]] ReadRecording read_recording(const std::filesystem::path& path);

// The only file in `dir` (tests point CLAUDE_TEE_OUT at a fresh directory).
[[nodiscard]] std::filesystem::path single_file_in(const std::filesystem::path& dir);

}  // namespace claude::test_support
