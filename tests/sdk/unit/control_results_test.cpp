// The answers to our control requests become typed results; the payload stays in `raw`.
#include "api/control_results.hpp"

#include <gtest/gtest.h>

namespace claude::sdk {
namespace {

using nlohmann::json;

TEST(ControlResults, McpStatusListsEachServer) {
  const json payload = {{"mcpServers",
                         {{{"name", "github"}, {"status", "connected"}, {"scope", "user"}},
                          {{"name", "slack"}, {"status", "failed"}, {"error", "timeout"}}}}};
  const McpStatus status = api::mcp_status_from(payload);
  ASSERT_EQ(status.servers.size(), 2u);
  EXPECT_EQ(status.servers[0].name, "github");
  EXPECT_EQ(status.servers[0].status, "connected");
  EXPECT_EQ(status.servers[0].scope, "user");
  EXPECT_EQ(status.servers[1].error, "timeout");
  EXPECT_EQ(status.servers[1].raw["name"], "slack");
  EXPECT_EQ(status.raw, payload);
}

TEST(ControlResults, RewindFilesResultHasTheCounts) {
  const auto r = api::rewind_files_result_from(
      {{"canRewind", true}, {"filesChanged", {"a.txt"}}, {"insertions", 1}, {"deletions", 2}});
  EXPECT_TRUE(r.can_rewind);
  EXPECT_EQ(r.files_changed, (std::vector<std::string>{"a.txt"}));
  EXPECT_EQ(r.insertions, 1);
  EXPECT_EQ(r.deletions, 2);
  EXPECT_FALSE(r.error);
}

TEST(ControlResults, ContextUsageHasCategoriesAndTotals) {
  const auto u =
      api::context_usage_from({{"categories", {{{"name", "System prompt"}, {"tokens", 1200}}}},
                               {"totalTokens", 1200},
                               {"maxTokens", 200000},
                               {"percentage", 0.6},
                               {"model", "claude-fake-1"}});
  ASSERT_EQ(u.categories.size(), 1u);
  EXPECT_EQ(u.categories[0].name, "System prompt");
  EXPECT_EQ(u.categories[0].tokens, 1200);
  EXPECT_EQ(u.total_tokens, 1200);
  EXPECT_EQ(u.max_tokens, 200000);
  EXPECT_DOUBLE_EQ(u.percentage, 0.6);
  EXPECT_EQ(u.model, "claude-fake-1");
}

TEST(ControlResults, MembersOfTheWrongTypeKeepTheirDefaults) {
  const auto s = api::mcp_status_from({{"mcpServers", "nope"}});
  EXPECT_TRUE(s.servers.empty());
  const auto r = api::rewind_files_result_from(json());
  EXPECT_FALSE(r.can_rewind);
  EXPECT_TRUE(r.raw.is_null());
  const auto u = api::context_usage_from({{"totalTokens", "many"}, {"categories", {1, 2}}});
  EXPECT_EQ(u.total_tokens, 0);
  ASSERT_EQ(u.categories.size(), 2u);
  EXPECT_EQ(u.categories[0].name, "");
}

}  // namespace
}  // namespace claude::sdk
