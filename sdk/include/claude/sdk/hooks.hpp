// Hooks: C++ functions the CLI calls at hook events (a tool is about to run, a prompt was
// submitted, the run stops, …), with typed inputs and outputs.
//
//   options.hooks[HookEvent::PreToolUse].push_back({
//       .matcher = "Bash",
//       .callbacks = {[](const HookInput& in, const CancelToken&) -> HookOutput {
//         auto* tool = in.get_if<PreToolUseInput>();
//         if (tool && tool->tool_input.value("command", "").starts_with("rm "))
//           return {.specific = PreToolUseOutput{.decision = HookPermission::deny,
//                                                .reason = "no rm"}};
//         return {};  // no opinion
//       }}});
//
// What it is: matchers per `HookEvent` (an enum, so an event name cannot be misspelt), each with
// callbacks. At `initialize` the engine numbers every callback `hook_0`, `hook_1`, … in
// registration order (events in wire-name order, matchers and callbacks in the order given) and
// sends the ids with their matcher and timeout; the CLI then sends `hook_callback` requests naming
// an id. The callback gets the hook input parsed into the fields every event has plus the event's
// own struct (`details`), and the whole object as sent in `raw`. It returns a `HookOutput`; an
// empty one means "no opinion". Several matchers for one event fire concurrently, each on its own
// engine thread.
//
// How it fails: a throwing callback makes the engine answer with an error carrying the
// exception's text; an unknown callback id gets "No hook callback found for ID: X". An event this
// SDK does not know (a newer CLI) still reaches the callback: `event` is nullopt, `event_name`
// and `raw` say what came. A field of the wrong JSON type is left at its default.
// What it costs: one JSON parse of the hook input per call, and one small JSON object per answer.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "claude/sdk/cancel_token.hpp"

namespace claude::sdk {

// The hook events of the CLI's SDK hooks (the names are the wire names).
enum class HookEvent {
  PreToolUse,
  PostToolUse,
  PostToolUseFailure,
  UserPromptSubmit,
  Stop,
  SubagentStart,
  SubagentStop,
  PreCompact,
  Notification,
  PermissionRequest,
  SessionStart,
  SessionEnd,
};

[[nodiscard]] std::string_view to_string(HookEvent event) noexcept;
// nullopt for a name this SDK does not know.
[[nodiscard]] std::optional<HookEvent> hook_event_from_string(std::string_view name) noexcept;

// --- inputs: the fields of each event (`tool_input`, `tool_response` stay JSON: they are the
// tool's own, open-ended values) ---
struct PreToolUseInput {
  std::string tool_name;
  nlohmann::json tool_input;
  std::string tool_use_id;
};
struct PostToolUseInput {
  std::string tool_name;
  nlohmann::json tool_input;
  nlohmann::json tool_response;
  std::string tool_use_id;
};
struct PostToolUseFailureInput {
  std::string tool_name;
  nlohmann::json tool_input;
  std::string tool_use_id;
  std::string error;
  bool is_interrupt = false;
};
struct UserPromptSubmitInput {
  std::string prompt;
};
struct StopInput {
  bool stop_hook_active = false;
};
struct SubagentStartInput {
  std::string agent_id;
  std::string agent_type;
};
struct SubagentStopInput {
  bool stop_hook_active = false;
  std::string agent_id;
  std::string agent_type;
  std::string agent_transcript_path;
};
struct PreCompactInput {
  std::string trigger;  // "manual" or "auto"
  std::optional<std::string> custom_instructions;
};
struct NotificationInput {
  std::string message;
  std::optional<std::string> title;
  std::string notification_type;
};
struct PermissionRequestInput {
  std::string tool_name;
  nlohmann::json tool_input;
  nlohmann::json permission_suggestions;  // array of PermissionUpdate, or null
};
struct SessionStartInput {
  std::string source;  // "startup", "resume", "clear", "compact"
};
struct SessionEndInput {
  std::string reason;
};

struct HookInput {
  std::optional<HookEvent> event;          // nullopt: an event this SDK does not know
  std::string event_name;                  // `hook_event_name` as sent
  std::optional<std::string> tool_use_id;  // the request's `tool_use_id`
  std::string session_id;
  std::string transcript_path;
  std::string cwd;
  std::optional<std::string> permission_mode;
  std::optional<std::string> agent_id;    // inside a subagent
  std::optional<std::string> agent_type;  // inside a subagent, or a session started with --agent
  std::variant<std::monostate, PreToolUseInput, PostToolUseInput, PostToolUseFailureInput,
               UserPromptSubmitInput, StopInput, SubagentStartInput, SubagentStopInput,
               PreCompactInput, NotificationInput, PermissionRequestInput, SessionStartInput,
               SessionEndInput>
      details;
  nlohmann::json raw;  // the whole hook input object

  template <class T>
  [[nodiscard]] const T* get_if() const noexcept {
    return std::get_if<T>(&details);
  }
};

// The hook input object as the CLI sends it → HookInput (never throws but std::bad_alloc).
[[nodiscard]] HookInput parse_hook_input(nlohmann::json raw,
                                         std::optional<std::string> tool_use_id = std::nullopt);

// --- outputs ---
enum class HookPermission { allow, deny, ask, defer };

struct PreToolUseOutput {
  std::optional<HookPermission> decision;  // `permissionDecision`
  std::optional<std::string> reason;       // `permissionDecisionReason`
  std::optional<nlohmann::json> updated_input;
  std::optional<std::string> additional_context;
};
struct PostToolUseOutput {
  std::optional<std::string> additional_context;
  std::optional<nlohmann::json> updated_tool_output;  // `updatedToolOutput`
};
// PostToolUseFailure, UserPromptSubmit, SessionStart, Notification, SubagentStart: text the
// model sees.
struct AdditionalContextOutput {
  std::string additional_context;
};
struct PermissionRequestOutput {
  nlohmann::json decision;  // {"behavior":"allow"|"deny", …}
};

struct HookOutput {
  std::optional<bool> continue_run;        // `continue`: false stops the run
  std::optional<std::string> stop_reason;  // shown when continue_run is false
  bool suppress_output = false;
  bool block = false;  // `decision: "block"`
  std::optional<std::string> reason;
  std::optional<std::string> system_message;
  // `hookSpecificOutput`; its `hookEventName` is the event of the call being answered.
  std::variant<std::monostate, PreToolUseOutput, PostToolUseOutput, AdditionalContextOutput,
               PermissionRequestOutput>
      specific;
  // Extra top-level members sent as they are (fields newer than this SDK); typed members win.
  nlohmann::json extra = nlohmann::json::object();
};

// HookOutput → the wire object answering a call for `event_name` (`{}` for an empty output).
[[nodiscard]] nlohmann::json to_json(const HookOutput& output, std::string_view event_name);

// Runs on an engine thread; may block; should watch `cancel`.
using HookCallback = std::function<HookOutput(const HookInput& input, const CancelToken& cancel)>;

struct HookMatcher {
  std::optional<std::string> matcher;  // tool-name pattern; nullopt matches every tool
  std::vector<HookCallback> callbacks;
  std::optional<int> timeout_seconds;  // the CLI's own timeout for these callbacks
};

using HookMap = std::map<HookEvent, std::vector<HookMatcher>>;

}  // namespace claude::sdk
