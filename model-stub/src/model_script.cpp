#include "claude/model_stub/model_script.hpp"

#include <algorithm>
#include <claude/base/line_buffer.hpp>
#include <initializer_list>
#include <map>

#include "claude/base/excerpt.hpp"
#include "claude/base/input_file.hpp"
#include "claude/base/json.hpp"
#include "claude/emulator/pattern.hpp"

namespace claude::model_stub {
namespace {

// Reports a problem on the line being parsed.
struct LineContext {
  const std::string& path;
  std::size_t line;
  [[noreturn]] void fail(const std::string& reason) const {
    throw ModelScriptError(path, line, reason);
  }
};

// `object` must be a JSON object with no keys besides `keys`.
void allow_only(const LineContext& at, const Json& object, std::string_view where,
                std::initializer_list<std::string_view> keys) {
  if (!object.is_object()) at.fail(std::string(where) + " must be an object");
  for (const auto& item : object.items()) {
    if (std::ranges::find(keys, item.key()) == keys.end())
      at.fail("unknown key \"" + item.key() + "\" in " + std::string(where));
  }
}

using base::member;

std::optional<std::string> string_member(const LineContext& at, const Json& object,
                                         std::string_view where, std::string_view key,
                                         bool required) {
  const Json* v = member(object, key);
  if (v == nullptr) {
    if (required) at.fail(std::string(where) + " needs \"" + std::string(key) + "\"");
    return std::nullopt;
  }
  if (!v->is_string()) at.fail(std::string(where) + "." + std::string(key) + " must be a string");
  return v->get<std::string>();
}

std::optional<std::size_t> count_member(const LineContext& at, const Json& object,
                                        std::string_view where, std::string_view key) {
  const Json* v = member(object, key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_number_unsigned()) {
    at.fail(std::string(where) + "." + std::string(key) + " must be a non-negative integer");
  }
  return v->get<std::size_t>();
}

Json checked_pattern(const LineContext& at, const Json& pattern, std::string_view where) {
  if (auto problem = emulator::check_pattern(pattern)) {
    at.fail("bad pattern in " + std::string(where) + " at " +
            (problem->pointer.empty() ? std::string("/") : problem->pointer) + ": " +
            problem->reason);
  }
  return pattern;
}

Json parse_block(const LineContext& at, const Json& block, std::size_t index) {
  const std::string where = "reply.content[" + std::to_string(index) + "]";
  if (!block.is_object()) at.fail(where + " must be an object");
  const std::string type = *string_member(at, block, where, "type", true);
  if (type == "text") {
    allow_only(at, block, where, {"type", "text"});
    string_member(at, block, where, "text", true);
  } else if (type == "thinking") {
    allow_only(at, block, where, {"type", "thinking", "signature"});
    string_member(at, block, where, "thinking", true);
    string_member(at, block, where, "signature", false);
  } else if (type == "tool_use") {
    allow_only(at, block, where, {"type", "id", "name", "input"});
    string_member(at, block, where, "id", false);
    string_member(at, block, where, "name", true);
    const Json* input = member(block, "input");
    if (input != nullptr && !input->is_object()) at.fail(where + ".input must be an object");
  } else {
    at.fail(where + ".type must be \"text\", \"thinking\" or \"tool_use\", got \"" + type + "\"");
  }
  return block;
}

Reply parse_reply(const LineContext& at, const Json& value) {
  allow_only(at, value, "reply", {"content", "stop_reason", "usage", "model", "chunk_chars"});
  Reply reply;
  const Json* content = member(value, "content");
  if (content == nullptr || !content->is_array() || content->empty()) {
    at.fail("reply.content must be a non-empty array of content blocks");
  }
  for (std::size_t i = 0; i < content->size(); ++i) {
    reply.content.push_back(parse_block(at, (*content)[i], i));
  }
  reply.stop_reason = string_member(at, value, "reply", "stop_reason", false).value_or("");
  if (const Json* usage = member(value, "usage")) {
    if (!usage->is_object()) at.fail("reply.usage must be an object");
    for (auto it = usage->begin(); it != usage->end(); ++it) {
      if (!it.value().is_number_unsigned()) {
        at.fail("reply.usage." + it.key() + " must be a non-negative integer");
      }
    }
    reply.usage = *usage;
  }
  reply.model = string_member(at, value, "reply", "model", false);
  reply.chunk_chars = count_member(at, value, "reply", "chunk_chars").value_or(0);
  return reply;
}

HttpError parse_error(const LineContext& at, const Json& value) {
  allow_only(at, value, "error", {"status", "type", "message", "retry_after"});
  HttpError error;
  const Json* status = member(value, "status");
  if (status == nullptr || !status->is_number_unsigned() || status->get<int>() < 400 ||
      status->get<int>() > 599) {
    at.fail("error.status must be an HTTP error status (400-599)");
  }
  error.status = status->get<int>();
  error.type = string_member(at, value, "error", "type", false).value_or("");
  if (error.type.empty()) error.type = error_type_for_status(error.status);
  error.message = string_member(at, value, "error", "message", false).value_or("");
  if (error.message.empty())
    error.message = "model-stub scripted error " + std::to_string(error.status);
  if (auto retry = count_member(at, value, "error", "retry_after")) {
    error.retry_after_seconds = static_cast<int>(*retry);
  }
  return error;
}

StreamFaults parse_faults(const LineContext& at, const Json& value) {
  allow_only(at, value, "stream",
             {"delay_ms", "drop_after", "error_after", "error_type", "error_message"});
  StreamFaults faults;
  faults.event_delay =
      std::chrono::milliseconds(count_member(at, value, "stream", "delay_ms").value_or(0));
  faults.drop_after = count_member(at, value, "stream", "drop_after");
  faults.error_after = count_member(at, value, "stream", "error_after");
  if (faults.drop_after && faults.error_after) {
    at.fail("stream.drop_after and stream.error_after exclude each other");
  }
  faults.error_type =
      string_member(at, value, "stream", "error_type", false).value_or(faults.error_type);
  faults.error_message =
      string_member(at, value, "stream", "error_message", false).value_or(faults.error_message);
  return faults;
}

Rule parse_rule(const LineContext& at, const Json& value) {
  if (!value.is_object()) at.fail("a rule must be a JSON object");
  allow_only(at, value, "rule", {"when", "times", "reply", "error", "stream"});
  Rule rule;
  rule.line = at.line;
  if (const Json* when = member(value, "when")) {
    allow_only(at, *when, "when", {"user_text", "tool_result", "request"});
    if (const Json* p = member(*when, "user_text"))
      rule.user_text = checked_pattern(at, *p, "when.user_text");
    if (const Json* p = member(*when, "tool_result"))
      rule.tool_result = checked_pattern(at, *p, "when.tool_result");
    if (const Json* p = member(*when, "request"))
      rule.request = checked_pattern(at, *p, "when.request");
  }
  rule.times = count_member(at, value, "rule", "times");
  if (rule.times && *rule.times == 0) at.fail("times must be at least 1");
  const Json* reply = member(value, "reply");
  const Json* error = member(value, "error");
  if ((reply == nullptr) == (error == nullptr))
    at.fail("a rule needs exactly one of \"reply\" and \"error\"");
  if (reply != nullptr) rule.reply = parse_reply(at, *reply);
  if (error != nullptr) rule.error = parse_error(at, *error);
  if (const Json* stream = member(value, "stream")) {
    if (error != nullptr) at.fail("stream faults apply to a reply, not to an error");
    rule.faults = parse_faults(at, *stream);
  }
  return rule;
}

void parse_header(const LineContext& at, const Json& value, ModelScript& script) {
  if (!value.is_object() || member(value, "model_script") == nullptr) {
    at.fail("the first line must be the header {\"model_script\":1,…}");
  }
  allow_only(at, value, "header", {"model_script", "name", "description"});
  if (value["model_script"] != 1)
    at.fail("unsupported model_script version " + value["model_script"].dump() + " (expected 1)");
  script.name = string_member(at, value, "header", "name", false).value_or("");
  script.description = string_member(at, value, "header", "description", false).value_or("");
}

bool ignored(std::string_view line) {
  auto first = line.find_first_not_of(" \t\r");
  return first == std::string_view::npos || line[first] == '#';
}

}  // namespace

ModelScriptError::ModelScriptError(std::string path, std::size_t line, const std::string& reason)
    : std::runtime_error(path + ":" + std::to_string(line) + ": " + reason),
      path_(std::move(path)),
      line_(line) {}

std::string error_type_for_status(int status) {
  static const std::map<int, std::string> kTypes = {
      {400, "invalid_request_error"}, {401, "authentication_error"}, {403, "permission_error"},
      {404, "not_found_error"},       {413, "request_too_large"},    {429, "rate_limit_error"},
      {529, "overloaded_error"}};
  if (auto it = kTypes.find(status); it != kTypes.end()) return it->second;
  return status >= 500 ? "api_error" : "invalid_request_error";
}

ModelScript parse_model_script(std::string_view text, const std::string& path) {
  ModelScript script;
  script.path = path;
  bool header_seen = false;
  std::size_t line_number = 0;
  base::LineBuffer lines(base::LineBufferOptions{
      .max_line_bytes = 16u << 20, .strip_cr = true, .strip_bom = true, .skip_blank = false});
  auto on_line = [&](const base::LineEvent& event) {
    ++line_number;
    const LineContext at{path, line_number};
    if (event.kind == base::LineEvent::Kind::oversized) {
      at.fail("line of " + std::to_string(event.size) + " bytes is over the 16 MiB limit");
    }
    if (ignored(event.text)) return;
    Json value;
    try {
      value = claude::base::parse_json(event.text);
    } catch (const Json::exception& e) {
      at.fail("not valid JSON: " + base::excerpt(e.what()));
    }
    if (!header_seen) {
      parse_header(at, value, script);
      header_seen = true;
    } else {
      script.rules.push_back(parse_rule(at, value));
    }
  };
  lines.feed(text, on_line);
  lines.finish(on_line);
  if (!header_seen)
    throw ModelScriptError(path, line_number, "no header line {\"model_script\":1,…}");
  if (script.rules.empty()) throw ModelScriptError(path, line_number, "no rules after the header");
  return script;
}

ModelScript load_model_script(const std::filesystem::path& path) {
  std::string error;
  auto text = base::read_input_file(path, error, {base::kMaxConfigFileBytes});
  if (!text) throw ModelScriptError(path.string(), 0, error);
  return parse_model_script(*text, path.string());
}

}  // namespace claude::model_stub
