// The Redactor's literal prefilter changes what is scanned, never what is redacted: the built-in
// rules with their anchors must redact exactly like the same patterns run by RE2 alone, a secret
// is found at every offset of a chunk, and rules without a literal (users' rules) still run.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "claude/recorder/redactor.hpp"

namespace claude::recorder {
namespace {

// The built-in patterns as plain user rules: no anchor, RE2 on every text.
Redactor builtin_patterns_without_prefilter() {
  Redactor r;
  for (const auto& rule : Redactor::builtin_rules()) {
    r.add_rule(std::string(rule.name), rule.pattern, "test");
  }
  return r;
}

const std::vector<std::string>& secrets() {
  static const std::vector<std::string> kSecrets = {
      "sk-ant-api03-FAKEfake_FAKE-fake0123",
      "sk-ant-oat01-FAKEoauthFAKE",
      "Bearer abc.DEF-123_456",
      "bEaReR\tFAKEFAKEFAKE",
      R"("access_token":"fake1234")",
      R"("idToken" : "fake-id-token")",
      R"("oauthToken":"abcd")",
  };
  return kSecrets;
}

// Text that shares part of an anchor or of a pattern but is no secret.
const std::vector<std::string>& near_misses() {
  static const std::vector<std::string> kNearMisses = {
      "sk-ant",
      "sk_ant-api03-FAKEfakeFAKE",
      "sk-ant-short",
      "Bearer",
      "bearer short",
      "bearerFAKEFAKEFAKE",
      R"("token":"abcd")",
      R"("access_token":"ab")",
      "oken\"",
      "sk-anT-x",
  };
  return kNearMisses;
}

TEST(RecorderRedactorPrefilter, RedactsLikeThePlainPatternsOnRandomLines) {
  const auto prefiltered = Redactor::with_builtin_rules();
  const auto plain = builtin_patterns_without_prefilter();
  std::vector<std::string> fragments = {R"({"type":"assistant",)", " ", "\"", "text", "\\n"};
  fragments.insert(fragments.end(), secrets().begin(), secrets().end());
  fragments.insert(fragments.end(), near_misses().begin(), near_misses().end());
  std::mt19937 rng(11);
  std::uniform_int_distribution<std::size_t> pick(0, fragments.size() - 1);
  std::uniform_int_distribution<int> count_of(0, 8);
  for (int round = 0; round < 5000; ++round) {
    std::string line;
    for (int n = count_of(rng); n > 0; --n) line += fragments[pick(rng)];
    std::string expected, actual;
    const bool plain_matched = plain.redact(line, expected);
    ASSERT_EQ(prefiltered.redact(line, actual), plain_matched) << line;
    if (plain_matched) {
      ASSERT_EQ(actual, expected) << line;
      ASSERT_TRUE(prefiltered.may_match_any_line(line)) << line;
    }
  }
}

TEST(RecorderRedactorPrefilter, FindsASecretAtEveryOffsetOfAChunk) {
  const auto r = Redactor::with_builtin_rules();
  for (const std::string& secret : secrets()) {
    for (std::size_t offset = 0; offset <= 64; ++offset) {
      std::string chunk = "{\"a\":\"" + std::string(offset, 'x') + " " + secret + " \"}\n";
      chunk += R"({"type":"stream_event","event":{"delta":{"text":"Hello \"world\""}}})"
               "\n";
      ASSERT_TRUE(r.may_match_any_line(chunk)) << secret << " at " << offset;
      ASSERT_NE(r.redact_copy(chunk), chunk) << secret << " at " << offset;
    }
  }
}

TEST(RecorderRedactorPrefilter, RedactsNothingInLinesWithNearMissLiterals) {
  const auto r = Redactor::with_builtin_rules();
  for (const std::string& near_miss : near_misses()) {
    std::string out = "untouched";
    EXPECT_FALSE(r.redact("{\"text\":\"" + near_miss + "\"}", out)) << near_miss;
    EXPECT_EQ(out, "untouched");
  }
  // Without any anchor in it, a chunk is not even scanned by RE2.
  EXPECT_FALSE(r.may_match_any_line("sk_ant- bearex \"tokens\": sk-an t\n{\"x\":1}\n"));
}

TEST(RecorderRedactorPrefilter, AppliesUserRulesWithoutALiteralToEveryChunk) {
  auto r = Redactor::with_builtin_rules();
  r.add_rule("card", "[0-9]{16}", "test");
  r.add_rule("line-secret", "^secret=.*$", "test");
  EXPECT_FALSE(r.may_match_any_line("{\"n\":123456789012345}\nnot secret=1\n"));
  EXPECT_TRUE(r.may_match_any_line("{\"n\":1234567890123456}\n"));
  EXPECT_TRUE(r.may_match_any_line("{\"x\":1}\nsecret=hunter2\n"));
  EXPECT_EQ(r.redact_copy("card 1234567890123456 sk-ant-api03-FAKEfakeFAKE"),
            "card <redacted:card> <redacted:api-key>");
  EXPECT_EQ(r.redact_copy("secret=hunter2"), "<redacted:line-secret>");
}

TEST(RecorderRedactorPrefilter, FindsALiteralRuleAtEveryOffset) {
  Redactor r;
  r.add_literal("env:FAKE_KEY", "fake-value-0123");
  for (std::size_t offset = 0; offset <= 40; ++offset) {
    const std::string chunk = std::string(offset, 'f') + "fake-value-0123" + "\n{}\n";
    ASSERT_TRUE(r.may_match_any_line(chunk)) << offset;
    ASSERT_EQ(r.redact_copy(chunk), std::string(offset, 'f') + "<redacted:env:FAKE_KEY>\n{}\n");
  }
  EXPECT_FALSE(r.may_match_any_line("fake-value-012 fake-value_0123"));
}

TEST(RecorderRedactorPrefilter, LooksForALaterRulesLiteralInWhatEarlierRulesLeft) {
  Redactor r;
  r.add_rule("x", "abc", "test");
  r.add_literal("env:FAKE_TOKEN", "<redacted:x>-tail");
  EXPECT_EQ(r.redact_copy("abc-tail"), "<redacted:env:FAKE_TOKEN>");
}

}  // namespace
}  // namespace claude::recorder
