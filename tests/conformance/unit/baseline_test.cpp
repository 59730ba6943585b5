#include "claude/conformance/baseline.hpp"

#include <gtest/gtest.h>

namespace claude::conformance {
namespace {

const std::string kBaselineData = CONFORMANCE_TEST_DATA;

TEST(Baseline, ReadsIdsWithTheirReasons) {
  auto load = load_baseline(kBaselineData + "/baseline.txt");
  ASSERT_TRUE(load.errors.empty());
  ASSERT_EQ(load.baseline->entries.size(), 2u);
  EXPECT_EQ(load.baseline->entries[0].id, "perm.allow");
  EXPECT_EQ(load.baseline->entries[0].reason, "the SDK adds an extra field");
  EXPECT_EQ(load.baseline->entries[0].line, 2u);
}

TEST(Baseline, FindsExactIdsAndPrefixes) {
  auto baseline = *load_baseline(kBaselineData + "/baseline.txt").baseline;
  EXPECT_NE(baseline.find("perm.allow"), nullptr);
  EXPECT_EQ(baseline.find("perm.allow-more"), nullptr);
  EXPECT_NE(baseline.find("hooks.concurrent-pretooluse"), nullptr);
  EXPECT_EQ(baseline.find("mcp.unknown-tool"), nullptr);
}

TEST(Baseline, RejectsAMalformedIdWithFileAndLine) {
  auto load = load_baseline(kBaselineData + "/bad-baseline.txt");
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_NE(load.errors[0].find("bad-baseline.txt:2:"), std::string::npos);
}

TEST(Baseline, ReportsAMissingFile) {
  auto load = load_baseline(kBaselineData + "/missing.txt");
  ASSERT_EQ(load.errors.size(), 1u);
  EXPECT_NE(load.errors[0].find("cannot read"), std::string::npos);
}

}  // namespace
}  // namespace claude::conformance
