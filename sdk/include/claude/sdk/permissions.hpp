// Tool permission callback types: the host's answer to a `can_use_tool` request (§7.1).
//
// What it is: the request as the callback sees it and the allow/deny decision it returns. The
// engine turns the decision into the wire payload: allow always carries `updatedInput` (the
// original input unless replaced) and `toolUseID`; deny carries `message`, `interrupt` when set,
// and `toolUseID`.
//
// How it fails: a callback that throws makes the engine answer with an error carrying the
// exception's text (the CLI then treats the tool as denied).
// What it costs: one JSON parse of the tool input per request.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "claude/sdk/cancel_token.hpp"

namespace claude::sdk {

struct ToolPermissionRequest {
  std::string tool_name;
  nlohmann::json input;
  std::string tool_use_id;
  nlohmann::json permission_suggestions;  // array of PermissionUpdate, or null
  std::optional<std::string> blocked_path;
  std::optional<std::string> agent_id;
};

struct PermissionDecision {
  bool allow = true;
  std::optional<nlohmann::json> updated_input;        // allow
  std::optional<nlohmann::json> updated_permissions;  // allow: array of PermissionUpdate
  std::string message;                                // deny
  bool interrupt = false;                             // deny: also stop the turn

  static PermissionDecision allowed(std::optional<nlohmann::json> updated_input = std::nullopt) {
    PermissionDecision d;
    d.updated_input = std::move(updated_input);
    return d;
  }
  static PermissionDecision denied(std::string message, bool interrupt = false) {
    PermissionDecision d;
    d.allow = false;
    d.message = std::move(message);
    d.interrupt = interrupt;
    return d;
  }
};

// Runs on an engine thread; may block (asking a human); should watch `cancel`.
using CanUseTool = std::function<PermissionDecision(const ToolPermissionRequest& request,
                                                    const CancelToken& cancel)>;

}  // namespace claude::sdk
