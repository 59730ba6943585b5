// The C++ driver's reading of driver specs (docs/drivers.md §2): the defaults it fills in and what
// it refuses as unsupported (exit 4). Whether a spec is valid is the harness's check
// (tests/conformance/unit/driver_spec_schema_test.cpp).
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

TEST(DriverSpec, McpResultMembersTheSdkWouldDropAreUnsupported) {
  EXPECT_THROW(parse_driver_spec(json::parse(
                   R"({"prompt":"p","mcp_servers":[{"name":"s","tools":[{"name":"t",
                       "returns":{"content":[],"structuredContent":{}}}]}]})")),
               UnsupportedFeature);
}

TEST(DriverSpec, EveryOptionMapsOntoTheSdk) {
  DriverSpec good = parse_driver_spec(json::parse(
      R"({"prompt":"p","options":{"max_turns":2,"extra_args":{"debug":null,"x":"y"},"env":{"A":"b"},
          "system_prompt":{"type":"preset","append":"more"},"allowed_tools":["Bash"]}})"));
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
