// parse_hook_input: each hook event's input becomes its own struct; the common fields, the raw
// object and unknown events are kept.
#include <gtest/gtest.h>

#include "claude/sdk/hooks.hpp"

namespace claude::sdk {
namespace {

using nlohmann::json;

json input_for(const char* event, json fields) {
  json in = {{"hook_event_name", event},
             {"session_id", "s1"},
             {"transcript_path", "/t.jsonl"},
             {"cwd", "/work"},
             {"permission_mode", "default"}};
  in.update(fields);
  return in;
}

TEST(HookInput, CommonFieldsAndRawObjectAreKept) {
  const json raw = input_for("Stop", {{"stop_hook_active", true}, {"agent_type", "reviewer"}});
  const HookInput in = parse_hook_input(raw, "toolu_1");
  EXPECT_EQ(in.event, HookEvent::Stop);
  EXPECT_EQ(in.event_name, "Stop");
  EXPECT_EQ(in.tool_use_id, "toolu_1");
  EXPECT_EQ(in.session_id, "s1");
  EXPECT_EQ(in.transcript_path, "/t.jsonl");
  EXPECT_EQ(in.cwd, "/work");
  EXPECT_EQ(in.permission_mode, "default");
  EXPECT_EQ(in.agent_type, "reviewer");
  EXPECT_FALSE(in.agent_id);
  EXPECT_EQ(in.raw, raw);
  ASSERT_TRUE(in.get_if<StopInput>());
  EXPECT_TRUE(in.get_if<StopInput>()->stop_hook_active);
}

TEST(HookInput, PreToolUseHasToolNameInputAndId) {
  const auto in = parse_hook_input(input_for(
      "PreToolUse",
      {{"tool_name", "Bash"}, {"tool_input", {{"command", "ls"}}}, {"tool_use_id", "toolu_2"}}));
  const auto* d = in.get_if<PreToolUseInput>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->tool_name, "Bash");
  EXPECT_EQ(d->tool_input, (json{{"command", "ls"}}));
  EXPECT_EQ(d->tool_use_id, "toolu_2");
}

TEST(HookInput, PostToolUseHasTheToolResponse) {
  const auto in = parse_hook_input(input_for("PostToolUse", {{"tool_name", "Read"},
                                                             {"tool_input", {{"file", "a"}}},
                                                             {"tool_response", "text"},
                                                             {"tool_use_id", "toolu_3"}}));
  const auto* d = in.get_if<PostToolUseInput>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->tool_name, "Read");
  EXPECT_EQ(d->tool_response, "text");
  EXPECT_EQ(d->tool_use_id, "toolu_3");
}

TEST(HookInput, PostToolUseFailureHasTheErrorAndInterruptFlag) {
  const auto in = parse_hook_input(input_for(
      "PostToolUseFailure",
      {{"tool_name", "Bash"}, {"tool_use_id", "t"}, {"error", "exit 1"}, {"is_interrupt", true}}));
  const auto* d = in.get_if<PostToolUseFailureInput>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->error, "exit 1");
  EXPECT_TRUE(d->is_interrupt);
}

TEST(HookInput, UserPromptSubmitHasThePrompt) {
  const auto in = parse_hook_input(input_for("UserPromptSubmit", {{"prompt", "hi"}}));
  ASSERT_TRUE(in.get_if<UserPromptSubmitInput>());
  EXPECT_EQ(in.get_if<UserPromptSubmitInput>()->prompt, "hi");
}

TEST(HookInput, SubagentStartAndStopNameTheAgent) {
  const auto start =
      parse_hook_input(input_for("SubagentStart", {{"agent_id", "a1"}, {"agent_type", "x"}}));
  ASSERT_TRUE(start.get_if<SubagentStartInput>());
  EXPECT_EQ(start.get_if<SubagentStartInput>()->agent_id, "a1");
  EXPECT_EQ(start.get_if<SubagentStartInput>()->agent_type, "x");
  const auto stop = parse_hook_input(input_for("SubagentStop", {{"agent_id", "a1"},
                                                                {"agent_type", "x"},
                                                                {"stop_hook_active", false},
                                                                {"agent_transcript_path", "/a"}}));
  const auto* d = stop.get_if<SubagentStopInput>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->agent_id, "a1");
  EXPECT_EQ(d->agent_transcript_path, "/a");
  EXPECT_FALSE(d->stop_hook_active);
}

TEST(HookInput, PreCompactHasTriggerAndOptionalInstructions) {
  const auto in = parse_hook_input(
      input_for("PreCompact", {{"trigger", "manual"}, {"custom_instructions", nullptr}}));
  const auto* d = in.get_if<PreCompactInput>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->trigger, "manual");
  EXPECT_FALSE(d->custom_instructions);
}

TEST(HookInput, NotificationHasMessageTitleAndType) {
  const auto in = parse_hook_input(input_for(
      "Notification",
      {{"message", "waiting"}, {"title", "Claude"}, {"notification_type", "idle_prompt"}}));
  const auto* d = in.get_if<NotificationInput>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->message, "waiting");
  EXPECT_EQ(d->title, "Claude");
  EXPECT_EQ(d->notification_type, "idle_prompt");
}

TEST(HookInput, PermissionRequestHasToolAndSuggestions) {
  const auto in = parse_hook_input(input_for(
      "PermissionRequest", {{"tool_name", "Write"},
                            {"tool_input", json::object()},
                            {"permission_suggestions", json::array({{{"type", "setMode"}}})}}));
  const auto* d = in.get_if<PermissionRequestInput>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->tool_name, "Write");
  EXPECT_EQ(d->permission_suggestions.size(), 1u);
}

TEST(HookInput, SessionStartAndEndHaveSourceAndReason) {
  const auto start = parse_hook_input(input_for("SessionStart", {{"source", "resume"}}));
  ASSERT_TRUE(start.get_if<SessionStartInput>());
  EXPECT_EQ(start.get_if<SessionStartInput>()->source, "resume");
  const auto end = parse_hook_input(input_for("SessionEnd", {{"reason", "logout"}}));
  ASSERT_TRUE(end.get_if<SessionEndInput>());
  EXPECT_EQ(end.get_if<SessionEndInput>()->reason, "logout");
}

TEST(HookInput, AnUnknownEventIsKeptByNameWithoutDetails) {
  const json raw = input_for("BrandNewEvent", {{"x", 1}});
  const auto in = parse_hook_input(raw);
  EXPECT_FALSE(in.event);
  EXPECT_EQ(in.event_name, "BrandNewEvent");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(in.details));
  EXPECT_EQ(in.raw["x"], 1);
}

TEST(HookInput, AFieldOfTheWrongTypeKeepsItsDefault) {
  const auto in =
      parse_hook_input(input_for("PreToolUse", {{"tool_name", 7}, {"tool_use_id", json::array()}}));
  const auto* d = in.get_if<PreToolUseInput>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->tool_name, "");
  EXPECT_EQ(d->tool_use_id, "");
  EXPECT_EQ(parse_hook_input(json("not an object")).event_name, "");
}

TEST(HookEventNames, EveryEventRoundTripsThroughItsWireName) {
  for (HookEvent e :
       {HookEvent::PreToolUse, HookEvent::PostToolUse, HookEvent::PostToolUseFailure,
        HookEvent::UserPromptSubmit, HookEvent::Stop, HookEvent::SubagentStart,
        HookEvent::SubagentStop, HookEvent::PreCompact, HookEvent::Notification,
        HookEvent::PermissionRequest, HookEvent::SessionStart, HookEvent::SessionEnd}) {
    EXPECT_FALSE(to_string(e).empty());
    EXPECT_EQ(hook_event_from_string(to_string(e)), e) << to_string(e);
  }
  EXPECT_FALSE(hook_event_from_string("pretooluse"));
}

}  // namespace
}  // namespace claude::sdk
