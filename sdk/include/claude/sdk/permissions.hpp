// Tool permissions: permission modes, and the host's answer to a `can_use_tool` request.
//
//   options.can_use_tool = [](const ToolPermissionRequest& request,
//                             const CancelToken&) -> PermissionDecision {
//     if (request.tool_name == "Bash") return PermissionDeny{.message = "no shell here"};
//     return PermissionAllow{};
//   };
//
// What it is: the request as the callback sees it and the decision it returns. A decision is
// either a `PermissionAllow` or a `PermissionDeny`; there is no default, so a callback cannot
// allow by forgetting to decide (`PermissionDecision{}` does not compile). The engine turns the
// decision into the wire payload: allow always carries `updatedInput` (the CLI's own text of the
// input unless replaced) and `toolUseID`; deny carries `message`, `interrupt` when set, and
// `toolUseID`.
//
// How it fails: a callback that throws makes the engine answer with an error carrying the
// exception's text (the CLI then treats the tool as denied). `permission_mode_from_string`
// returns nullopt for a name it does not know.
// What it costs: one JSON parse of the tool input per request.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "claude/sdk/cancel_token.hpp"

namespace claude::sdk {

// `--permission-mode` and `set_permission_mode`. Wire names: default, acceptEdits, plan,
// bypassPermissions, dontAsk, auto.
enum class PermissionMode {
  default_mode,
  accept_edits,
  plan,
  bypass_permissions,
  dont_ask,
  auto_mode
};

[[nodiscard]] std::string_view to_string(PermissionMode mode) noexcept;
[[nodiscard]] std::optional<PermissionMode> permission_mode_from_string(
    std::string_view name) noexcept;

struct ToolPermissionRequest {
  std::string tool_name;
  nlohmann::json input;
  std::string tool_use_id;
  nlohmann::json permission_suggestions;  // array of PermissionUpdate, or null
  std::optional<std::string> blocked_path;
  std::optional<std::string> agent_id;
};

struct PermissionAllow {
  std::optional<nlohmann::json> updated_input;        // nullopt: the input as requested
  std::optional<nlohmann::json> updated_permissions;  // array of PermissionUpdate
};

struct PermissionDeny {
  std::string message;
  bool interrupt = false;  // also stop the turn
};

// Exactly one of allow or deny; not default-constructible on purpose.
class PermissionDecision {
 public:
  PermissionDecision(PermissionAllow allow)  // NOLINT(google-explicit-constructor)
      : decision_(std::move(allow)) {}
  PermissionDecision(PermissionDeny deny)  // NOLINT(google-explicit-constructor)
      : decision_(std::move(deny)) {}

  static PermissionDecision allowed(std::optional<nlohmann::json> updated_input = std::nullopt) {
    return PermissionAllow{std::move(updated_input), std::nullopt};
  }
  static PermissionDecision denied(std::string message, bool interrupt = false) {
    return PermissionDeny{std::move(message), interrupt};
  }

  [[nodiscard]] bool allows() const noexcept {
    return std::holds_alternative<PermissionAllow>(decision_);
  }
  [[nodiscard]] const PermissionAllow* allow() const noexcept {
    return std::get_if<PermissionAllow>(&decision_);
  }
  [[nodiscard]] const PermissionDeny* deny() const noexcept {
    return std::get_if<PermissionDeny>(&decision_);
  }

 private:
  std::variant<PermissionAllow, PermissionDeny> decision_;
};

// Runs on an engine thread; may block (asking a human); should watch `cancel`.
using CanUseTool = std::function<PermissionDecision(const ToolPermissionRequest& request,
                                                    const CancelToken& cancel)>;

}  // namespace claude::sdk
