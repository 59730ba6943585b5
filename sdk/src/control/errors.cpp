#include "claude/sdk/errors.hpp"

#include <csignal>
#include <cstring>

namespace claude::sdk {
namespace {

std::string join_searched(const std::vector<std::string>& searched) {
  std::string text = "Claude Code CLI not found. Looked at:";
  for (const auto& place : searched) text += "\n  - " + place;
  text += "\nInstall it (npm install -g @anthropic-ai/claude-code) or set Options::cli_path.";
  return text;
}

std::string excerpt(std::string line) {
  constexpr std::size_t kMax = 200;
  if (line.size() > kMax) {
    line.resize(kMax);
    line += "…";
  }
  return line;
}

std::string result_text(const ResultMessage& r) {
  std::string text = "CLI returned an error result (subtype " + r.subtype + ")";
  if (r.result) text += ": " + *r.result;
  for (const auto& e : r.errors) text += "\n  " + e;
  return text;
}

}  // namespace

std::string ExitStatus::describe() const {
  if (exit_code) return "exit code " + std::to_string(*exit_code);
  if (term_signal) {
    const char* name = sigabbrev_np(*term_signal);
    return "signal " + std::to_string(*term_signal) +
           (name ? std::string(" (SIG") + name + ")" : std::string());
  }
  return "still running";
}

std::string with_stderr_tail(const std::string& what, std::string_view stderr_tail) {
  while (!stderr_tail.empty() && stderr_tail.back() == '\n') stderr_tail.remove_suffix(1);
  if (stderr_tail.empty()) return what;
  std::size_t begin = stderr_tail.size() > kStderrTailMessageBytes
                          ? stderr_tail.size() - kStderrTailMessageBytes
                          : 0;
  std::size_t lines = 0;
  for (std::size_t at = stderr_tail.size(); at > begin; --at) {
    if (stderr_tail[at - 1] == '\n' && ++lines == kStderrTailMessageLines) {
      begin = at;
      break;
    }
  }
  return what + "\nstderr tail:\n" + std::string(stderr_tail.substr(begin));
}

CLINotFoundError::CLINotFoundError(std::vector<std::string> searched)
    : SdkError(join_searched(searched)), searched_(std::move(searched)) {}

ConnectionError::ConnectionError(const std::string& what, std::string stderr_tail)
    : SdkError(with_stderr_tail(what, stderr_tail)), stderr_tail_(std::move(stderr_tail)) {}

ProcessError::ProcessError(const std::string& what, ExitStatus status, std::string stderr_tail)
    : SdkError(with_stderr_tail(what + " (" + status.describe() + ")", stderr_tail)),
      status_(status),
      stderr_tail_(std::move(stderr_tail)) {}

ResultError::ResultError(ResultMessage result, ExitStatus status, std::string stderr_tail)
    : ProcessError(result_text(result), status, std::move(stderr_tail)),
      result_(std::move(result)) {}

ControlError::ControlError(std::string subtype, std::string request_id, std::string error,
                           std::optional<std::string> error_code)
    : SdkError("control request " + subtype + " (request_id " + request_id + ") failed: " + error +
               (error_code ? " [" + *error_code + "]" : std::string())),
      subtype_(std::move(subtype)),
      request_id_(std::move(request_id)),
      error_(std::move(error)),
      error_code_(std::move(error_code)) {}

MessageParseError::MessageParseError(ParseError detail, std::size_t line_number,
                                     std::string line_excerpt)
    : SdkError("CLI stdout line " + std::to_string(line_number) + ": " +
               std::string(to_string(detail.kind)) +
               (detail.field.empty() ? std::string() : " at " + detail.field) + ": " +
               detail.message + "\n  line: " + excerpt(std::move(line_excerpt))),
      detail_(std::move(detail)),
      line_number_(line_number) {}

MessageParseError::MessageParseError(std::size_t line_number, std::size_t line_bytes,
                                     std::size_t cap)
    : SdkError("CLI stdout line " + std::to_string(line_number) + ": " +
               std::to_string(line_bytes) + " bytes exceed the line cap of " + std::to_string(cap) +
               " bytes (Options::max_line_bytes)"),
      detail_{ParseError::Kind::not_json, "", "line exceeds the configured cap"},
      line_number_(line_number) {}

}  // namespace claude::sdk
