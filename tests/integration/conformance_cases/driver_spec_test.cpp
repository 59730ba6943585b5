// The C++ driver's reading of driver specs (docs/drivers.md §2): what it accepts, what is a bad
// spec (exit 2) and what it refuses as unsupported (exit 4).
#include "driver_spec.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "driver_run.hpp"
#include "json_superset.hpp"

namespace claude::driver {
namespace {

using nlohmann::json;

TEST(DriverSpec, PromptSpecParsesWithDefaults) {
  DriverSpec spec = parse_driver_spec(json{{"prompt", "hi"}});
  ASSERT_TRUE(spec.prompt);
  EXPECT_EQ(*spec.prompt, "hi");
  EXPECT_EQ(spec.timeout_ms, 20000);
  EXPECT_FALSE(spec.can_use_tool);
  EXPECT_FALSE(spec.has_callbacks());
}

TEST(DriverSpec, PromptAndTurnsTogetherIsABadSpec) {
  EXPECT_THROW(parse_driver_spec(json{{"prompt", "a"}, {"turns", {{{"text", "b"}}}}}), SpecError);
  EXPECT_THROW(parse_driver_spec(json::object()), SpecError);
}

TEST(DriverSpec, TextTurnBecomesAUserFrameWithOneTextBlock) {
  DriverSpec spec = parse_driver_spec(json::parse(R"({"turns":[{"text":"one"},{"text":"two"}]})"));
  ASSERT_EQ(spec.turns.size(), 2u);
  EXPECT_EQ(spec.turns[0].frame["message"]["content"][0]["text"], "one");
  EXPECT_EQ(spec.turns[0].frame["type"], "user");
  EXPECT_EQ(spec.turns[0].when.kind, Trigger::Kind::start);
  // Turn n waits for the n-th result.
  EXPECT_EQ(spec.turns[1].when.kind, Trigger::Kind::message);
  EXPECT_EQ(spec.turns[1].when.nth, 1);
  EXPECT_EQ(spec.turns[1].when.pattern, json({{"type", "result"}}));
  EXPECT_FALSE(spec.end_input);
}

TEST(DriverSpec, TriggersParse) {
  DriverSpec spec = parse_driver_spec(json::parse(
      R"({"prompt":"p","control":[{"call":"interrupt","when":{"message":{"type":"assistant"},"nth":2,"delay_ms":50}},
          {"call":"close","when":{"delay_ms":10}},{"call":"mcp_status","when":"never"}]})"));
  ASSERT_EQ(spec.control.size(), 3u);
  EXPECT_EQ(spec.control[0].when.kind, Trigger::Kind::message);
  EXPECT_EQ(spec.control[0].when.nth, 2);
  EXPECT_EQ(spec.control[0].when.delay_ms, 50);
  EXPECT_EQ(spec.control[1].when.kind, Trigger::Kind::delay);
  EXPECT_EQ(spec.control[2].when.kind, Trigger::Kind::never);
}

TEST(DriverSpec, BadTriggerNamesTheMember) {
  try {
    (void)parse_driver_spec(
        json::parse(R"({"prompt":"p","control":[{"call":"interrupt","when":"later"}]})"));
    FAIL() << "expected SpecError";
  } catch (const SpecError& e) {
    EXPECT_NE(std::string(e.what()).find("control[0].when"), std::string::npos) << e.what();
  }
}

TEST(DriverSpec, DenyWithoutMessageIsABadSpec) {
  EXPECT_THROW(
      parse_driver_spec(json::parse(R"({"prompt":"p","can_use_tool":[{"behavior":"deny"}]})")),
      SpecError);
}

TEST(DriverSpec, UnknownMembersAreUnsupportedNotIgnored) {
  EXPECT_THROW(parse_driver_spec(json::parse(R"({"prompt":"p","elicitation":[]})")),
               UnsupportedFeature);
  EXPECT_THROW(
      parse_driver_spec(json::parse(R"({"prompt":"p","control":[{"call":"side_question"}]})")),
      UnsupportedFeature);
  EXPECT_THROW(parse_driver_spec(
                   json::parse(R"({"prompt":"p","options":{"agent_progress_summaries":true}})")),
               UnsupportedFeature);
  EXPECT_THROW(parse_driver_spec(json::parse(
                   R"({"prompt":"p","mcp_servers":[{"name":"s","tools":[{"name":"t",
                       "returns":{"content":[],"structuredContent":{}}}]}]})")),
               UnsupportedFeature);
}

TEST(DriverSpec, OptionsOfTheWrongTypeAreABadSpec) {
  DriverSpec spec =
      parse_driver_spec(json::parse(R"({"prompt":"p","options":{"max_turns":"two"}})"));
  EXPECT_THROW(check_options(spec), SpecError);
  DriverSpec good = parse_driver_spec(json::parse(
      R"({"prompt":"p","options":{"max_turns":2,"extra_args":{"debug":null,"x":"y"},"env":{"A":"b"}}})"));
  EXPECT_NO_THROW(check_options(good));
}

TEST(JsonSupersetMatch, ObjectsArraysAndScalars) {
  const json value =
      json::parse(R"({"type":"system","subtype":"init","tools":["Bash","Read"],"n":1})");
  EXPECT_TRUE(json_superset_match(json::parse(R"({"type":"system"})"), value));
  EXPECT_TRUE(json_superset_match(json::parse(R"({"tools":["Bash","Read"],"n":1.0})"), value));
  EXPECT_FALSE(json_superset_match(json::parse(R"({"tools":["Bash"]})"), value));
  EXPECT_FALSE(json_superset_match(json::parse(R"({"subtype":"status"})"), value));
  EXPECT_FALSE(json_superset_match(json::parse(R"({"missing":null})"), value));
}

}  // namespace
}  // namespace claude::driver
