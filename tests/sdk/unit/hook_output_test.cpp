// to_json(HookOutput): only what is set is sent; hookSpecificOutput names the call's event.
#include <gtest/gtest.h>

#include "claude/sdk/hooks.hpp"

namespace claude::sdk {
namespace {

using nlohmann::json;

TEST(HookOutput, AnEmptyOutputIsNoOpinion) {
  EXPECT_EQ(to_json(HookOutput{}, "PreToolUse"), json::object());
}

TEST(HookOutput, PreToolUseDecisionUsesTheWireNames) {
  const HookOutput out{.specific = PreToolUseOutput{.decision = HookPermission::deny,
                                                    .reason = "no rm",
                                                    .updated_input = json{{"command", "ls"}}}};
  EXPECT_EQ(to_json(out, "PreToolUse"), (json{{"hookSpecificOutput",
                                               {{"hookEventName", "PreToolUse"},
                                                {"permissionDecision", "deny"},
                                                {"permissionDecisionReason", "no rm"},
                                                {"updatedInput", {{"command", "ls"}}}}}}));
}

TEST(HookOutput, CommonFieldsUseTheirWireNames) {
  const HookOutput out{.continue_run = false,
                       .stop_reason = "enough",
                       .suppress_output = true,
                       .block = true,
                       .reason = "why",
                       .system_message = "note"};
  EXPECT_EQ(to_json(out, "Stop"), (json{{"continue", false},
                                        {"stopReason", "enough"},
                                        {"suppressOutput", true},
                                        {"decision", "block"},
                                        {"reason", "why"},
                                        {"systemMessage", "note"}}));
}

TEST(HookOutput, AdditionalContextIsSentForTheEventBeingAnswered) {
  const HookOutput out{.specific = AdditionalContextOutput{"today is Monday"}};
  EXPECT_EQ(
      to_json(out, "UserPromptSubmit")["hookSpecificOutput"],
      (json{{"hookEventName", "UserPromptSubmit"}, {"additionalContext", "today is Monday"}}));
}

TEST(HookOutput, PostToolUseAndPermissionRequestOutputs) {
  const HookOutput post{.specific = PostToolUseOutput{.updated_tool_output = json{{"ok", 1}}}};
  EXPECT_EQ(to_json(post, "PostToolUse")["hookSpecificOutput"],
            (json{{"hookEventName", "PostToolUse"}, {"updatedToolOutput", {{"ok", 1}}}}));
  const HookOutput request{.specific = PermissionRequestOutput{{{"behavior", "allow"}}}};
  EXPECT_EQ(to_json(request, "PermissionRequest")["hookSpecificOutput"]["decision"],
            (json{{"behavior", "allow"}}));
}

TEST(HookOutput, ExtraMembersAreSentAndTypedMembersWin) {
  const HookOutput out{.system_message = "typed",
                       .extra = {{"systemMessage", "raw"}, {"newField", 1}}};
  EXPECT_EQ(to_json(out, "Stop"), (json{{"systemMessage", "typed"}, {"newField", 1}}));
}

}  // namespace
}  // namespace claude::sdk
