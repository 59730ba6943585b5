// RequestLog: one NDJSON line per request model-stub served, for tests and drift reports.
//
// What it is: each line is
//   {"seq":N,"t":seconds since the log opened,"method":…,"target":…,"headers":{name:value},
//    "body":<the request JSON, or its text when it is not JSON>,"status":…,"rule_line":N|null,
//    "outcome":…}
// Header names are lower-cased and the values of secret headers (x-api-key, cookies …) become
// "[redacted]"; each line then passes through the recorder's redaction rules (redactor.hpp), so a
// log holds no key those rules know. Lines are written as they come: a killed stub leaves a valid
// file. The file follows claude/base/private_file.hpp (0600, no symlink, refused unless
// `replace`: model-stub --force).
//
// How it fails: the constructor throws std::runtime_error (naming the path and the reason) when
// the file cannot be created; `record` throws std::runtime_error when a write fails.
// What it costs: one serialisation of the request body per request (tens of KiB from the CLI).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>

#include "claude/model_stub/api_exchange.hpp"

namespace claude::model_stub {

// The log line for one exchange (without "t"); separate from the file so it is testable.
Json request_log_entry(std::size_t seq, const ApiRequest& request, const ApiResponse& response);

class RequestLog {
 public:
  explicit RequestLog(const std::filesystem::path& path, bool replace = false);
  ~RequestLog();
  RequestLog(const RequestLog&) = delete;
  RequestLog& operator=(const RequestLog&) = delete;
  void record(const ApiRequest& request, const ApiResponse& response);

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  std::size_t seq_ = 0;
  std::chrono::steady_clock::time_point opened_;
};

}  // namespace claude::model_stub
