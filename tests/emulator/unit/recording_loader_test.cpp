#include <gtest/gtest.h>

#include <csignal>

#include "claude/base/json.hpp"
#include "claude/emulator/scenario.hpp"

namespace claude::emulator {
namespace {

constexpr std::string_view kRecordingHeader =
    R"({"recording":1,"argv":["claude"],"env":{},"cwd":"/","cli":"claude","cli_version":"2.1.332","started_at":"2026-01-01T00:00:00Z"})"
    "\n";

Scenario load_ok(std::string_view events) {
  auto result =
      load_scenario_text(std::string(kRecordingHeader) + std::string(events), "rec.ndjson");
  EXPECT_TRUE(result.ok()) << (result.errors.empty() ? "" : result.errors.front().to_string());
  return result.ok() ? std::move(*result.scenario) : Scenario{};
}

TEST(RecordingLoader, HeaderMakesARecordingScenarioWithoutAutoInitialize) {
  Scenario s = load_ok("");
  EXPECT_TRUE(s.from_recording);
  EXPECT_FALSE(s.header.auto_initialize);
  EXPECT_EQ(s.header.cli_version, "2.1.332");
  EXPECT_EQ(s.header.name, "rec.ndjson");
}

TEST(RecordingLoader, SdkControlRequestBecomesExpectWithCapturedId) {
  Scenario s = load_ok(
      R"({"t":0.1,"dir":"in","line":"{\"type\":\"control_request\",\"request_id\":\"abc\",\"request\":{\"subtype\":\"initialize\",\"hooks\":null}}"})"
      "\n");
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(s.steps[0].verb, Verb::expect);
  EXPECT_EQ(
      base::dump_json(s.steps[0].value),
      R"({"type":"control_request","request_id":{"$capture":"sdk_request_1"},"request":{"subtype":"initialize","hooks":{"$one_of":[{"$absent":true},null,{"$exact":{}}]},"sdkMcpServers":{"$one_of":[{"$absent":true},{"$exact":[]}]},"agents":{"$one_of":[{"$absent":true},null,{"$exact":{}}]},"appendSystemPrompt":{"$one_of":[{"$absent":true},null,""]},"jsonSchema":{"$one_of":[{"$absent":true},null]},"systemPrompt":{"$one_of":[{"$absent":true},"",{"$exact":[""]}]}}})");
  EXPECT_EQ(s.steps[0].line, 2u);
}

TEST(RecordingLoader, RecordedReplyToAnSdkRequestUsesTheCapturedId) {
  Scenario s = load_ok(
      R"({"t":0.1,"dir":"in","line":"{\"type\":\"control_request\",\"request_id\":\"abc\",\"request\":{\"subtype\":\"initialize\"}}"})"
      "\n"
      R"({"t":0.2,"dir":"out","line":"{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"abc\",\"response\":{}}}"})"
      "\n");
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[1].verb, Verb::send);
  EXPECT_FALSE(s.steps[1].verbatim);
  EXPECT_EQ(s.steps[1].value["response"]["request_id"], "${sdk_request_1}");
}

TEST(RecordingLoader, OtherCliLinesAreSentVerbatim) {
  Scenario s =
      load_ok(R"({"t":0.3,"dir":"out","line":"{\"type\":\"system\",  \"subtype\":\"init\"}"})"
              "\n");
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_TRUE(s.steps[0].verbatim);
  EXPECT_EQ(s.steps[0].text, "{\"type\":\"system\",  \"subtype\":\"init\"}\n");
}

TEST(RecordingLoader, SdkLinesAreGradedOnWhatTheySaid) {
  Scenario s = load_ok(
      R"({"t":0.1,"dir":"in","line":"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}"})"
      "\n"
      R"({"t":0.2,"dir":"in","line":"{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"cli-1\",\"response\":{\"behavior\":\"allow\"}}}"})"
      "\n");
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(
      base::dump_json(s.steps[0].value),
      R"({"type":"user","message":{"role":"user","content":{"$one_of":["hi",{"$exact":[{"type":"text","text":"hi"}]}]}},"parent_tool_use_id":{"$one_of":[{"$absent":true},null]}})");
  // Not knowing what it answers (no recorded CLI request), the answer is graded exactly.
  EXPECT_EQ(
      base::dump_json(s.steps[1].value),
      R"({"type":"control_response","response":{"subtype":"success","request_id":"cli-1","response":{"$exact":{"behavior":"allow"}}}})");
}

TEST(RecordingLoader, PiecesMarkedMoreAreJoined) {
  Scenario s = load_ok(R"({"t":0.1,"dir":"out","line":"{\"type\":","more":true})"
                       "\n"
                       R"({"t":0.1,"dir":"out","line":"\"x\"}"})"
                       "\n");
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(s.steps[0].text, "{\"type\":\"x\"}\n");
  EXPECT_EQ(s.steps[0].line, 2u);
}

TEST(RecordingLoader, Base64LinesAreDecoded) {
  // "\xff\xfe" + "ok" is not UTF-8, so the recorder wrote it as line_b64.
  Scenario s = load_ok(R"({"t":0.1,"dir":"out","line_b64":"//5vaw=="})"
                       "\n");
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(s.steps[0].text, std::string("\xff\xfe") + "ok\n");
}

TEST(RecordingLoader, PartialLinesAreRawWithoutNewline) {
  Scenario s = load_ok(R"({"t":0.1,"dir":"out","line":"{\"type\":","partial":true})"
                       "\n");
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(s.steps[0].verb, Verb::raw);
  EXPECT_EQ(s.steps[0].text, R"({"type":)");
}

TEST(RecordingLoader, StderrEofAndExitMapToSteps) {
  Scenario s = load_ok(R"({"t":0.1,"dir":"err","line":"warning"})"
                       "\n"
                       R"({"t":0.2,"eof":"in"})"
                       "\n"
                       R"({"t":0.2,"eof":"out"})"
                       "\n"
                       R"({"t":0.3,"exit":1})"
                       "\n");
  ASSERT_EQ(s.steps.size(), 3u);
  EXPECT_EQ(s.steps[0].verb, Verb::stderr_text);
  EXPECT_EQ(s.steps[0].text, "warning\n");
  EXPECT_EQ(s.steps[1].verb, Verb::expect_eof);
  EXPECT_EQ(s.steps[2].verb, Verb::exit);
  EXPECT_EQ(s.steps[2].number, 1);
}

TEST(RecordingLoader, OutsideKillBecomesHangAndCrashBecomesKill) {
  EXPECT_EQ(load_ok(R"({"t":1,"signal":"SIGTERM"})").steps.at(0).verb, Verb::hang);
  Scenario crash = load_ok(R"({"t":1,"signal":"SIGSEGV"})");
  EXPECT_EQ(crash.steps.at(0).verb, Verb::kill);
  EXPECT_EQ(crash.steps.at(0).number, SIGSEGV);
}

TEST(RecordingLoader, BadEventsNameTheirLine) {
  auto result =
      load_scenario_text(std::string(kRecordingHeader) + R"({"t":1,"dir":"sideways","line":""})" +
                             "\n" + R"({"t":1,"what":1})" + "\n",
                         "rec.ndjson");
  ASSERT_EQ(result.errors.size(), 2u);
  EXPECT_EQ(result.errors[0].line, 2u);
  EXPECT_EQ(result.errors[1].line, 3u);
  EXPECT_NE(result.errors[1].reason.find("unknown recording event"), std::string::npos);
}

// Recording fields are validated like scenario fields (issue 31).
std::string first_error(std::string_view text) {
  auto result = load_scenario_text(text, "rec.ndjson");
  return result.errors.empty() ? std::string() : result.errors.front().to_string();
}

TEST(RecordingLoader, ExitMustBeFrom0To255) {
  EXPECT_NE(first_error(std::string(kRecordingHeader) + R"({"t":1,"exit":99999})" + "\n")
                .find("rec.ndjson:2: \"exit\" must be an integer from 0 to 255, got 99999"),
            std::string::npos);
  EXPECT_NE(
      first_error(std::string(kRecordingHeader) + R"({"t":1,"exit":-1})" + "\n").find("0 to 255"),
      std::string::npos);
  EXPECT_EQ(first_error(std::string(kRecordingHeader) + R"({"t":1,"exit":255})" + "\n"), "");
}

TEST(RecordingLoader, TMustBeANonNegativeNumber) {
  EXPECT_NE(first_error(std::string(kRecordingHeader) + R"({"t":-5,"eof":"in"})" + "\n")
                .find("rec.ndjson:2: \"t\" must be a non-negative number of seconds, got -5"),
            std::string::npos);
  EXPECT_NE(first_error(std::string(kRecordingHeader) + R"({"t":"abc","eof":"in"})" + "\n")
                .find("got \"abc\""),
            std::string::npos);
}

TEST(RecordingLoader, HeaderStringsMustBePrintableAndAreQuotedEscaped) {
  const std::string header =
      R"({"recording":1,"argv":[],"env":{},"cwd":".","cli":"claude","cli_version":"\u001b[2J2.1.332","started_at":"x"})"
      "\n";
  const std::string error = first_error(header + R"({"t":1,"exit":0})" + "\n");
  EXPECT_NE(error.find("header \"cli_version\" must be a string of printable characters"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find('\x1b'), std::string::npos) << "the escape is quoted, not printed";
  EXPECT_NE(error.find("\\u001b"), std::string::npos) << error;
}

TEST(RecordingLoader, ARecordingWithoutItsExitEventLoadsWithATruncatedNote) {
  Scenario s = load_ok(R"({"t":0.1,"dir":"out","line":"x"})"
                       "\n");
  ASSERT_TRUE(s.truncated.has_value());
  EXPECT_NE(s.truncated->find("rec.ndjson:2: truncated recording"), std::string::npos)
      << *s.truncated;
  EXPECT_FALSE(load_ok(R"({"t":0.1,"exit":0})"
                       "\n")
                   .truncated.has_value());
}

TEST(RecordingLoader, OnlyATornLastLineIsDroppedAsTruncated) {
  Scenario s = load_ok(R"({"t":0.1,"dir":"out","line":"x"})"
                       "\n"
                       R"({"t":0.2,"dir":"out","li)");
  ASSERT_TRUE(s.truncated.has_value());
  EXPECT_NE(s.truncated->find("rec.ndjson:3: truncated recording: the last line is cut short"),
            std::string::npos)
      << *s.truncated;
  EXPECT_EQ(s.steps.size(), 1u);
  EXPECT_NE(first_error(std::string(kRecordingHeader) + R"({"t":0.2,"dir":"out","li)" + "\n" +
                        R"({"t":0.3,"exit":0})" + "\n")
                .find("rec.ndjson:2: invalid JSON"),
            std::string::npos);
}

TEST(RecordingLoader, AGapEventLoadsWithAnIncompleteNote) {
  Scenario s =
      load_ok(R"({"t":0.1,"dir":"out","line":"x"})"
              "\n"
              R"({"t":0.2,"gap":{"events":3,"bytes":120,"reason":"No space left on device"}})"
              "\n"
              R"({"t":0.3,"exit":0})"
              "\n");
  ASSERT_TRUE(s.truncated.has_value());
  EXPECT_NE(s.truncated->find("rec.ndjson:3: incomplete recording"), std::string::npos)
      << *s.truncated;
}

TEST(RecordingLoader, AConvertedCutRecordingKeepsItsTruncatedNote) {
  Scenario s = load_ok(R"({"t":0.1,"dir":"out","line":"x"})"
                       "\n");
  auto back = load_scenario_text(to_ndjson(s), "converted.ndjson");
  ASSERT_TRUE(back.ok()) << back.errors.front().to_string();
  EXPECT_EQ(back.scenario->truncated, s.truncated);
}

TEST(RecordingLoader, WrongVersionIsAnError) {
  auto result = load_scenario_text(R"({"recording":2})", "rec.ndjson");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_NE(result.errors[0].reason.find("unsupported recording version"), std::string::npos);
}

TEST(RecordingLoader, ConvertsToAScenarioThatLoadsBack) {
  Scenario s = load_ok(
      R"({"t":0.1,"dir":"in","line":"{\"type\":\"control_request\",\"request_id\":\"abc\",\"request\":{\"subtype\":\"initialize\"}}"})"
      "\n"
      R"({"t":0.2,"dir":"out","line":"{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"abc\",\"response\":{}}}"})"
      "\n"
      R"({"t":0.3,"dir":"out","line":"not json"})"
      "\n");
  const std::string text = to_ndjson(s);
  auto back = load_scenario_text(text, "converted.ndjson");
  ASSERT_TRUE(back.ok()) << text;
  ASSERT_EQ(back.scenario->steps.size(), 3u);
  EXPECT_FALSE(back.scenario->header.auto_initialize);
  EXPECT_EQ(back.scenario->steps[2].verb, Verb::raw);
  EXPECT_EQ(back.scenario->steps[2].text, "not json\n");
}

// A recording replays in causal order: each CLI line waits for the SDK line that caused it.
TEST(RecordingLoader, CliLinesWaitForTheSdkLinesThatCausedThem) {
  Scenario s = load_ok(
      R"({"t":0.1,"dir":"in","line":"{\"type\":\"control_request\",\"request_id\":\"abc\",\"request\":{\"subtype\":\"initialize\"}}"})"
      "\n"
      R"({"t":0.1,"dir":"in","line":"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}"})"
      "\n"
      R"({"t":0.2,"dir":"out","line":"{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"abc\",\"response\":{}}}"})"
      "\n"
      R"({"t":0.3,"dir":"out","line":"{\"type\":\"system\",\"subtype\":\"init\"}"})"
      "\n"
      R"({"t":0.4,"dir":"out","line":"{\"type\":\"control_request\",\"request_id\":\"cli-1\",\"request\":{\"subtype\":\"can_use_tool\"}}"})"
      "\n"
      R"({"t":0.5,"dir":"in","line":"{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"cli-1\",\"response\":{}}}"})"
      "\n"
      R"({"t":0.6,"dir":"err","line":"warning"})"
      "\n"
      R"({"t":0.7,"dir":"out","line":"{\"type\":\"result\"}"})"
      "\n"
      R"({"t":0.8,"eof":"in"})"
      "\n"
      R"({"t":0.9,"exit":0})"
      "\n");
  EXPECT_EQ(s.header.order, Order::causal);
  ASSERT_EQ(s.steps.size(), 10u);
  EXPECT_EQ(s.steps[0].label, "sdk_request_1");
  EXPECT_EQ(s.steps[1].label, "turn_1");
  EXPECT_EQ(s.steps[2].after, std::vector<std::string>{"sdk_request_1"});
  EXPECT_EQ(s.steps[2].waits_for, std::vector<std::size_t>{0});
  EXPECT_EQ(s.steps[3].after, std::vector<std::string>{"turn_1"});
  EXPECT_TRUE(s.steps[4].after.empty()) << "already implied by the line before it";
  EXPECT_EQ(s.steps[5].label, "answer_1");
  EXPECT_EQ(s.steps[6].verb, Verb::stderr_text);
  EXPECT_EQ(s.steps[6].after, std::vector<std::string>{"answer_1"});
  EXPECT_TRUE(s.steps[7].after.empty());
  EXPECT_EQ(s.steps[8].verb, Verb::expect_eof);
  EXPECT_TRUE(s.steps[9].after.empty()) << "exit waits for every wait anyway";
}

TEST(RecordingLoader, APrintModeRecordingExpectsItsTextPrompt) {
  constexpr std::string_view header =
      R"({"recording":1,"argv":["-p","Summarise:","--output-format","stream-json","--verbose"],"env":{},"cwd":"/","cli":"claude","cli_version":"2.1.332","started_at":"2026-01-01T00:00:00Z"})"
      "\n";
  auto loaded = load_scenario_text(std::string(header) +
                                       R"({"t":0.1,"dir":"in","line":"first"})"
                                       "\n"
                                       R"({"t":0.1,"dir":"in","line":"second","partial":true})"
                                       "\n"
                                       R"({"t":0.2,"eof":"in"})"
                                       "\n"
                                       R"({"t":0.3,"dir":"out","line":"{\"type\":\"result\"}"})"
                                       "\n"
                                       R"({"t":0.4,"exit":0})"
                                       "\n",
                                   "print.ndjson");
  ASSERT_TRUE(loaded.ok()) << loaded.errors.front().to_string();
  const auto& steps = loaded.scenario->steps;
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(steps[0].verb, Verb::expect_prompt);
  EXPECT_EQ(steps[0].value, "Summarise:\nfirst\nsecond");
  EXPECT_EQ(steps[0].label, "prompt");
  EXPECT_EQ(steps[1].verb, Verb::expect_eof);
  EXPECT_EQ(steps[2].after, std::vector<std::string>{"prompt"});
}

}  // namespace
}  // namespace claude::emulator
