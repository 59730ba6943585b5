#include "claude/emulator/invocation.hpp"

#include <gtest/gtest.h>

namespace claude::emulator {
namespace {

Invocation parse(std::vector<std::string> args) {
  return parse_invocation(args);
}

TEST(Invocation, ScenarioFlagIsFoundAnywhereInBothForms) {
  EXPECT_EQ(parse({"--scenario", "a.ndjson", "--verbose"}).scenario_path, "a.ndjson");
  EXPECT_EQ(parse({"--verbose", "--scenario=b.ndjson"}).scenario_path, "b.ndjson");
}

TEST(Invocation, ScenarioIsNotAmongTheRecordedFlags) {
  auto inv = parse({"--scenario", "a", "--verbose"});
  ASSERT_EQ(inv.flags.size(), 1u);
  EXPECT_EQ(inv.flags[0].name, "--verbose");
}

TEST(Invocation, KnownSwitchDoesNotTakeTheNextToken) {
  auto inv = parse({"--verbose", "prompt"});
  EXPECT_FALSE(inv.flags[0].value);
  EXPECT_EQ(inv.positionals, std::vector<std::string>{"prompt"});
}

TEST(Invocation, KnownValuedFlagTakesTheNextTokenEvenIfItStartsWithADash) {
  auto inv = parse({"--system-prompt", "-x", "--verbose"});
  EXPECT_EQ(inv.flags[0].value, "-x");
  EXPECT_EQ(inv.flags.size(), 2u);
}

TEST(Invocation, UnknownFlagTakesAValueThatDoesNotStartWithADash) {
  auto inv = parse({"--future-flag", "v", "--other-future", "--verbose"});
  EXPECT_EQ(inv.flags[0].value, "v");
  EXPECT_FALSE(inv.flags[1].value);
}

TEST(Invocation, HasMatchesEitherSpellingOfAValuedFlag) {
  auto spaced = parse({"--permission-prompt-tool", "stdio"});
  auto joined = parse({"--permission-prompt-tool=stdio"});
  for (const auto& inv : {spaced, joined}) {
    EXPECT_TRUE(inv.has("--permission-prompt-tool"));
    EXPECT_TRUE(inv.has("--permission-prompt-tool=stdio"));
    EXPECT_FALSE(inv.has("--permission-prompt-tool=mcp"));
  }
}

TEST(Invocation, EmptyValueIsKept) {
  auto inv = parse({"--setting-sources="});
  EXPECT_TRUE(inv.has("--setting-sources="));
  EXPECT_EQ(inv.flags[0].value, "");
}

TEST(Invocation, VersionAndHelp) {
  EXPECT_TRUE(parse({"-v"}).version);
  EXPECT_TRUE(parse({"--version"}).version);
  EXPECT_TRUE(parse({"--help"}).help);
}

TEST(Invocation, ValuedFlagWithoutValueIsAnError) {
  EXPECT_TRUE(parse({"--model"}).error);
  EXPECT_TRUE(parse({"--scenario"}).error);
}

TEST(Invocation, PythonDefaultArgvParses) {
  auto inv = parse({"--output-format", "stream-json", "--verbose", "--system-prompt", "",
                    "--input-format", "stream-json"});
  EXPECT_FALSE(inv.error);
  EXPECT_TRUE(inv.has("--system-prompt="));
  EXPECT_TRUE(inv.has("--input-format=stream-json"));
  EXPECT_TRUE(inv.positionals.empty());
}

}  // namespace
}  // namespace claude::emulator
