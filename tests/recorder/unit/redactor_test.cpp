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

// A tool_result whose content is a credentials file: the token fields sit inside a JSON string,
// their quotes escaped once per level of nesting.
TEST(RecorderRedactor, RedactsTokenFieldsInsideEscapedJsonAtAnyDepth) {
  const auto r = Redactor::with_builtin_rules();
  EXPECT_EQ(
      r.redact_copy(
          R"({"content":"{\"access_token\":\"ya29.FAKEfake\",\"refresh_token\":\"1//0FAKEfake\"}"})"),
      R"({"content":"{\"access_token\":\"<redacted:oauth-token>\",\"refresh_token\":\"<redacted:oauth-token>\"}"})");
  EXPECT_EQ(r.redact_copy(R"({"line":"{\"c\":\"{\\\"id_token\\\": \\\"eyFAKEfake\\\"}\"}"})"),
            R"({"line":"{\"c\":\"{\\\"id_token\\\": \\\"<redacted:oauth-token>\\\"}\"}"})");
}

TEST(RecorderRedactor, RedactsTokenValuesWrittenWithJsonEscapes) {
  const auto r = Redactor::with_builtin_rules();
  EXPECT_EQ(r.redact_copy(R"({"refresh_token":"1\/\/0FAKE\u0066ake"})"),
            R"({"refresh_token":"<redacted:oauth-token>"})");
  EXPECT_EQ(r.redact_copy(R"({"k":"sk\u002dant\u002dapi03\u002dFAKEfakeFAKE"})"),
            R"({"k":"<redacted:api-key>"})");
  EXPECT_EQ(r.redact_copy(R"({"h":"Bearer abc\/DEF\/123456"})"),
            R"({"h":"Bearer <redacted:bearer-token>"})");
}

TEST(RecorderRedactor, RedactsABearerTokenAfterATabEvenWhenTheTabIsEscaped) {
  const auto r = Redactor::with_builtin_rules();
  EXPECT_EQ(r.redact_copy("Bearer\tFAKEFAKEFAKE"), "Bearer\t<redacted:bearer-token>");
  EXPECT_EQ(r.redact_copy(R"({"h":"Authorization:\tBearer\tFAKEFAKEFAKE"})"),
            R"({"h":"Authorization:\tBearer\t<redacted:bearer-token>"})");
}

TEST(RecorderRedactor, RedactsBasicAuthorizationCredentials) {
  const auto r = Redactor::with_builtin_rules();
  EXPECT_EQ(r.redact_copy("Authorization: Basic dXNlcjpwYXNzd29yZA=="),
            "Authorization: Basic <redacted:basic-auth>");
  EXPECT_EQ(r.redact_copy(R"({"authorization":"Basic dXNlcjpwYXNzd29yZA=="})"),
            R"({"authorization":"Basic <redacted:basic-auth>"})");
  EXPECT_EQ(r.redact_copy("basic functionality"), "basic functionality");
}

TEST(RecorderRedactor, RedactsTheUserInfoOfAUrl) {
  const auto r = Redactor::with_builtin_rules();
  EXPECT_EQ(r.redact_copy("git clone https://user:FAKEpass@example.com/x.git"),
            "git clone https://<redacted:url-userinfo>@example.com/x.git");
  EXPECT_EQ(r.redact_copy(R"({"u":"https:\/\/user:FAKEpass@example.com"})"),
            R"({"u":"https:\/\/<redacted:url-userinfo>@example.com"})");
  EXPECT_EQ(r.redact_copy("http://127.0.0.1:8080/v1@x"), "http://127.0.0.1:8080/v1@x");
}

TEST(RecorderRedactor, RedactsClientSecretsAndFormEncodedTokens) {
  const auto r = Redactor::with_builtin_rules();
  EXPECT_EQ(r.redact_copy(R"({"client_secret":"GOCSPX-FAKEfake"})"),
            R"({"client_secret":"<redacted:client-secret>"})");
  EXPECT_EQ(r.redact_copy(R"({"c":"{\"clientSecret\":\"FAKEfake\"}"})"),
            R"({"c":"{\"clientSecret\":\"<redacted:client-secret>\"}"})");
  EXPECT_EQ(r.redact_copy("grant_type=refresh_token&client_secret=FAKEfake&refresh_token=1//FAKE"),
            "grant_type=refresh_token&client_secret=<redacted:client-secret>"
            "&refresh_token=<redacted:oauth-token>");
}

}  // namespace
}  // namespace claude::recorder
