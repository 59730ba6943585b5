#include <gtest/gtest.h>

#include "claude/emulator/scenario.hpp"

namespace claude::emulator {
namespace {

LoadResult load(std::string_view text) {
  return load_scenario_text(text, "t.ndjson");
}

// The single error of a load that must fail.
LoadError only_error(std::string_view text) {
  auto result = load(text);
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.errors.size(), 1u);
  return result.errors.empty() ? LoadError{} : result.errors.front();
}

constexpr std::string_view kHeader = R"({"scenario":1,"name":"n"})"
                                     "\n";

TEST(ScenarioLoader, ReadsHeaderStepsCommentsAndBlankLines) {
  auto result = load(std::string("# a comment\n\n") + std::string(kHeader) +
                     "  # indented comment\n"
                     R"({"expect":{"type":"user"},"within_ms":50})"
                     "\n\n"
                     R"({"send":{"type":"result"}})"
                     "\n");
  ASSERT_TRUE(result.ok()) << result.errors.front().to_string();
  const Scenario& s = *result.scenario;
  EXPECT_EQ(s.header.name, "n");
  EXPECT_EQ(s.header.line, 3u);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[0].verb, Verb::expect);
  EXPECT_EQ(s.steps[0].line, 5u);
  EXPECT_EQ(s.steps[0].within_ms, 50);
  EXPECT_EQ(s.steps[1].verb, Verb::send);
  EXPECT_EQ(s.steps[1].line, 7u);
}

TEST(ScenarioLoader, HeaderDefaults) {
  auto result = load(kHeader);
  ASSERT_TRUE(result.ok());
  const Header& h = result.scenario->header;
  EXPECT_TRUE(h.auto_initialize);
  EXPECT_TRUE(h.strict);
  EXPECT_EQ(h.timeout_ms, 10000);
  EXPECT_EQ(h.protocol, Dialect::stream_json);
}

TEST(ScenarioLoader, HeaderFieldsAreRead) {
  auto result = load(
      R"({"scenario":1,"cli_version":"9.9.9","protocol":"jsonrpc","argv":{"require":["--verbose"],"forbid":["--print"]},"env":{"require":{"A":"1","B":{"$re":"x"}}},"auto_initialize":{"commands":[]},"ignore":[{"type":"keep_alive"}],"strict":false,"timeout_ms":250,"driver":{"prompt":"hi"}})");
  ASSERT_TRUE(result.ok()) << result.errors.front().to_string();
  const Header& h = result.scenario->header;
  EXPECT_EQ(h.cli_version, "9.9.9");
  EXPECT_EQ(h.protocol, Dialect::jsonrpc);
  EXPECT_EQ(h.argv_require, std::vector<std::string>{"--verbose"});
  EXPECT_EQ(h.argv_forbid, std::vector<std::string>{"--print"});
  EXPECT_EQ(h.env_require.size(), 2u);
  ASSERT_TRUE(h.initialize_response);
  EXPECT_EQ(h.ignore.size(), 1u);
  EXPECT_FALSE(h.strict);
  EXPECT_EQ(h.timeout_ms, 250);
  EXPECT_TRUE(h.driver);
}

TEST(ScenarioLoader, WrongVersionNamesTheLine) {
  auto e = only_error("\n{\"scenario\":2}\n");
  EXPECT_EQ(e.file, "t.ndjson");
  EXPECT_EQ(e.line, 2u);
  EXPECT_NE(e.reason.find("unsupported scenario version 2"), std::string::npos);
}

TEST(ScenarioLoader, MissingHeaderIsAnError) {
  auto e = only_error(R"({"send":{}})");
  EXPECT_EQ(e.line, 1u);
  EXPECT_NE(e.reason.find("header"), std::string::npos);
}

TEST(ScenarioLoader, EmptyFileIsAnError) {
  auto e = only_error("# nothing\n");
  EXPECT_NE(e.reason.find("empty"), std::string::npos);
}

TEST(ScenarioLoader, UnknownHeaderFieldIsAnError) {
  auto e = only_error(R"({"scenario":1,"strcit":true})");
  EXPECT_NE(e.reason.find("unknown header field 'strcit'"), std::string::npos);
}

TEST(ScenarioLoader, InvalidJsonNamesFileAndLine) {
  auto e = only_error(std::string(kHeader) + "{\"send\":\n");
  EXPECT_EQ(e.line, 2u);
  EXPECT_NE(e.reason.find("invalid JSON"), std::string::npos);
  EXPECT_EQ(e.to_string().rfind("t.ndjson:2: invalid JSON", 0), 0u);
}

TEST(ScenarioLoader, UnknownVerbIsAnError) {
  auto e = only_error(std::string(kHeader) + R"({"sned":{}})");
  EXPECT_EQ(e.line, 2u);
  EXPECT_NE(e.reason.find("unknown verb"), std::string::npos);
  EXPECT_NE(e.reason.find("'sned'"), std::string::npos);
}

TEST(ScenarioLoader, TwoVerbsOnOneLineIsAnError) {
  auto e = only_error(std::string(kHeader) + R"({"send":{},"expect":{}})");
  EXPECT_NE(e.reason.find("two verbs on one line"), std::string::npos);
}

TEST(ScenarioLoader, UnknownModifierIsAnError) {
  auto e = only_error(std::string(kHeader) + R"({"send":{},"within_ms":5})");
  EXPECT_NE(e.reason.find("unknown field 'within_ms' for verb 'send'"), std::string::npos);
}

TEST(ScenarioLoader, BadPatternOperatorIsAnError) {
  auto e = only_error(std::string(kHeader) + R"({"expect":{"type":{"$regex":"u"}}})");
  EXPECT_NE(e.reason.find("unknown pattern operator $regex"), std::string::npos);
  EXPECT_NE(e.reason.find("/type"), std::string::npos);
}

TEST(ScenarioLoader, InvalidRe2IsAnError) {
  auto e = only_error(std::string(kHeader) + R"({"expect":{"type":{"$re":"[a-"}}})");
  EXPECT_NE(e.reason.find("invalid RE2"), std::string::npos);
}

TEST(ScenarioLoader, UnknownVariableIsAnError) {
  auto e = only_error(std::string(kHeader) + R"({"send":{"id":"${req}"}})");
  EXPECT_NE(e.reason.find("unknown variable 'req'"), std::string::npos);
}

TEST(ScenarioLoader, VariableCapturedEarlierIsKnown) {
  auto result = load(std::string(kHeader) + R"({"expect":{"request_id":{"$capture":"req"}}})"
                                            "\n"
                                            R"({"send":{"id":"${req}"}})"
                                            "\n"
                                            R"({"expect":{"id":{"$var":"req"}}})");
  EXPECT_TRUE(result.ok());
}

TEST(ScenarioLoader, RequestNameIsAVariableAndCancelNeedsIt) {
  EXPECT_TRUE(load(std::string(kHeader) + R"({"request":{"subtype":"can_use_tool"},"as":"p"})"
                                          "\n"
                                          R"({"cancel":"p"})")
                  .ok());
  auto e = only_error(std::string(kHeader) + R"({"cancel":"p"})");
  EXPECT_NE(e.reason.find("no earlier request named 'p'"), std::string::npos);
}

TEST(ScenarioLoader, RequestNeedsASubtypeOrInJsonrpcAMethod) {
  EXPECT_NE(only_error(std::string(kHeader) + R"({"request":{}})").reason.find("subtype"),
            std::string::npos);
  EXPECT_NE(
      only_error("{\"scenario\":1,\"protocol\":\"jsonrpc\"}\n{\"request\":{\"subtype\":\"x\"}}")
          .reason.find("method"),
      std::string::npos);
}

TEST(ScenarioLoader, RespondNeedsAnEarlierExpect) {
  auto e = only_error(std::string(kHeader) + R"({"respond":{}})");
  EXPECT_NE(e.reason.find("no expect comes before"), std::string::npos);
}

TEST(ScenarioLoader, StepsAfterExitAreNeverReached) {
  auto e = only_error(std::string(kHeader) + "{\"exit\":0}\n{\"send\":{}}");
  EXPECT_EQ(e.line, 3u);
  EXPECT_NE(e.reason.find("never reached"), std::string::npos);
}

TEST(ScenarioLoader, VerbArgumentsAreChecked) {
  EXPECT_FALSE(load(std::string(kHeader) + R"({"exit":256})").ok());
  EXPECT_FALSE(load(std::string(kHeader) + R"({"kill":"SIGNOPE"})").ok());
  EXPECT_FALSE(load(std::string(kHeader) + R"({"sleep_ms":-1})").ok());
  EXPECT_FALSE(load(std::string(kHeader) + R"({"raw":1})").ok());
  EXPECT_FALSE(load(std::string(kHeader) + R"({"hang":false})").ok());
  EXPECT_FALSE(load(std::string(kHeader) + R"({"send":{},"chunks":[0]})").ok());
  EXPECT_FALSE(load(std::string(kHeader) + R"({"send":{},"gap_ms":3})").ok());
  EXPECT_FALSE(load(std::string(kHeader) + R"({"expect":{},"within_ms":0})").ok());
}

TEST(ScenarioLoader, EveryErrorIsReportedNotJustTheFirst) {
  auto result = load(std::string(kHeader) + "{\"sned\":1}\n{\"exit\":\"x\"}\n");
  ASSERT_EQ(result.errors.size(), 2u);
  EXPECT_EQ(result.errors[0].line, 2u);
  EXPECT_EQ(result.errors[1].line, 3u);
}

TEST(ScenarioLoader, KillTakesSignalNamesWithOrWithoutPrefix) {
  auto result = load(std::string(kHeader) + R"({"kill":"SEGV"})");
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(result.scenario->steps[0].number, *signal_number("SIGSEGV"));
}

TEST(ScenarioLoader, CrlfLinesAreAccepted) {
  EXPECT_TRUE(load("{\"scenario\":1}\r\n{\"exit\":0}\r\n").ok());
}

TEST(ScenarioLoader, MissingFileIsAnErrorWithLineZero) {
  auto result = load_scenario_file("/nonexistent/x.ndjson");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(result.errors[0].line, 0u);
  EXPECT_NE(result.errors[0].reason.find("cannot open"), std::string::npos);
}

TEST(ScenarioLoader, ToNdjsonRoundTrips) {
  const std::string text =
      std::string(R"({"scenario":1,"name":"r","strict":false,"timeout_ms":99})") + "\n" +
      R"({"expect":{"type":"control_request","request_id":{"$capture":"id"}},"within_ms":5})" +
      "\n" + R"({"respond":{"ok":"${id}"}})" + "\n" +
      R"({"send":{"type":"x"},"chunks":[2,3],"gap_ms":1})" + "\n" +
      R"({"request":{"subtype":"can_use_tool"},"as":"p","expect_response":{"subtype":"success"}})" +
      "\n" + R"({"cancel":"p"})" + "\n" + R"({"kill":"SIGSEGV"})" + "\n";
  auto first = load(text);
  ASSERT_TRUE(first.ok()) << first.errors.front().to_string();
  const std::string written = to_ndjson(*first.scenario);
  auto second = load(written);
  ASSERT_TRUE(second.ok()) << written;
  EXPECT_EQ(to_ndjson(*second.scenario), written);
  EXPECT_EQ(second.scenario->steps.size(), 6u);
}

TEST(ScenarioLoader, ReadCliVersionReadsTheHeader) {
  EXPECT_EQ(read_cli_version("tests/emulator/data/version-only.ndjson"), "1.2.3");
  EXPECT_FALSE(read_cli_version("/nonexistent").has_value());
}

}  // namespace
}  // namespace claude::emulator
