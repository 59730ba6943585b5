#include "claude/recorder/redactor.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace claude::recorder {
namespace {

std::filesystem::path data_file(const char* name) {
  return std::filesystem::path(RECORDER_TEST_DATA_DIR) / name;
}

TEST(RecorderRedactor, ReplacesAnthropicApiKeysKeepingTheRuleName) {
  const auto r = Redactor::with_builtin_rules();
  EXPECT_EQ(r.redact_copy(R"({"key":"sk-ant-api03-FAKEfakeFAKE_fake-123"})"),
            R"({"key":"<redacted:api-key>"})");
}

TEST(RecorderRedactor, ReplacesOauthTokensInKeysAndJsonFields) {
  const auto r = Redactor::with_builtin_rules();
  EXPECT_EQ(r.redact_copy("sk-ant-oat01-FAKEtokenFAKE"), "<redacted:oauth-token>");
  EXPECT_EQ(r.redact_copy(R"({"access_token": "abcd1234", "n":1})"),
            R"({"access_token": "<redacted:oauth-token>", "n":1})");
}

TEST(RecorderRedactor, ReplacesOnlyTheTokenOfABearerCredential) {
  const auto r = Redactor::with_builtin_rules();
  EXPECT_EQ(r.redact_copy("Authorization: Bearer abc.DEF-123_456"),
            "Authorization: Bearer <redacted:bearer-token>");
}

TEST(RecorderRedactor, ReportsNoChangeForTextWithoutSecrets) {
  const auto r = Redactor::with_builtin_rules();
  std::string out = "untouched";
  EXPECT_FALSE(r.redact(R"({"type":"assistant","text":"sk-ant is a prefix"})", out));
  EXPECT_EQ(out, "untouched");
}

TEST(RecorderRedactor, RedactsEveryOccurrenceOfALiteral) {
  Redactor r;
  r.add_literal("env:MY_TOKEN", "a.b*c+d(e)");
  EXPECT_EQ(r.redact_copy("x a.b*c+d(e) y a.b*c+d(e)"),
            "x <redacted:env:MY_TOKEN> y <redacted:env:MY_TOKEN>");
}

TEST(RecorderRedactor, IgnoresLiteralsTooShortToBeSecrets) {
  Redactor r;
  r.add_literal("env:SHORT_KEY", "1234567");
  EXPECT_EQ(r.rule_count(), 0u);
}

TEST(RecorderRedactor, LoadsUserRulesFromATabSeparatedFile) {
  auto r = Redactor::with_builtin_rules();
  r.add_rules_file(data_file("user_rules.tsv"));
  EXPECT_EQ(r.redact_copy("customer 12-3456-78 mailed jane@example.com"),
            "customer <redacted:customer-id> mailed <redacted:email>");
}

TEST(RecorderRedactor, NamesFileAndLineOfABadRule) {
  Redactor r;
  try {
    r.add_rules_file(data_file("bad_rules.tsv"));
    FAIL() << "a bad rule must throw";
  } catch (const RedactionError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad_rules.tsv:4:"), std::string::npos) << what;
    EXPECT_NE(what.find("broken"), std::string::npos) << what;
  }
}

TEST(RecorderRedactor, RejectsALineWithoutATab) {
  Redactor r;
  try {
    r.add_rules_file(data_file("rule_without_tab.tsv"));
    FAIL() << "a line without a tab must throw";
  } catch (const RedactionError& e) {
    EXPECT_NE(std::string(e.what()).find("rule_without_tab.tsv:1:"), std::string::npos) << e.what();
  }
}

TEST(RecorderRedactor, ReportsAMissingRulesFile) {
  Redactor r;
  EXPECT_THROW(r.add_rules_file(data_file("no_such_file.tsv")), RedactionError);
}

TEST(RecorderRedactor, AdvancesPastRulesThatMatchTheEmptyString) {
  Redactor r;
  r.add_rule("maybe", "x*", "test");
  EXPECT_EQ(r.redact_copy("abxxc"), "ab<redacted:maybe>c");
}

}  // namespace
}  // namespace claude::recorder
