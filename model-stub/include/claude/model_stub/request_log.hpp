// RequestLog: one NDJSON line per request model-stub served, for tests and for drift reports.
//
// What it is: each line is
//   {"seq":N,"t":seconds since the log opened,"method":…,"target":…,"headers":{name:value},
//    "body":<the request JSON, or its text when it is not JSON>,"status":…,"rule_line":N|null,
//    "outcome":…}
// Header names are lower-cased; the values of x-api-key, authorization, proxy-authorization,
// cookie and set-cookie are replaced by "[redacted]" before anything is written, and each line
// then passes through the recorder's redaction rules (claude/recorder/redactor.hpp: keys, bearer
// and basic credentials, token fields, also inside escaped JSON strings of prompts and tool
// results), so a log holds no key the rules know. Each line is flushed as it is written, so a
// killed stub leaves a valid file.
//
// The file is created 0600 and never through a symlink; an existing path is refused unless
// `replace` (model-stub --force), the one rule of claude/base/private_file.hpp.
//
// How it fails: the constructor throws std::runtime_error (naming the path and the reason) when
// the file cannot be created; `record` throws std::runtime_error when a write fails.
// What it costs: one serialisation of the request body per request (bodies of the real CLI are
// tens of KiB: a system prompt and the tool list).
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>

#include "claude/model_stub/api_exchange.hpp"

namespace claude::model_stub {

// The log line for one exchange (without "t"); separate from the file so it is testable.
Json request_log_entry(std::size_t seq, const ApiRequest& request, const ApiResponse& response);

// True for header names whose values are secrets (case-insensitive).
bool is_secret_header(std::string_view name);

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
