// The hook input object as the CLI sends it → HookInput: the fields every event has, then the
// event's own struct. Fields of the wrong JSON type keep their default (the raw object is kept).
#include <utility>

#include "api/json_fields.hpp"
#include "claude/sdk/hooks.hpp"

namespace claude::sdk {

using api::Fields;
using nlohmann::json;

namespace {

constexpr std::pair<HookEvent, std::string_view> kHookEventNames[] = {
    {HookEvent::PreToolUse, "PreToolUse"},
    {HookEvent::PostToolUse, "PostToolUse"},
    {HookEvent::PostToolUseFailure, "PostToolUseFailure"},
    {HookEvent::UserPromptSubmit, "UserPromptSubmit"},
    {HookEvent::Stop, "Stop"},
    {HookEvent::SubagentStart, "SubagentStart"},
    {HookEvent::SubagentStop, "SubagentStop"},
    {HookEvent::PreCompact, "PreCompact"},
    {HookEvent::Notification, "Notification"},
    {HookEvent::PermissionRequest, "PermissionRequest"},
    {HookEvent::SessionStart, "SessionStart"},
    {HookEvent::SessionEnd, "SessionEnd"},
};

decltype(HookInput::details) read_details(HookEvent event, const Fields& f) {
  switch (event) {
    case HookEvent::PreToolUse:
      return PreToolUseInput{f.text("tool_name"), f.value("tool_input"), f.text("tool_use_id")};
    case HookEvent::PostToolUse:
      return PostToolUseInput{f.text("tool_name"), f.value("tool_input"), f.value("tool_response"),
                              f.text("tool_use_id")};
    case HookEvent::PostToolUseFailure:
      return PostToolUseFailureInput{f.text("tool_name"), f.value("tool_input"),
                                     f.text("tool_use_id"), f.text("error"),
                                     f.flag("is_interrupt")};
    case HookEvent::UserPromptSubmit:
      return UserPromptSubmitInput{f.text("prompt")};
    case HookEvent::Stop:
      return StopInput{f.flag("stop_hook_active")};
    case HookEvent::SubagentStart:
      return SubagentStartInput{f.text("agent_id"), f.text("agent_type")};
    case HookEvent::SubagentStop:
      return SubagentStopInput{f.flag("stop_hook_active"), f.text("agent_id"), f.text("agent_type"),
                               f.text("agent_transcript_path")};
    case HookEvent::PreCompact:
      return PreCompactInput{f.text("trigger"), f.string_or("custom_instructions")};
    case HookEvent::Notification:
      return NotificationInput{f.text("message"), f.string_or("title"),
                               f.text("notification_type")};
    case HookEvent::PermissionRequest:
      return PermissionRequestInput{f.text("tool_name"), f.value("tool_input"),
                                    f.value("permission_suggestions")};
    case HookEvent::SessionStart:
      return SessionStartInput{f.text("source")};
    case HookEvent::SessionEnd:
      return SessionEndInput{f.text("reason")};
  }
  return {};
}

}  // namespace

std::string_view to_string(HookEvent event) noexcept {
  for (const auto& [e, name] : kHookEventNames)
    if (e == event) return name;
  return "";
}

std::optional<HookEvent> hook_event_from_string(std::string_view name) noexcept {
  for (const auto& [e, n] : kHookEventNames)
    if (n == name) return e;
  return std::nullopt;
}

HookInput parse_hook_input(json raw, std::optional<std::string> tool_use_id) {
  HookInput in;
  const Fields f(raw);
  in.event_name = f.text("hook_event_name");
  in.event = hook_event_from_string(in.event_name);
  in.tool_use_id = std::move(tool_use_id);
  in.session_id = f.text("session_id");
  in.transcript_path = f.text("transcript_path");
  in.cwd = f.text("cwd");
  in.permission_mode = f.string_or("permission_mode");
  in.agent_id = f.string_or("agent_id");
  in.agent_type = f.string_or("agent_type");
  if (in.event) in.details = read_details(*in.event, f);
  in.raw = std::move(raw);
  return in;
}

}  // namespace claude::sdk
