// Reads a claude-tee recording back for the tests: checks that every complete line is JSON,
// and rebuilds each stream's bytes from its events (pieces joined, base64 decoded, '\n' restored
// except after a partial line).
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace claude::recorder::testing {

struct ReadRecording {
  nlohmann::json header;
  std::vector<nlohmann::json> events;          // every event after the header, in file order
  std::map<std::string, std::string> streams;  // "in"/"out"/"err" → bytes
  std::string raw;                             // the file as written
  bool truncated_tail = false;                 // the last line lacks its '\n' (killed writer)
};

// Throws std::runtime_error naming the line when a complete line is not a JSON object.
[[nodiscard]] ReadRecording read_recording(const std::filesystem::path& path);

// The only file in `dir` (tests point CLAUDE_TEE_OUT at a fresh directory).
[[nodiscard]] std::filesystem::path single_file_in(const std::filesystem::path& dir);

// A fresh directory under /tmp, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace claude::recorder::testing
