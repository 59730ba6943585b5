#include <gtest/gtest.h>

#include "claude/conformance/conformance_case.hpp"

namespace claude::conformance {
namespace {

const std::string kCaseLoadingData = CONFORMANCE_TEST_DATA;

bool any_contains(const std::vector<std::string>& errors, std::string_view text) {
  for (const auto& e : errors) {
    if (e.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(CaseLoading, ReadsIdDriverAndExpectations) {
  auto load = load_case(kCaseLoadingData + "/suite/perm/allow.ndjson");
  ASSERT_TRUE(load.errors.empty()) << load.errors.front();
  const auto& c = *load.conformance_case;
  EXPECT_EQ(c.id, "perm.allow");
  EXPECT_EQ(c.group, "perm");
  EXPECT_EQ(c.driver.value("prompt", ""), "go");
  EXPECT_EQ(c.observe.size(), 2u);
  EXPECT_EQ(c.observe_absent.size(), 1u);
  EXPECT_EQ(c.observe_should.size(), 1u);
}

TEST(CaseLoading, RequiresADriverSpec) {
  auto load = load_case(kCaseLoadingData + "/bad/no-driver.ndjson");
  EXPECT_FALSE(load.conformance_case);
  EXPECT_TRUE(any_contains(load.errors, "no-driver.ndjson:1: a case needs a `driver`"));
}

TEST(CaseLoading, RequiresAGroupedLowerCaseName) {
  auto load = load_case(kCaseLoadingData + "/bad/bad-name.ndjson");
  EXPECT_TRUE(any_contains(load.errors, "bad-name.ndjson:1: case name 'NoGroup'"));
}

TEST(CaseLoading, RejectsObserveThatIsNotAnArray) {
  auto load = load_case(kCaseLoadingData + "/bad/bad-observe.ndjson");
  EXPECT_TRUE(any_contains(load.errors, "bad-observe.ndjson:1: header member 'observe'"));
}

TEST(CaseLoading, RejectsAnInvalidRegularExpressionInObserve) {
  auto load = load_case(kCaseLoadingData + "/bad/bad-regex.ndjson");
  EXPECT_FALSE(load.conformance_case);
  EXPECT_TRUE(any_contains(load.errors, "bad-regex.ndjson:1: observe/0"));
}

TEST(CaseLoading, FindsCasesRecursivelyAndSelectsByPrefix) {
  auto suite = find_cases(kCaseLoadingData + "/suite");
  ASSERT_TRUE(suite.errors.empty());
  ASSERT_EQ(suite.cases.size(), 1u);
  EXPECT_EQ(select_cases(suite.cases, {"perm."}).size(), 1u);
  EXPECT_EQ(select_cases(suite.cases, {"hooks."}).size(), 0u);
  EXPECT_EQ(select_cases(suite.cases, {"perm.all"}, /*exact=*/true).size(), 0u);
  EXPECT_EQ(select_cases(suite.cases, {"perm.allow"}, /*exact=*/true).size(), 1u);
}

TEST(CaseLoading, ReportsEveryBadFileOfASuite) {
  auto suite = find_cases(kCaseLoadingData + "/bad");
  EXPECT_TRUE(suite.cases.empty());
  EXPECT_GE(suite.errors.size(), 4u);
}

TEST(CaseLoading, ReportsASuiteDirectoryThatDoesNotExist) {
  auto suite = find_cases(kCaseLoadingData + "/nowhere");
  ASSERT_EQ(suite.errors.size(), 1u);
  EXPECT_NE(suite.errors[0].find("not a directory"), std::string::npos);
}

}  // namespace
}  // namespace claude::conformance
