#include "claude/model_stub/scripted_model.hpp"

#include <algorithm>

#include "claude/base/json.hpp"
#include "claude/emulator/pattern.hpp"
#include "claude/model_stub/reply_encoding.hpp"

namespace claude::model_stub {
namespace {

using emulator::Bindings;

constexpr std::size_t kQuotedTextLimit = 200;

// What the rules look at, taken from the last user message of a request.
struct RequestSubjects {
  std::vector<Json> texts;         // each text block's string
  std::vector<Json> tool_results;  // {"tool_use_id","is_error","content": joined text}
};

std::string joined_text(const Json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string text;
  if (!content.is_array()) return text;
  for (const auto& block : content) {
    if (block.is_object() && block.value("type", "") == "text" && block.contains("text") &&
        block["text"].is_string()) {
      if (!text.empty()) text += "\n";
      text += block["text"].get<std::string>();
    }
  }
  return text;
}

RequestSubjects subjects_of(const Json& messages) {
  RequestSubjects subjects;
  auto last_user = std::find_if(messages.rbegin(), messages.rend(), [](const Json& m) {
    return m.is_object() && m.value("role", "") == "user";
  });
  if (last_user == messages.rend() || !last_user->contains("content")) return subjects;
  const Json& content = (*last_user)["content"];
  if (content.is_string()) {
    subjects.texts.push_back(content);
    return subjects;
  }
  if (!content.is_array()) return subjects;
  for (const auto& block : content) {
    if (!block.is_object()) continue;
    const std::string type = block.value("type", "");
    if (type == "text" && block.contains("text")) {
      subjects.texts.push_back(block["text"]);
    } else if (type == "tool_result") {
      subjects.tool_results.push_back(
          Json{{"tool_use_id", block.value("tool_use_id", "")},
               {"is_error", block.value("is_error", false)},
               {"content", joined_text(block.value("content", Json()))}});
    }
  }
  return subjects;
}

bool any_matches(const Json& pattern, const std::vector<Json>& values, Bindings& bindings) {
  return std::any_of(values.begin(), values.end(),
                     [&](const Json& v) { return emulator::match(pattern, v, bindings).matched; });
}

bool rule_matches(const Rule& rule, const Json& body, const RequestSubjects& subjects,
                  Bindings& bindings) {
  Bindings candidate;
  if (rule.request && !emulator::match(*rule.request, body, candidate).matched) return false;
  if (rule.user_text && !any_matches(*rule.user_text, subjects.texts, candidate)) return false;
  if (rule.tool_result && !any_matches(*rule.tool_result, subjects.tool_results, candidate))
    return false;
  bindings = std::move(candidate);
  return true;
}

std::string quoted(const std::string& text) {
  if (text.size() <= kQuotedTextLimit) return base::dump_json(Json(text));
  // Cut at a code point boundary so the quote stays valid UTF-8.
  std::size_t cut = kQuotedTextLimit;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return base::dump_json(Json(text.substr(0, cut))) + "…";
}

std::string describe(const RequestSubjects& subjects) {
  std::string about;
  if (!subjects.texts.empty() && subjects.texts.back().is_string()) {
    about += "last user text " + quoted(subjects.texts.back().get<std::string>());
  }
  if (!subjects.tool_results.empty()) {
    if (!about.empty()) about += ", ";
    about += "tool_result " + quoted(subjects.tool_results.back()["content"].get<std::string>());
  }
  return about.empty() ? "no text or tool_result in the last user message" : about;
}

ApiResponse error_response(int status, const std::string& type, const std::string& message,
                           std::string outcome) {
  ApiResponse response;
  response.status = status;
  response.body = base::dump_json(api_error_body(type, message));
  response.outcome = std::move(outcome);
  return response;
}

Json default_usage() {
  return Json{{"input_tokens", 10},
              {"cache_creation_input_tokens", 0},
              {"cache_read_input_tokens", 0},
              {"output_tokens", 10}};
}

}  // namespace

ScriptedModel::ScriptedModel(ModelScript script)
    : script_(std::move(script)), uses_(script_.rules.size(), 0) {}

ApiResponse ScriptedModel::answer(const ApiRequest& request) {
  ++requests_seen_;
  ApiResponse response;
  const std::string path = request.target.substr(0, request.target.find('?'));
  if (path != "/v1/messages") {
    response = error_response(
        404, "not_found_error",
        "model-stub serves only POST /v1/messages; no endpoint " + request.method + " " + path,
        "unknown endpoint");
  } else if (request.method != "POST") {
    response =
        error_response(405, "invalid_request_error",
                       "method " + request.method + " not allowed on /v1/messages (use POST)",
                       "method not allowed");
    response.headers.emplace_back("allow", "POST");
  } else {
    response = answer_messages(request);
  }
  response.headers.emplace_back("request-id", "req_stub_" + std::to_string(requests_seen_));
  return response;
}

ApiResponse ScriptedModel::answer_unreadable(const std::string& reason) {
  return numbered_error(400, "invalid_request_error", reason, "unreadable request");
}

ApiResponse ScriptedModel::answer_overloaded(const std::string& reason) {
  return numbered_error(529, "overloaded_error", reason, "overloaded");
}

ApiResponse ScriptedModel::numbered_error(int status, const std::string& type,
                                          const std::string& reason, std::string outcome) {
  ++requests_seen_;
  ApiResponse response =
      error_response(status, type, "request #" + std::to_string(requests_seen_) + ": " + reason,
                     std::move(outcome));
  response.headers.emplace_back("request-id", "req_stub_" + std::to_string(requests_seen_));
  return response;
}

ApiResponse ScriptedModel::answer_messages(const ApiRequest& request) {
  const std::string number = "request #" + std::to_string(requests_seen_);
  const Json body = claude::base::parse_json_or_discarded(request.body);
  const char* malformed =
      body.is_discarded()                                     ? "the body is not valid JSON"
      : !body.is_object()                                     ? "the body must be a JSON object"
      : !body.contains("model") || !body["model"].is_string() ? "model: Field required (a string)"
      : !body.contains("messages") || !body["messages"].is_array() || body["messages"].empty()
          ? "messages: a non-empty array is required"
          : nullptr;
  if (malformed != nullptr) {
    return error_response(400, "invalid_request_error", number + ": " + malformed,
                          "malformed body");
  }

  const RequestSubjects subjects = subjects_of(body["messages"]);
  Bindings bindings;
  std::size_t chosen = script_.rules.size();
  for (std::size_t i = 0; i < script_.rules.size(); ++i) {
    const Rule& rule = script_.rules[i];
    if (rule.times && uses_[i] >= *rule.times) continue;
    if (rule_matches(rule, body, subjects, bindings)) {
      chosen = i;
      break;
    }
  }
  if (chosen == script_.rules.size()) {
    return error_response(400, "invalid_request_error",
                          "model-stub: no rule of " + script_.path + " matches " + number + " (" +
                              describe(subjects) + ")",
                          "no rule matched");
  }
  ++uses_[chosen];
  const Rule& rule = script_.rules[chosen];
  const std::string at_line = "rule at line " + std::to_string(rule.line);

  if (rule.error) {
    ApiResponse response = error_response(rule.error->status, rule.error->type, rule.error->message,
                                          "scripted error " + std::to_string(rule.error->status));
    if (rule.error->retry_after_seconds) {
      response.headers.emplace_back("retry-after",
                                    std::to_string(*rule.error->retry_after_seconds));
    }
    if (rule.error->status == 529 || rule.error->status == 429 || rule.error->status >= 500) {
      response.headers.emplace_back("x-should-retry", "true");
    }
    response.rule_line = rule.line;
    return response;
  }

  const Reply& reply = *rule.reply;
  ResolvedReply resolved;
  resolved.message_id = "msg_stub_" + std::to_string(++messages_sent_);
  resolved.model = reply.model.value_or(body["model"].get<std::string>());
  bool has_tool_use = false;
  for (const auto& block : reply.content) {
    Json concrete = emulator::substitute(block, bindings);
    if (concrete["type"] == "tool_use") {
      has_tool_use = true;
      if (!concrete.contains("id"))
        concrete["id"] = "toolu_stub_" + std::to_string(++tool_ids_issued_);
    }
    resolved.content.push_back(std::move(concrete));
  }
  resolved.stop_reason = !reply.stop_reason.empty() ? reply.stop_reason
                         : has_tool_use             ? "tool_use"
                                                    : "end_turn";
  resolved.usage = default_usage();
  resolved.usage.update(reply.usage);
  resolved.chunk_chars = reply.chunk_chars;

  ApiResponse response;
  response.rule_line = rule.line;
  const bool streaming = body.contains("stream") && body["stream"] == true;
  if (!streaming) {
    response.body = base::dump_json(reply_message(resolved));
    if (rule.faults.drop_after) response.drop_after = 0;
    response.outcome = response.drop_after ? "dropped before the reply (" + at_line + ")"
                                           : "message (" + at_line + ")";
    return response;
  }
  response.streaming = true;
  response.events = reply_events(resolved);
  response.event_delay = rule.faults.event_delay;
  response.outcome = "stream (" + at_line + ")";
  if (rule.faults.drop_after) {
    response.drop_after = rule.faults.drop_after;
    response.outcome = "stream dropped after " + std::to_string(*rule.faults.drop_after) +
                       " events (" + at_line + ")";
  }
  if (rule.faults.error_after) {
    const std::size_t keep = std::min(*rule.faults.error_after, response.events.size());
    response.events.resize(keep);
    response.events.push_back(
        {"error", api_error_body(rule.faults.error_type, rule.faults.error_message)});
    response.outcome =
        "stream error event after " + std::to_string(keep) + " events (" + at_line + ")";
  }
  return response;
}

}  // namespace claude::model_stub
