#include "claude/emulator/report.hpp"

#include <gtest/gtest.h>

#include "claude/base/json.hpp"
#include "claude/emulator/engine.hpp"

namespace claude::emulator {
namespace {

Report failed_report() {
  auto loaded = load_scenario_text(
      // Not strict: a strict run would end at the interrupt no step can take ("unexpected").
      "{\"scenario\":1,\"name\":\"r\",\"strict\":false}\n"
      R"({"expect":{"type":"control_request","request":{"subtype":"can_use_tool"}},"within_ms":10})"
      "\n",
      "r.ndjson");
  Engine engine(std::move(*loaded.scenario), parse_invocation(std::vector<std::string>{}), {});
  engine.start(0);
  engine.on_line(R"({"type":"control_request","request_id":"x","request":{"subtype":"interrupt"}})",
                 false, 1);
  engine.on_time(10);
  return engine.report();
}

TEST(Report, JsonNamesTheFailingStepExpectationAndFirstDifference) {
  const Json json = report_json(failed_report());
  EXPECT_EQ(json["report"], 1);
  EXPECT_EQ(json["verdict"], "fail");
  EXPECT_EQ(json["ending"]["exit"], 1);
  const Json& f = json["failure"];
  EXPECT_EQ(f["kind"], "timeout");
  EXPECT_EQ(f["location"], "r.ndjson:2");
  EXPECT_EQ(f["step"], 0);
  EXPECT_EQ(f["verb"], "expect");
  EXPECT_EQ(f["expected"]["request"]["subtype"], "can_use_tool");
  EXPECT_EQ(f["closest"]["first_difference"], "/request/subtype");
  EXPECT_EQ(f["closest"]["differences"][0]["actual"], "interrupt");
  EXPECT_EQ(json["leftover"].size(), 1u);
  EXPECT_EQ(json["transcript"][0]["dir"], "in");
  EXPECT_EQ(json["steps"][0]["status"], "failed");
}

TEST(Report, TextShowsLocationExpectedClosestAndDifference) {
  const std::string text = report_text(failed_report());
  EXPECT_NE(text.find("FAIL r"), std::string::npos);
  EXPECT_NE(text.find("r.ndjson:2: timeout"), std::string::npos);
  EXPECT_NE(text.find("expected: "), std::string::npos);
  EXPECT_NE(text.find("closest:  {\"type\":\"control_request\""), std::string::npos);
  EXPECT_NE(text.find("at /request/subtype: expected \"can_use_tool\", got \"interrupt\""),
            std::string::npos);
}

TEST(Report, InvalidUtf8IsReplacedNotThrown) {
  auto loaded = load_scenario_text("{\"scenario\":1}\n", "u.ndjson");
  Engine engine(std::move(*loaded.scenario), parse_invocation(std::vector<std::string>{}), {});
  engine.start(0);
  engine.on_line("\xff\xfe", false, 0);
  engine.on_eof(0);
  EXPECT_NO_THROW(base::dump_json(report_json(engine.report())));
}

}  // namespace
}  // namespace claude::emulator
