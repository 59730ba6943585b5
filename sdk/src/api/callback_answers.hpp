// The user's typed callbacks (Options::hooks, Options::can_use_tool) at the wire boundary: what
// `initialize` announces, and the answer payload of each `hook_callback` / `can_use_tool`
// request. The control engine stays on JSON values; the typing lives here.
//
// How it fails: whatever the user's callback throws passes through (the engine answers the
// request with an error carrying its text).
// What it costs: one JSON parse of the request's input and one answer object per call.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "claude/sdk/hooks.hpp"
#include "claude/sdk/message.hpp"
#include "claude/sdk/permissions.hpp"

namespace claude::sdk::api {

// `hooks` for `initialize` (events in wire-name order; ids hook_0, hook_1, … in that order) and
// the callbacks, where callbacks[i] is `hook_<i>`. `wire` is null when there are no hooks.
struct HookRegistrations {
  nlohmann::json wire;
  std::vector<HookCallback> callbacks;
};
[[nodiscard]] HookRegistrations register_hooks(const HookMap& hooks);

// Runs `callback` on the request's input; the answer payload (`{}` for no opinion).
[[nodiscard]] nlohmann::json answer_hook(const HookCallback& callback,
                                         const HookCallbackRequest& request,
                                         const CancelToken& cancel);

// Runs `callback`; the answer payload as JSON text. An allow without new input echoes the CLI's
// own text of `input`, byte for byte; keys are in the order nlohmann would sort them.
[[nodiscard]] std::string answer_permission(const CanUseTool& callback,
                                            const CanUseToolRequest& request,
                                            const CancelToken& cancel);

}  // namespace claude::sdk::api
