// HookOutput → the wire object answering a `hook_callback` request. Members left unset are not
// sent, so an empty HookOutput answers `{}` ("no opinion").
#include "claude/sdk/hooks.hpp"

namespace claude::sdk {

using nlohmann::json;

namespace {

std::string_view wire_name(HookPermission p) {
  static constexpr std::string_view kNames[] = {"allow", "deny", "ask", "defer"};
  const auto index = static_cast<std::size_t>(p);
  return index < std::size(kNames) ? kNames[index] : "";
}

template <class T>
void set_if(json& object, const char* key, const std::optional<T>& value) {
  if (value) object[key] = *value;
}

json specific_output(const HookOutput& output, std::string_view event_name) {
  json out = {{"hookEventName", event_name}};
  if (const auto* pre = std::get_if<PreToolUseOutput>(&output.specific)) {
    if (pre->decision) out["permissionDecision"] = wire_name(*pre->decision);
    set_if(out, "permissionDecisionReason", pre->reason);
    set_if(out, "updatedInput", pre->updated_input);
    set_if(out, "additionalContext", pre->additional_context);
  } else if (const auto* post = std::get_if<PostToolUseOutput>(&output.specific)) {
    set_if(out, "additionalContext", post->additional_context);
    set_if(out, "updatedToolOutput", post->updated_tool_output);
  } else if (const auto* context = std::get_if<AdditionalContextOutput>(&output.specific)) {
    out["additionalContext"] = context->additional_context;
  } else if (const auto* request = std::get_if<PermissionRequestOutput>(&output.specific)) {
    out["decision"] = request->decision;
  }
  return out;
}

}  // namespace

json to_json(const HookOutput& output, std::string_view event_name) {
  json out = output.extra.is_object() ? output.extra : json::object();
  set_if(out, "continue", output.continue_run);
  set_if(out, "stopReason", output.stop_reason);
  if (output.suppress_output) out["suppressOutput"] = true;
  if (output.block) out["decision"] = "block";
  set_if(out, "reason", output.reason);
  set_if(out, "systemMessage", output.system_message);
  if (!std::holds_alternative<std::monostate>(output.specific))
    out["hookSpecificOutput"] = specific_output(output, event_name);
  return out;
}

}  // namespace claude::sdk
