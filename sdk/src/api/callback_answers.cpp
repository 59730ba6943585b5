#include "api/callback_answers.hpp"

#include <map>
#include <string_view>

#include "messages/json_writer.hpp"

namespace claude::sdk::api {

using nlohmann::json;

HookRegistrations register_hooks(const HookMap& hooks) {
  HookRegistrations out;
  if (hooks.empty()) return out;
  // The ids follow the wire names' order, as they did when the map was keyed by name.
  std::map<std::string_view, const std::vector<HookMatcher>*> by_name;
  for (const auto& [event, matchers] : hooks) by_name.emplace(to_string(event), &matchers);
  out.wire = json::object();
  for (const auto& [name, matchers] : by_name) {
    json list = json::array();
    for (const auto& m : *matchers) {
      json ids = json::array();
      for (const auto& callback : m.callbacks) {
        ids.push_back("hook_" + std::to_string(out.callbacks.size()));
        out.callbacks.push_back(callback);
      }
      json entry = {{"matcher", m.matcher ? json(*m.matcher) : json()}, {"hookCallbackIds", ids}};
      if (m.timeout_seconds) entry["timeout"] = *m.timeout_seconds;
      list.push_back(std::move(entry));
    }
    out.wire[std::string(name)] = std::move(list);
  }
  return out;
}

json answer_hook(const HookCallback& callback, const HookCallbackRequest& request,
                 const CancelToken& cancel) {
  const HookInput input = parse_hook_input(request.input.value(), request.tool_use_id);
  return to_json(callback(input, cancel), input.event_name);
}

std::string answer_permission(const CanUseTool& callback, const CanUseToolRequest& request,
                              const CancelToken& cancel) {
  const ToolPermissionRequest typed{request.tool_name,    request.input.value(),
                                    request.tool_use_id,  request.permission_suggestions.value(),
                                    request.blocked_path, request.agent_id};
  const PermissionDecision decision = callback(typed, cancel);
  std::string out;
  out.reserve(96 + request.tool_use_id.size() + request.input.text().size());
  out = R"({"behavior":)";
  if (const PermissionAllow* allow = decision.allow()) {
    out += R"("allow","toolUseID":)";
    detail::append_json_string(out, request.tool_use_id);
    out += R"(,"updatedInput":)";
    if (allow->updated_input)
      detail::append_json(out, *allow->updated_input);
    else if (request.input.present())
      out += request.input.text();
    else
      out += "null";
    if (allow->updated_permissions) {
      out += R"(,"updatedPermissions":)";
      detail::append_json(out, *allow->updated_permissions);
    }
  } else {
    const PermissionDeny& deny = *decision.deny();
    out += R"("deny")";
    if (deny.interrupt) out += R"(,"interrupt":true)";
    out += R"(,"message":)";
    detail::append_json_string(out, deny.message);
    out += R"(,"toolUseID":)";
    detail::append_json_string(out, request.tool_use_id);
  }
  out += '}';
  return out;
}

}  // namespace claude::sdk::api
