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

void read_details(HookEvent event, const Fields& f, HookInput& in) {
  switch (event) {
    case HookEvent::PreToolUse:
      in.details =
          PreToolUseInput{f.text("tool_name"), f.value("tool_input"), f.text("tool_use_id")};
      break;
    case HookEvent::PostToolUse:
      in.details = PostToolUseInput{f.text("tool_name"), f.value("tool_input"),
                                    f.value("tool_response"), f.text("tool_use_id")};
      break;
    case HookEvent::PostToolUseFailure:
      in.details =
          PostToolUseFailureInput{f.text("tool_name"), f.value("tool_input"), f.text("tool_use_id"),
                                  f.text("error"), f.flag("is_interrupt")};
      break;
    case HookEvent::UserPromptSubmit:
      in.details = UserPromptSubmitInput{f.text("prompt")};
      break;
    case HookEvent::Stop:
      in.details = StopInput{f.flag("stop_hook_active")};
      break;
    case HookEvent::SubagentStart:
      in.details = SubagentStartInput{f.text("agent_id"), f.text("agent_type")};
      break;
    case HookEvent::SubagentStop:
      in.details = SubagentStopInput{f.flag("stop_hook_active"), f.text("agent_id"),
                                     f.text("agent_type"), f.text("agent_transcript_path")};
      break;
    case HookEvent::PreCompact:
      in.details = PreCompactInput{f.text("trigger"), f.string_or("custom_instructions")};
      break;
    case HookEvent::Notification:
      in.details =
          NotificationInput{f.text("message"), f.string_or("title"), f.text("notification_type")};
      break;
    case HookEvent::PermissionRequest:
      in.details = PermissionRequestInput{f.text("tool_name"), f.value("tool_input"),
                                          f.value("permission_suggestions")};
      break;
    case HookEvent::SessionStart:
      in.details = SessionStartInput{f.text("source")};
      break;
    case HookEvent::SessionEnd:
      in.details = SessionEndInput{f.text("reason")};
      break;
  }
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
  if (in.event) read_details(*in.event, f, in);
  in.raw = std::move(raw);
  return in;
}

}  // namespace claude::sdk
