// harness lint's shape checks: sent messages against the compiled-in shapes of CLI 2.1.332
// (scenarios/recorded/cli-2.1.332/shapes.json).
#include "claude/emulator/message_shapes.hpp"

#include <gtest/gtest.h>

namespace claude::emulator {
namespace {

std::vector<ShapeFinding> check(const std::string& step, bool strict = false) {
  const std::string text = "{\"scenario\":1,\"cli_version\":\"2.1.332\"}\n" + step + "\n";
  auto loaded = load_scenario_text(text, "t.ndjson");
  EXPECT_TRUE(loaded.ok()) << (loaded.errors.empty() ? "" : loaded.errors[0].to_string());
  if (!loaded.ok()) return {};
  return check_message_shapes(*loaded.scenario, strict);
}

std::string reasons(const std::vector<ShapeFinding>& findings) {
  std::string out;
  for (const auto& f : findings) out += std::to_string(f.line) + ": " + f.reason + "\n";
  return out;
}

TEST(MessageShapes, AShapedResultIsClean) {
  EXPECT_EQ(reasons(check(
                R"({"send":{"type":"result","subtype":"success","is_error":false,"result":"hi",)"
                R"("session_id":"s","modelUsage":{"claude-x":{"inputTokens":1}},"num_turns":1}})")),
            "");
}

TEST(MessageShapes, TypoOfTheTypeKeyNamesTheKey) {
  const auto findings = check(R"({"send":{"tpye":"assistant","message":{}}})");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].line, 2u);
  EXPECT_NE(findings[0].reason.find("unknown key 'tpye' (did you mean 'type'?)"), std::string::npos)
      << findings[0].reason;
}

TEST(MessageShapes, TypoOfATypeValueSuggestsTheType) {
  const auto findings = check(R"({"send":{"type":"reslt","subtype":"success"}})");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].reason.find("\"type\":\"reslt\" is no message type CLI 2.1.332 sends "
                                    "(did you mean 'result'?)"),
            std::string::npos)
      << findings[0].reason;
}

TEST(MessageShapes, TypoOfASubtypeSuggestsTheKind) {
  const auto findings = check(R"({"send":{"type":"result","subtype":"sucess"}})");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].reason.find("did you mean 'result/success'?"), std::string::npos)
      << findings[0].reason;
}

TEST(MessageShapes, UnknownKeyCloseToAKnownOneIsReportedAtItsDepth) {
  auto top = check(R"({"send":{"type":"result","subtype":"success","sesion_id":"s"}})");
  ASSERT_EQ(top.size(), 1u) << reasons(top);
  EXPECT_NE(top[0].reason.find("unknown key 'sesion_id' at / (did you mean 'session_id'?)"),
            std::string::npos)
      << top[0].reason;
  auto nested =
      check(R"({"send":{"type":"assistant","message":{"role":"assistant","contnet":[]}}})");
  ASSERT_EQ(nested.size(), 1u) << reasons(nested);
  EXPECT_NE(nested[0].reason.find("'contnet' at /message (did you mean 'content'?)"),
            std::string::npos)
      << nested[0].reason;
}

TEST(MessageShapes, WrongTypeOfAFieldIsReported) {
  const auto findings = check(R"({"send":{"type":"result","subtype":"success","is_error":"no"}})");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].reason, "/is_error is string; CLI 2.1.332 sends boolean");
}

TEST(MessageShapes, EmptyModelUsageIsReported) {
  const auto findings = check(R"({"send":{"type":"result","subtype":"success","modelUsage":{}}})");
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_NE(findings[0].reason.find("/modelUsage is {}; CLI 2.1.332 never sends it empty"),
            std::string::npos)
      << findings[0].reason;
}

TEST(MessageShapes, SubstitutedValuesAndMalformedStepsAreNotChecked) {
  EXPECT_EQ(
      reasons(check(R"({"expect":{"type":"user","session_id":{"$capture":"e"}}})"
                    "\n"
                    R"({"send":{"type":"result","subtype":"success","is_error":{"$var":"e"}}})")),
      "");
  EXPECT_EQ(reasons(check(R"({"send":{"type":"reslt"},"malformed":"the SDK must skip it"})")), "");
}

TEST(MessageShapes, UnrecordedKindsAndMissingFieldsOnlyInStrictMode) {
  const std::string step = R"({"send":{"type":"keep_alive"}})";
  EXPECT_EQ(reasons(check(step)), "");
  EXPECT_NE(reasons(check(step, true)).find("not in CLI 2.1.332's recordings"), std::string::npos);
  const std::string thin = R"({"send":{"type":"result","subtype":"success"}})";
  EXPECT_EQ(reasons(check(thin)), "");
  EXPECT_NE(reasons(check(thin, true)).find("/session_id is missing"), std::string::npos);
}

TEST(ScenarioTypos, UnknownStepKeysSuggestTheCloseOne) {
  auto loaded = load_scenario_text(
      "{\"scenario\":1}\n{\"sned\":{}}\n{\"expect\":{},\"withn_ms\":5}\n", "t.ndjson");
  ASSERT_FALSE(loaded.ok());
  ASSERT_EQ(loaded.errors.size(), 2u);
  EXPECT_NE(loaded.errors[0].reason.find("'sned' (did you mean 'send'?)"), std::string::npos)
      << loaded.errors[0].reason;
  EXPECT_NE(
      loaded.errors[1].reason.find("'withn_ms' for verb 'expect' (did you mean 'within_ms'?)"),
      std::string::npos)
      << loaded.errors[1].reason;
}

}  // namespace
}  // namespace claude::emulator
