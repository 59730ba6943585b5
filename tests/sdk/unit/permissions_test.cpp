// PermissionDecision has no permissive default; PermissionMode maps to the CLI's names.
#include "claude/sdk/permissions.hpp"

#include <gtest/gtest.h>

#include <type_traits>

namespace claude::sdk {
namespace {

// A callback cannot allow by forgetting to decide: `PermissionDecision{}` does not compile.
static_assert(!std::is_default_constructible_v<PermissionDecision>);

TEST(PermissionDecision, IsExactlyAnAllowOrADeny) {
  const PermissionDecision allow = PermissionAllow{};
  EXPECT_TRUE(allow.allows());
  ASSERT_TRUE(allow.allow());
  EXPECT_FALSE(allow.deny());
  const PermissionDecision deny = PermissionDeny{.message = "no", .interrupt = true};
  EXPECT_FALSE(deny.allows());
  ASSERT_TRUE(deny.deny());
  EXPECT_EQ(deny.deny()->message, "no");
  EXPECT_TRUE(deny.deny()->interrupt);
  EXPECT_EQ(PermissionDecision::allowed(nlohmann::json{{"a", 1}}).allow()->updated_input,
            (nlohmann::json{{"a", 1}}));
  EXPECT_EQ(PermissionDecision::denied("x").deny()->message, "x");
}

TEST(PermissionMode, EveryModeHasTheCliName) {
  EXPECT_EQ(to_string(PermissionMode::default_mode), "default");
  EXPECT_EQ(to_string(PermissionMode::accept_edits), "acceptEdits");
  EXPECT_EQ(to_string(PermissionMode::plan), "plan");
  EXPECT_EQ(to_string(PermissionMode::bypass_permissions), "bypassPermissions");
  EXPECT_EQ(to_string(PermissionMode::dont_ask), "dontAsk");
  EXPECT_EQ(to_string(PermissionMode::auto_mode), "auto");
  for (auto m :
       {PermissionMode::default_mode, PermissionMode::accept_edits, PermissionMode::plan,
        PermissionMode::bypass_permissions, PermissionMode::dont_ask, PermissionMode::auto_mode})
    EXPECT_EQ(permission_mode_from_string(to_string(m)), m);
  EXPECT_FALSE(permission_mode_from_string("accept_edits"));
}

}  // namespace
}  // namespace claude::sdk
