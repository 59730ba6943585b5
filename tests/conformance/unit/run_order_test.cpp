#include "claude/conformance/run_order.hpp"

#include <gtest/gtest.h>

namespace claude::conformance {
namespace {

const std::string kRunOrderData = std::string(CONFORMANCE_TEST_DATA) + "/run-order";

ConformanceCase loaded(const std::string& file) {
  auto load = load_case(kRunOrderData + "/" + file);
  EXPECT_TRUE(load.errors.empty()) << load.errors.front();
  return load.conformance_case.value_or(ConformanceCase{});
}

ConformanceCase estimated(std::string id, std::int64_t ms) {
  ConformanceCase c;
  c.id = std::move(id);
  c.estimated_ms = ms;
  return c;
}

TEST(RunOrder, CountsSleepsChunkGapsAndDriverDelays) {
  EXPECT_EQ(loaded("waits.ndjson").estimated_ms, 700);
}

TEST(RunOrder, CountsACliThatNeverExitsAsTheCloseGrace) {
  EXPECT_EQ(loaded("hangs.ndjson").estimated_ms, kNeverExitingCliMs);
}

TEST(RunOrder, EstimatesACaseWithoutWaitsAtZero) {
  EXPECT_EQ(loaded("no-waits.ndjson").estimated_ms, 0);
}

TEST(RunOrder, StartsTheLongestCaseOfASuiteFirst) {
  auto suite = find_cases(kRunOrderData);
  ASSERT_TRUE(suite.errors.empty()) << suite.errors.front();
  ASSERT_EQ(suite.cases.size(), 3u);
  std::vector<std::string> ids;
  for (std::size_t i : longest_first(suite.cases)) ids.push_back(suite.cases[i].id);
  EXPECT_EQ(ids, (std::vector<std::string>{"order.hangs", "order.waits", "order.no-waits"}));
}

TEST(RunOrder, KeepsIdOrderBetweenEqualEstimates) {
  const std::vector<ConformanceCase> cases = {estimated("a.one", 300), estimated("b.two", 0),
                                              estimated("c.three", 300), estimated("d.four", 0),
                                              estimated("e.five", 800)};
  EXPECT_EQ(longest_first(cases), (std::vector<std::size_t>{4, 0, 2, 1, 3}));
}

}  // namespace
}  // namespace claude::conformance
