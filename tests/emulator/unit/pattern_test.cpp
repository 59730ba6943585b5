#include "claude/emulator/pattern.hpp"

#include <gtest/gtest.h>

namespace claude::emulator {
namespace {

Json J(const char* text) {
  return Json::parse(text);
}

bool matches(const char* pattern, const char* value) {
  Bindings bindings;
  return match(J(pattern), J(value), bindings).matched;
}

TEST(Pattern, ObjectMatchesSupersetWithExtraKeys) {
  EXPECT_TRUE(matches(R"({"type":"user"})", R"({"type":"user","session_id":"x"})"));
}

TEST(Pattern, ObjectFailsWhenAKeyIsMissing) {
  EXPECT_FALSE(matches(R"({"type":"user","uuid":"a"})", R"({"type":"user"})"));
}

TEST(Pattern, ArraysMatchElementWiseAndNeedTheSameLength) {
  EXPECT_TRUE(matches(R"([{"type":"text"},2])", R"([{"type":"text","text":"x"},2])"));
  EXPECT_FALSE(matches(R"([1,2])", R"([1,2,3])"));
  EXPECT_FALSE(matches(R"([1,2])", R"([2,1])"));
}

TEST(Pattern, ScalarsMatchExactlyAndNumbersByValue) {
  EXPECT_TRUE(matches("1", "1.0"));
  EXPECT_FALSE(matches(R"("1")", "1"));
  EXPECT_FALSE(matches("true", "1"));
  EXPECT_TRUE(matches("null", "null"));
}

TEST(Pattern, ReFindsAnywhereInAString) {
  EXPECT_TRUE(matches(R"({"id":{"$re":"^req_[0-9]+_"}})", R"({"id":"req_1_abcd"})"));
  EXPECT_FALSE(matches(R"({"id":{"$re":"^req_"}})", R"({"id":"x_req_"})"));
  EXPECT_FALSE(matches(R"({"id":{"$re":"1"}})", R"({"id":1})"));
}

TEST(Pattern, AnyNeedsThePresenceOfTheKey) {
  EXPECT_TRUE(matches(R"({"a":{"$any":true}})", R"({"a":null})"));
  EXPECT_FALSE(matches(R"({"a":{"$any":true}})", R"({})"));
}

TEST(Pattern, AbsentNeedsTheKeyToBeMissing) {
  EXPECT_TRUE(matches(R"({"a":{"$absent":true}})", R"({"b":1})"));
  EXPECT_FALSE(matches(R"({"a":{"$absent":true}})", R"({"a":null})"));
}

TEST(Pattern, TypeDistinguishesIntegerFromNumber) {
  EXPECT_TRUE(matches(R"({"$type":"integer"})", "3"));
  EXPECT_FALSE(matches(R"({"$type":"integer"})", "3.5"));
  EXPECT_TRUE(matches(R"({"$type":"number"})", "3.5"));
  EXPECT_TRUE(matches(R"({"$type":"object"})", "{}"));
  EXPECT_FALSE(matches(R"({"$type":"string"})", "[]"));
}

TEST(Pattern, CaptureBindsOnlyWhenTheWholePatternMatches) {
  Bindings bindings;
  EXPECT_FALSE(
      match(J(R"({"id":{"$capture":"id"},"type":"x"})"), J(R"({"id":"1","type":"y"})"), bindings)
          .matched);
  EXPECT_TRUE(bindings.empty());
  EXPECT_TRUE(
      match(J(R"({"id":{"$capture":"id"},"type":"x"})"), J(R"({"id":"1","type":"x"})"), bindings)
          .matched);
  EXPECT_EQ(bindings.at("id"), "1");
}

TEST(Pattern, VarComparesDeeplyIgnoringKeyOrder) {
  Bindings bindings{{"v", J(R"({"a":1,"b":[1,2]})")}};
  EXPECT_TRUE(match(J(R"({"x":{"$var":"v"}})"), J(R"({"x":{"b":[1,2],"a":1}})"), bindings).matched);
  EXPECT_FALSE(match(J(R"({"x":{"$var":"v"}})"), J(R"({"x":{"a":1}})"), bindings).matched);
}

TEST(Pattern, VarMayReadACaptureMadeEarlierInTheSamePattern) {
  Bindings bindings;
  EXPECT_TRUE(
      match(J(R"({"a":{"$capture":"n"},"b":{"$var":"n"}})"), J(R"({"a":5,"b":5})"), bindings)
          .matched);
}

TEST(Pattern, FirstDifferenceIsAJsonPointerWithAReason) {
  Bindings bindings;
  auto result = match(J(R"({"request":{"subtype":"can_use_tool"}})"),
                      J(R"({"request":{"subtype":"interrupt"}})"), bindings);
  ASSERT_FALSE(result.matched);
  ASSERT_TRUE(result.first_difference);
  EXPECT_EQ(result.first_difference->pointer, "/request/subtype");
  EXPECT_EQ(result.first_difference->reason, R"(expected "can_use_tool", got "interrupt")");
  EXPECT_EQ(result.first_difference->actual, Json("interrupt"));
}

TEST(Pattern, PointerTokensAreEscaped) {
  Bindings bindings;
  auto result = match(J(R"({"a/b":{"c~d":1}})"), J(R"({"a/b":{"c~d":2}})"), bindings);
  EXPECT_EQ(result.first_difference->pointer, "/a~1b/c~0d");
}

TEST(Pattern, MissingKeyHasNoActualValue) {
  Bindings bindings;
  auto result = match(J(R"({"a":1})"), J(R"({})"), bindings);
  EXPECT_EQ(result.first_difference->reason, "missing");
  EXPECT_FALSE(result.first_difference->actual.has_value());
}

TEST(Pattern, DifferencesListsEveryMismatchInOrder) {
  auto found =
      differences(J(R"({"a":1,"b":{"c":2},"d":3})"), J(R"({"a":0,"b":{"c":2},"d":4})"), Bindings{});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].pointer, "/a");
  EXPECT_EQ(found[1].pointer, "/d");
}

TEST(Pattern, ScorePrefersTheCloserCandidate) {
  Bindings bindings;
  const Json pattern = J(R"({"type":"control_request","request":{"subtype":"set_model"}})");
  const auto near =
      match(pattern, J(R"({"type":"control_request","request":{"subtype":"x"}})"), bindings);
  const auto far = match(pattern, J(R"({"type":"user"})"), bindings);
  EXPECT_GT(near.score, far.score);
}

TEST(PatternCheck, RejectsUnknownOperator) {
  auto error = check_pattern(J(R"({"a":{"$regex":"x"}})"));
  ASSERT_TRUE(error);
  EXPECT_EQ(error->pointer, "/a");
  EXPECT_NE(error->reason.find("unknown pattern operator $regex"), std::string::npos);
}

TEST(PatternCheck, RejectsInvalidRe2) {
  auto error = check_pattern(J(R"({"$re":"(unclosed"})"));
  ASSERT_TRUE(error);
  EXPECT_NE(error->reason.find("invalid RE2"), std::string::npos);
}

TEST(PatternCheck, RejectsBadOperatorArguments) {
  EXPECT_TRUE(check_pattern(J(R"({"$type":"float"})")));
  EXPECT_TRUE(check_pattern(J(R"({"$any":1})")));
  EXPECT_TRUE(check_pattern(J(R"({"$capture":""})")));
}

TEST(PatternCheck, CollectsCapturesAndVars) {
  PatternNames names;
  EXPECT_FALSE(check_pattern(J(R"([{"$capture":"a"},{"x":{"$var":"b"}}])"), &names));
  EXPECT_EQ(names.captures, std::vector<std::string>{"a"});
  EXPECT_EQ(names.vars, std::vector<std::string>{"b"});
}

TEST(PatternCheck, MultiKeyDollarObjectsAreLiteralObjects) {
  EXPECT_FALSE(check_pattern(J(R"({"$schema":"x","type":"object"})")));
}

}  // namespace
}  // namespace claude::emulator
