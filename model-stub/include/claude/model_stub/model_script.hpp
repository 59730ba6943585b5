// ModelScript: what model-stub answers, loaded from a model script file (docs/model-stub.md).
//
// What it is: the parsed NDJSON file. Line 1 is a header (`{"model_script":1,"name":…}`); every
// other line that is not blank or a '#' comment is a rule: when it applies (`when`: patterns over
// the last user text, the last tool_result or the whole body), how often (`times`), and a `reply`
// (content blocks, stop_reason, usage, stream faults) or an HTTP `error`. Rules are tried in file
// order; the first that matches and is not used up answers.
//
// How it fails: `parse_model_script` and `load_model_script` throw ModelScriptError naming
// `file:line` and the first problem (invalid JSON, unknown key, wrong type, bad pattern or RE2,
// no header). Unknown keys are errors, so a typo never silently widens a rule.
//
// What it costs: one pass over the file; every pattern is checked (and its RE2 compiled) once.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace claude::model_stub {

using Json = nlohmann::ordered_json;

// A normal answer: the assistant message the model "generates".
struct Reply {
  // Content blocks in order, each one of
  //   {"type":"text","text":…}
  //   {"type":"thinking","thinking":…,"signature":…}   (signature optional)
  //   {"type":"tool_use","name":…,"input":{…},"id":…}    (id optional: generated when absent)
  // Strings may hold "${name}" for values captured by the rule's patterns.
  std::vector<Json> content;
  std::string stop_reason;      // empty: "tool_use" when a tool_use block exists, else "end_turn"
  Json usage = Json::object();  // overrides the default usage numbers key by key
  std::optional<std::string> model;  // default: the model named in the request
  std::size_t chunk_chars = 0;  // split text/thinking/tool input into deltas of this size; 0 = one
};

// An HTTP error instead of a reply (the request is answered with an Anthropic error body).
struct HttpError {
  int status = 500;
  std::string type;  // Anthropic error type; default derived from status
  std::string message;
  std::optional<int> retry_after_seconds;  // sent as the `retry-after` header
};

// Ways a streamed reply misbehaves on purpose. Counts are SSE events (message_start is event 1).
struct StreamFaults {
  std::chrono::milliseconds event_delay{0};  // pause before every event (a slow stream)
  std::optional<std::size_t> drop_after;     // close the connection after this many events
  std::optional<std::size_t> error_after;    // send an `error` event after this many, then end
  std::string error_type = "overloaded_error";
  std::string error_message = "Overloaded";
};

struct Rule {
  std::size_t line = 0;              // line in the script file, for logs and errors
  std::optional<Json> user_text;     // pattern over each text block of the last user message
  std::optional<Json> tool_result;   // pattern over each tool_result of the last user message
  std::optional<Json> request;       // pattern over the whole request body
  std::optional<std::size_t> times;  // answers at most this many requests; unlimited when absent
  std::optional<Reply> reply;        // exactly one of reply / error is set
  std::optional<HttpError> error;
  StreamFaults faults;
};

struct ModelScript {
  std::string path;  // as given, used in messages
  std::string name;
  std::string description;
  std::vector<Rule> rules;
};

class ModelScriptError : public std::runtime_error {
 public:
  ModelScriptError(std::string path, std::size_t line, const std::string& reason);
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] std::size_t line() const noexcept { return line_; }

 private:
  std::string path_;
  std::size_t line_;
};

// Parses script text; `path` only names the source in errors.
ModelScript parse_model_script(std::string_view text, const std::string& path);

// Reads and parses a file (an unreadable file is a ModelScriptError at line 0).
ModelScript load_model_script(const std::filesystem::path& path);

// The Anthropic error type for an HTTP status (429 → rate_limit_error, 529 → overloaded_error, …).
std::string error_type_for_status(int status);

}  // namespace claude::model_stub
