// The grading rules of docs/scenario.md ("What a recording grades"), one function per kind of
// SDK line. Each relaxation below names the rule it implements; everything else is graded exactly.
#include "sdk_line_grading.hpp"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <string_view>

#include "claude/base/json.hpp"

namespace claude::emulator::detail {
namespace {

// Hook events of CLI 2.1.332 (sdk.d.ts HOOK_EVENTS): an event the recording did not register
// must not be registered by the replaying SDK either.
constexpr std::array<std::string_view, 12> kHookEvents = {
    "PreToolUse",       "PostToolUse",  "PostToolUseFailure", "Notification",
    "UserPromptSubmit", "SessionStart", "SessionEnd",         "Stop",
    "SubagentStart",    "SubagentStop", "PreCompact",         "PermissionRequest"};

using base::member;

// Objects and arrays must be equal as a whole (no extra keys); scalars compare equal anyway.
Json exactly(const Json& value) {
  if (value.is_object() || value.is_array()) return Json::object({{"$exact", value}});
  return value;
}

// `pattern` with every member of `object` not named in `skip` added, graded exactly.
Json with_exact_members(Json pattern, const Json& object,
                        std::initializer_list<std::string_view> skip = {}) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (std::ranges::find(skip, it.key()) == skip.end()) pattern[it.key()] = exactly(*it);
  }
  return pattern;
}

Json absent() {
  return Json::object({{"$absent", true}});
}

// Rule "omitted equals its default": the key may be missing or carry one of `defaults`.
Json omitted_or(std::initializer_list<Json> defaults) {
  Json forms = Json::array({absent()});
  for (const Json& value : defaults) forms.push_back(exactly(value));
  return Json::object({{"$one_of", std::move(forms)}});
}

// A key graded with a default: the recorded value exactly, or "omitted or default" when the
// recording had the default (so both encodings pass, and a non-default value fails).
void grade_defaulted(Json& pattern, const Json& recorded, std::string_view key,
                     std::initializer_list<Json> defaults) {
  const Json* value = member(recorded, key);
  const bool is_default = value == nullptr || std::ranges::any_of(defaults, [&](const Json& d) {
                            return json_equal(*value, d);
                          });
  pattern[std::string(key)] = is_default ? omitted_or(defaults) : exactly(*value);
}

// Rule "a text turn": "text" and [{"type":"text","text":"text"}] are the same content.
Json graded_content(const Json& content) {
  const Json* text = nullptr;
  if (content.is_string()) {
    text = &content;
  } else if (content.is_array() && content.size() == 1 && content[0].is_object() &&
             content[0].size() == 2 && content[0].value("type", "") == "text" &&
             content[0].contains("text") && content[0]["text"].is_string()) {
    text = &content[0]["text"];
  }
  if (text == nullptr) return exactly(content);
  return Json::object(
      {{"$one_of",
        Json::array(
            {*text, exactly(Json::array({Json::object({{"type", "text"}, {"text", *text}})}))})}});
}

Json graded_user(const Json& message) {
  // Rule "per run": session_id (the SDK's "", "default" or the live id), uuid, timestamp;
  // parent_tool_use_id is graded with its default below.
  Json pattern =
      with_exact_members(Json::object({{"type", "user"}}), message,
                         {"type", "session_id", "uuid", "timestamp", "parent_tool_use_id"});
  if (const Json* body = member(message, "message"); body != nullptr && body->is_object()) {
    pattern["message"] = with_exact_members(Json::object(), *body);
    if (const Json* content = member(*body, "content")) {
      pattern["message"]["content"] = graded_content(*content);
    }
  }
  grade_defaulted(pattern, message, "parent_tool_use_id", {nullptr});
  return pattern;
}

// initialize: hook events and matchers graded, the SDK's callback ids captured (rule "per SDK").
Json graded_hooks(const Json& hooks, GradingContext& context) {
  Json pattern = Json::object();
  for (std::string_view event : kHookEvents) {
    if (!hooks.contains(event)) pattern[std::string(event)] = omitted_or({Json::array()});
  }
  for (auto it = hooks.begin(); it != hooks.end(); ++it) {
    if (!it->is_array()) {
      pattern[it.key()] = exactly(*it);
      continue;
    }
    Json matchers = Json::array();
    for (const Json& entry : *it) {
      if (!entry.is_object()) {
        matchers.push_back(exactly(entry));
        continue;
      }
      Json graded = with_exact_members(Json::object(), entry, {"matcher", "hookCallbackIds"});
      grade_defaulted(graded, entry, "matcher", {nullptr});
      if (const Json* ids = member(entry, "hookCallbackIds"); ids != nullptr && ids->is_array()) {
        Json captured = Json::array();
        for (const Json& id : *ids) {
          if (!id.is_string()) {
            captured.push_back(id);
            continue;
          }
          std::string name = "hook_callback_" + std::to_string(context.hook_callbacks.size() + 1);
          context.hook_callbacks.emplace(id.get<std::string>(), name);
          captured.push_back(Json::object({{"$capture", std::move(name)}}));
        }
        graded["hookCallbackIds"] = std::move(captured);
      }
      matchers.push_back(std::move(graded));
    }
    pattern[it.key()] = std::move(matchers);
  }
  return pattern;
}

Json graded_initialize(const Json& request, GradingContext& context) {
  // Rule "per SDK": the MCP library's own manifest (protocol version, capabilities, schema
  // dialect) is not graded; the server names are, through sdkMcpServers.
  Json pattern = with_exact_members(Json::object({{"subtype", "initialize"}}), request,
                                    {"subtype", "sdkMcpServerManifests"});
  if (const Json* hooks = member(request, "hooks");
      hooks != nullptr && hooks->is_object() && !hooks->empty()) {
    pattern["hooks"] = graded_hooks(*hooks, context);
  } else {
    grade_defaulted(pattern, request, "hooks", {nullptr, Json::object()});
  }
  grade_defaulted(pattern, request, "sdkMcpServers", {Json::array()});
  grade_defaulted(pattern, request, "agents", {nullptr, Json::object()});
  grade_defaulted(pattern, request, "appendSystemPrompt", {nullptr, ""});
  grade_defaulted(pattern, request, "jsonSchema", {nullptr});
  // Rule "the default system prompt": the TS SDK writes [""], others nothing.
  grade_defaulted(pattern, request, "systemPrompt", {"", Json::array({""})});
  return pattern;
}

Json graded_sdk_request(const Json& message, const std::string& request_capture,
                        GradingContext& context) {
  Json pattern = Json::object({{"type", "control_request"}});
  if (!request_capture.empty()) {
    pattern["request_id"] = Json::object({{"$capture", request_capture}});
  }
  const Json* request = member(message, "request");
  if (request == nullptr || !request->is_object()) return pattern;
  if (const Json* subtype = member(*request, "subtype");
      subtype == nullptr || *subtype != "initialize") {
    // set_model's model, set_permission_mode's mode, interrupt, …: every parameter exactly.
    pattern["request"] = with_exact_members(Json::object(), *request);
  } else {
    pattern["request"] = graded_initialize(*request, context);
  }
  return pattern;
}

Json graded_permission(const Json& answer, const Json& cli_request) {
  // Rule "per SDK": toolUseID echoes the request's tool_use_id; not every SDK sends it.
  Json pattern = with_exact_members(Json::object(), answer, {"toolUseID"});
  pattern["behavior"] = answer.contains("behavior") ? answer["behavior"] : absent();
  if (!answer.contains("message")) pattern["message"] = omitted_or({""});
  // Rule "omitted updatedInput is the tool's input": the CLI runs the input it asked about.
  const Json* input = member(cli_request, "input");
  const Json* updated = member(answer, "updatedInput");
  if (input != nullptr && (updated == nullptr || json_equal(*updated, *input))) {
    pattern["updatedInput"] = omitted_or({*input});
  } else if (updated == nullptr) {
    pattern["updatedInput"] = absent();
  }
  grade_defaulted(pattern, answer, "updatedPermissions", {Json::array()});
  grade_defaulted(pattern, answer, "interrupt", {false});
  return pattern;
}

// An MCP answer: the tool's result exactly; the handshake only by what names the server.
Json graded_mcp(const Json& answer, const Json& cli_request) {
  const Json* response = member(answer, "mcp_response");
  const Json* sent = member(cli_request, "message");
  if (response == nullptr || !response->is_object()) return exactly(answer);
  // Rule "notifications have no result": the SDK's acknowledgement of one is not graded.
  if (sent == nullptr || member(*sent, "id") == nullptr) {
    return Json::object({{"mcp_response", Json::object({{"$any", true}})}});
  }
  Json graded = Json::object();
  if (const Json* id = member(*response, "id")) graded["id"] = *id;
  if (const Json* error = member(*response, "error")) graded["error"] = exactly(*error);
  const Json* result = member(*response, "result");
  const std::string name = base::string_member(*sent, "method");
  if (result != nullptr && result->is_object() && name == "tools/call") {
    // Rule "per SDK": _meta is library metadata.
    Json r = with_exact_members(Json::object(), *result, {"_meta"});
    grade_defaulted(r, *result, "isError", {false});
    graded["result"] = std::move(r);
  } else if (result != nullptr && result->is_object() && name == "initialize") {
    // Rule "per SDK": protocolVersion and capabilities are negotiated by the MCP library.
    const Json* info = member(*result, "serverInfo");
    const Json* server = info != nullptr ? member(*info, "name") : nullptr;
    graded["result"] = server != nullptr
                           ? Json::object({{"serverInfo", Json::object({{"name", *server}})}})
                           : Json::object();
  } else if (result != nullptr && result->is_object() && name == "tools/list") {
    // Rule "per SDK": schema dialect keys ($schema, execution) differ by library; names do not.
    Json tools = Json::array();
    if (const Json* list = member(*result, "tools"); list != nullptr && list->is_array()) {
      for (const Json& tool : *list) {
        const Json* tool_name = member(tool, "name");
        tools.push_back(tool_name != nullptr ? Json::object({{"name", *tool_name}})
                                             : exactly(tool));
      }
    }
    graded["result"] = Json::object({{"tools", std::move(tools)}});
  } else if (result != nullptr) {
    graded["result"] = exactly(*result);
  }
  return Json::object({{"mcp_response", std::move(graded)}});
}

Json graded_answer(const Json& message, const GradingContext& context) {
  Json pattern = Json::object({{"type", "control_response"}});
  const Json* response = member(message, "response");
  if (response == nullptr || !response->is_object()) return pattern;
  Json envelope = with_exact_members(Json::object(), *response, {"response"});
  const Json* request_id = member(*response, "request_id");
  const Json* answer = member(*response, "response");
  const Json* cli_request = nullptr;
  if (request_id != nullptr && request_id->is_string()) {
    if (auto it = context.cli_requests.find(request_id->get_ref<const std::string&>());
        it != context.cli_requests.end()) {
      cli_request = &it->second;
    }
  }
  if (answer != nullptr) {
    const Json* subtype = cli_request != nullptr ? member(*cli_request, "subtype") : nullptr;
    if (subtype != nullptr && *subtype == "can_use_tool" && answer->is_object()) {
      envelope["response"] = graded_permission(*answer, *cli_request);
    } else if (subtype != nullptr && *subtype == "mcp_message" && answer->is_object()) {
      envelope["response"] = graded_mcp(*answer, *cli_request);
    } else {
      // Hook outputs and every other answer: exactly as recorded.
      envelope["response"] = exactly(*answer);
    }
  }
  pattern["response"] = std::move(envelope);
  return pattern;
}

}  // namespace

Json graded_sdk_pattern(const Json& message, const std::string& request_capture,
                        GradingContext& context) {
  const std::string& type = message["type"].get_ref<const std::string&>();
  if (type == "user") return graded_user(message);
  if (type == "control_request") return graded_sdk_request(message, request_capture, context);
  if (type == "control_response") return graded_answer(message, context);
  Json pattern = Json::object({{"type", type}});
  if (const Json* subtype = member(message, "subtype");
      subtype != nullptr && subtype->is_string()) {
    pattern["subtype"] = *subtype;
  }
  return pattern;
}

bool map_hook_callback_id(Json& message, const GradingContext& context) {
  static const Json::json_pointer kSubtype("/request/subtype");
  static const Json::json_pointer kId("/request/callback_id");
  if (context.hook_callbacks.empty() || base::string_member(message, "type") != "control_request" ||
      !message.contains(kSubtype) || message[kSubtype] != "hook_callback" ||
      !message.contains(kId) || !message[kId].is_string()) {
    return false;
  }
  auto name = context.hook_callbacks.find(message[kId].get_ref<const std::string&>());
  if (name == context.hook_callbacks.end()) return false;
  message[kId] = "${" + name->second + "}";
  return true;
}

}  // namespace claude::emulator::detail
