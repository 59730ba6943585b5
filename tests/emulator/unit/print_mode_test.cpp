// Print mode (`claude --print --output-format stream-json --verbose`): the prompt comes as plain
// text on stdin or as an argument, and a scenario expects it with expect_prompt.
#include <gtest/gtest.h>

#include "engine_session.hpp"

namespace claude::emulator {
namespace {

const std::vector<std::string> kPrintArgv = {"--output-format", "stream-json", "--verbose",
                                             "--print"};

std::string prompt_scenario(std::string_view expect_prompt) {
  return scenario({std::string(R"({"expect_prompt":)") + std::string(expect_prompt) + "}",
                   R"({"send":{"type":"result","subtype":"success","result":"ok"}})",
                   R"({"exit":0})"});
}

TEST(PrintMode, StdinTextIsThePromptOnceStdinCloses) {
  Session run(prompt_scenario(R"("Say hi\nplease\n")"), kPrintArgv);
  run.engine().on_text("Say hi\n", 1);
  run.engine().on_text("please\n", 2);
  EXPECT_FALSE(run.engine().finished());
  run.eof(3);
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
  const auto& prompt = run.report().transcript.front();
  EXPECT_TRUE(prompt.prompt);
  EXPECT_EQ(prompt.size, 14u);
}

TEST(PrintMode, APatternMatchesThePrompt) {
  Session run(prompt_scenario(R"({"$re":"^Say hi"})"), kPrintArgv);
  run.engine().on_text("Say hi to the user", 1);
  run.eof(2);
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(PrintMode, TheArgumentAndStdinTextJoinWithANewline) {
  std::vector<std::string> argv = kPrintArgv;
  argv.push_back("Summarise this:");
  Session run(prompt_scenario(R"("Summarise this:\nsome text")"), argv);
  run.engine().on_text("some text", 1);
  run.eof(2);
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(PrintMode, TheArgumentAloneOnceStdinStaysSilentForThreeSeconds) {
  std::vector<std::string> argv = {"-p", "What is 2+2?", "--output-format", "stream-json",
                                   "--verbose"};
  Session run(prompt_scenario(R"("What is 2+2?")"), argv);
  EXPECT_EQ(run.engine().next_deadline(), std::optional<Millis>(3000));
  run.time(2999);
  EXPECT_TRUE(run.sent().empty());
  run.time(3000);
  ASSERT_EQ(run.sent().size(), 1u);
  EXPECT_TRUE(run.engine().finished());
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(PrintMode, AnotherPromptIsAMismatchNamingTheStep) {
  Session run(prompt_scenario(R"("Say hi")"), kPrintArgv);
  run.engine().on_text("Say bye", 1);
  run.eof(2);
  ASSERT_EQ(run.failure_kind(), "mismatch");
  EXPECT_EQ(run.report().failure->line, 2u);
  ASSERT_TRUE(run.report().failure->closest);
  EXPECT_EQ(run.report().failure->closest->transcript_index, 0u);
}

TEST(PrintMode, AnUnexpectedPromptIsALeftoverInStrictMode) {
  Session run(scenario({R"({"send":{"type":"result"}})"}), kPrintArgv);
  run.engine().on_text("hello", 1);
  run.eof(2);
  EXPECT_EQ(run.failure_kind(), "leftover");
}

TEST(PrintMode, WithStreamJsonInputThereIsNoTextPromptToExpect) {
  Session run(prompt_scenario(R"("hi")"));
  run.eof(1);
  ASSERT_EQ(run.failure_kind(), "eof");
  EXPECT_NE(run.report().failure->message.find("print mode"), std::string::npos);
}

TEST(PrintModeLoad, ExpectPromptTakesTextOrAPattern) {
  auto loaded = load_scenario_text(scenario({R"({"expect_prompt":42})"}), "s.ndjson");
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(
      loaded.errors[0].to_string(),
      R"(s.ndjson:2: 'expect_prompt' takes the prompt text or a pattern such as {"$re":"…"})");
  EXPECT_TRUE(
      load_scenario_text(scenario({R"({"expect_prompt":{"$re":"x"},"within_ms":5})"}), "s.ndjson")
          .ok());
}

TEST(PrintModeInvocation, PrintWithoutStreamJsonInputReadsATextPrompt) {
  EXPECT_TRUE(parse_invocation(std::vector<std::string>{"--print"}).reads_text_prompt());
  EXPECT_TRUE(parse_invocation(std::vector<std::string>{"-p", "--input-format", "text"})
                  .reads_text_prompt());
  EXPECT_FALSE(parse_invocation(std::vector<std::string>{"-p", "--input-format=stream-json"})
                   .reads_text_prompt());
  EXPECT_FALSE(parse_invocation(kTsArgv).reads_text_prompt());
  EXPECT_EQ(print_mode_prompt(std::nullopt, "a\r\nb"), "a\r\nb");
  EXPECT_EQ(print_mode_prompt(std::string("q"), ""), "q");
}

}  // namespace
}  // namespace claude::emulator
