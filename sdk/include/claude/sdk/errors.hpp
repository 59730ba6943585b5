// The errors the SDK engine throws, as types a host can catch one by one.
//
//   try {
//     client.connect();
//   } catch (const claude::sdk::CLINotFoundError& e) {
//     for (const auto& place : e.searched()) std::cerr << "  looked at " << place << "\n";
//   } catch (const claude::sdk::ProcessError& e) {
//     std::cerr << e.what() << "\n" << e.stderr_tail();
//   }
//
// What it is: a small hierarchy under `SdkError` (a std::runtime_error). Each message says where
// it happened: the step (connect, initialize, a control subtype), the request_id when there is
// one, and the exit code and stderr tail (`with_stderr_tail`) when the process is involved.
//
//   CLINotFoundError   no executable found; `searched()` lists every place that was looked at
//   ConnectionError    the CLI could not be started or written to (bad cwd, exec failure, EPIPE),
//                      or its stream ended before it answered
//   ProcessError       the CLI ended badly: non-zero exit or a signal
//   ResultError        a ProcessError whose last `result` was an error; carries that result
//   ControlError       the peer answered a control request with an error (`error_code` kept)
//   TimeoutError       a configured timeout fired (initialize, a control request, inactivity)
//   CancelledError     the host withdrew its own control request before the answer came
//   MessageParseError  a stdout line that cannot be a protocol frame; wraps the parser's
//                      `ParseError` value (bad JSON, oversized)
//
// How it fails: constructing an error never throws except std::bad_alloc.
// What it costs: one formatted string per error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "claude/sdk/message.hpp"

namespace claude::sdk {

// Why a line is not a protocol frame (the message parser never throws; it returns this).
struct ParseError {
  enum class Kind : std::uint8_t { not_json, not_object, missing_field, wrong_type, too_deep };
  Kind kind = Kind::not_json;
  std::string field;    // JSON Pointer of the member at fault ("" for the whole line)
  std::string message;  // human-readable reason

  friend bool operator==(const ParseError&, const ParseError&) = default;
};

std::string_view to_string(ParseError::Kind kind) noexcept;

class SdkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class CLINotFoundError : public SdkError {
 public:
  explicit CLINotFoundError(std::vector<std::string> searched);
  // Every candidate looked at, in order ("PATH entry /usr/bin/claude", "…").
  [[nodiscard]] const std::vector<std::string>& searched() const noexcept { return searched_; }

 private:
  std::vector<std::string> searched_;
};

inline constexpr std::size_t kStderrTailMessageLines = 20;
inline constexpr std::size_t kStderrTailMessageBytes = 4096;

// `what`, then — when `stderr_tail` is not empty — "\nstderr tail:\n" and the last
// kStderrTailMessageLines lines / kStderrTailMessageBytes bytes of it.
[[nodiscard]] std::string with_stderr_tail(const std::string& what, std::string_view stderr_tail);

class ConnectionError : public SdkError {
 public:
  explicit ConnectionError(const std::string& what) : SdkError(what) {}
  ConnectionError(const std::string& what, std::string stderr_tail);
  // What the CLI wrote to stderr before the connection failed (empty when it never ran).
  [[nodiscard]] const std::string& stderr_tail() const noexcept { return stderr_tail_; }

 private:
  std::string stderr_tail_;
};

// How the CLI process ended.
struct ExitStatus {
  std::optional<int> exit_code;    // set when it exited normally
  std::optional<int> term_signal;  // set when a signal ended it
  bool ended_by_host = false;      // our own close() asked it to stop (or killed it)

  [[nodiscard]] bool known() const noexcept { return exit_code || term_signal; }
  // "exit code 1", "signal 9 (SIGKILL)", "still running"
  [[nodiscard]] std::string describe() const;
};

class ProcessError : public SdkError {
 public:
  ProcessError(const std::string& what, ExitStatus status, std::string stderr_tail);
  [[nodiscard]] const ExitStatus& status() const noexcept { return status_; }
  // -1 when the process was ended by a signal or its status is unknown.
  [[nodiscard]] int exit_code() const noexcept { return status_.exit_code.value_or(-1); }
  [[nodiscard]] const std::string& stderr_tail() const noexcept { return stderr_tail_; }

 private:
  ExitStatus status_;
  std::string stderr_tail_;
};

class ResultError : public ProcessError {
 public:
  ResultError(ResultMessage result, ExitStatus status, std::string stderr_tail);
  [[nodiscard]] const ResultMessage& result() const noexcept { return result_; }

 private:
  ResultMessage result_;
};

class ControlError : public SdkError {
 public:
  ControlError(std::string subtype, std::string request_id, std::string error,
               std::optional<std::string> error_code);
  [[nodiscard]] const std::string& subtype() const noexcept { return subtype_; }
  [[nodiscard]] const std::string& request_id() const noexcept { return request_id_; }
  [[nodiscard]] const std::string& error() const noexcept { return error_; }
  [[nodiscard]] const std::optional<std::string>& error_code() const noexcept {
    return error_code_;
  }

 private:
  std::string subtype_;
  std::string request_id_;
  std::string error_;
  std::optional<std::string> error_code_;
};

class TimeoutError : public SdkError {
 public:
  using SdkError::SdkError;
};

class CancelledError : public SdkError {
 public:
  using SdkError::SdkError;
};

class MessageParseError : public SdkError {
 public:
  // `line_number` counts the CLI's stdout lines from 1.
  MessageParseError(ParseError detail, std::size_t line_number, std::string line_excerpt);
  // For a line over the configured cap.
  MessageParseError(std::size_t line_number, std::size_t line_bytes, std::size_t cap);
  [[nodiscard]] const ParseError& detail() const noexcept { return detail_; }
  [[nodiscard]] std::size_t line_number() const noexcept { return line_number_; }

 private:
  ParseError detail_;
  std::size_t line_number_ = 0;
};

}  // namespace claude::sdk
