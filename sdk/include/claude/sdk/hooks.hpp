// Hook callback types: C++ functions the CLI calls at hook events (§7.2).
//
// What it is: matchers per hook event (`PreToolUse`, `PostToolUse`, `UserPromptSubmit`, …), each
// with callbacks. At `initialize` the engine numbers every callback `hook_0`, `hook_1`, … in
// registration order (events in name order, matchers and callbacks in the order given) and sends
// the ids with their matcher and timeout; the CLI then sends `hook_callback` requests naming an
// id. Several matchers for one event fire concurrently, each on its own engine thread.
//
// How it fails: a throwing callback makes the engine answer with an error carrying the
// exception's text; an unknown callback id gets "No hook callback found for ID: X".
// What it costs: one JSON parse of the hook input per call.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "claude/sdk/cancel_token.hpp"

namespace claude::sdk {

struct HookInput {
  std::string event;                       // `input.hook_event_name`
  std::optional<std::string> tool_use_id;  // the request's `tool_use_id`
  nlohmann::json input;                    // the whole hook input object
};

// Returns the hook output object sent back verbatim (`{}` = no opinion), e.g.
// {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",…}}.
using HookCallback =
    std::function<nlohmann::json(const HookInput& input, const CancelToken& cancel)>;

struct HookMatcher {
  std::optional<std::string> matcher;  // tool-name pattern; nullopt matches every tool
  std::vector<HookCallback> callbacks;
  std::optional<int> timeout_seconds;  // the CLI's own timeout for these callbacks
};

// Event name → matchers.
using HookMap = std::map<std::string, std::vector<HookMatcher>>;

}  // namespace claude::sdk
