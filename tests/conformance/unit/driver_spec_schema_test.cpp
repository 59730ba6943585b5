#include "claude/conformance/driver_spec_schema.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

#include "claude/conformance/conformance_case.hpp"
#include "claude/conformance/json_schema.hpp"

namespace claude::conformance {
namespace {

const std::string kDriverSpecSchemaData = CONFORMANCE_TEST_DATA;

std::vector<std::string> problems(const char* spec) {
  return driver_spec_problems(Json::parse(spec));
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += s + "\n";
  return out;
}

TEST(DriverSpecSchema, APromptAloneIsAValidSpec) {
  EXPECT_TRUE(problems(R"({"prompt":"hi"})").empty());
}

TEST(DriverSpecSchema, PromptAndTurnsTogetherNamesTheRule) {
  EXPECT_EQ(joined(problems(R"({"prompt":"a","turns":[{"text":"b"}]})")),
            "driver spec /: exactly one of \"prompt\" (one-shot) or \"turns\" (streaming input)\n");
}

TEST(DriverSpecSchema, ADenyWithoutMessageIsReportedAtItsRule) {
  EXPECT_EQ(joined(problems(R"({"prompt":"a","can_use_tool":[{"behavior":"deny"}]})")),
            "driver spec /can_use_tool/0: a deny gives its \"message\"\n");
}

TEST(DriverSpecSchema, ABadObjectTriggerPointsAtTheMemberInside) {
  EXPECT_EQ(joined(problems(R"({"turns":[{"text":"a","when":{"delay_ms":-1}}]})")),
            "driver spec /turns/0/when/delay_ms: must be >= 0\n");
}

TEST(DriverSpecSchema, AWrongTriggerWordSaysWhatATriggerIs) {
  EXPECT_EQ(problems(R"({"turns":[{"text":"a","when":"soon"}]})").at(0),
            "driver spec /turns/0/when: a trigger is \"start\", \"never\", {\"delay_ms\": N} or "
            "{\"message\": PATTERN, \"nth\": N, \"delay_ms\": D}");
}

TEST(DriverSpecSchema, UnknownMembersAndOptionsArePointedAt) {
  EXPECT_EQ(joined(problems(R"({"prompt":"a","retries":2,"options":{"colour":"red"}})")),
            "driver spec /retries: unknown member\ndriver spec /options/colour: unknown member\n");
}

TEST(DriverSpecSchema, ControlCallsNeedTheirArguments) {
  EXPECT_EQ(joined(problems(R"({"prompt":"a","control":[{"call":"set_permission_mode"}]})")),
            "driver spec /control/0: needs the member \"args\"\n");
  EXPECT_EQ(
      joined(problems(R"({"prompt":"a","control":[{"call":"stop_task","args":{"task_id":7}}]})")),
      "driver spec /control/0/args/task_id: must be a string\n");
}

TEST(DriverSpecSchema, OptionTypesAreChecked) {
  EXPECT_EQ(joined(problems(R"({"prompt":"a","options":{"max_turns":"2","env":{"A":1}}})")),
            "driver spec /options/max_turns: must be an integer\n"
            "driver spec /options/env/A: must be a string\n");
}

TEST(DriverSpecSchema, EveryBundledConformanceCaseHasAValidSpec) {
  auto suite =
      find_cases(std::filesystem::path(CLAUDE_HARNESS_SOURCE_DIR) / "scenarios" / "conformance");
  std::size_t with_spec = 0;
  for (const auto& c : suite.cases) with_spec += c.driver.is_object() ? 1 : 0;
  EXPECT_GT(with_spec, 50u);
  for (const auto& e : suite.errors) EXPECT_EQ(e.find("driver spec"), std::string::npos) << e;
}

TEST(CaseLoading, ABadDriverSpecIsReportedWithFileLineAndMember) {
  auto load = load_case(kDriverSpecSchemaData + "/bad/bad-spec.ndjson");
  EXPECT_FALSE(load.conformance_case);
  EXPECT_EQ(
      joined(load.errors),
      kDriverSpecSchemaData +
          "/bad/bad-spec.ndjson:2: driver spec /can_use_tool/0: a deny gives its \"message\"\n" +
          kDriverSpecSchemaData +
          "/bad/bad-spec.ndjson:2: driver spec /hooks/0/when: unknown member\n");
}

TEST(JsonSchema, RefusesAKeywordItDoesNotImplement) {
  EXPECT_THROW(JsonSchema(Json::parse(R"({"type":"string","pattern":"^a"})")),
               std::invalid_argument);
  EXPECT_THROW(JsonSchema(Json::parse(R"({"$ref":"#/definitions/none"})")), std::invalid_argument);
}

TEST(JsonSchema, IntegralFloatsAreIntegers) {
  const JsonSchema schema(Json::parse(R"({"type":"integer"})"));
  EXPECT_TRUE(schema.validate(Json::parse("3.0")).empty());
  EXPECT_EQ(schema.validate(Json::parse("3.5")).size(), 1u);
}

}  // namespace
}  // namespace claude::conformance
