#include "claude/emulator/invocation.hpp"

#include <gtest/gtest.h>

#include "claude/base/json.hpp"

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

TEST(Invocation, AcceptedUnknownFlagTakesAValueThatDoesNotStartWithADash) {
  const std::vector<std::string> args{"--future-flag", "v", "--other-future", "--verbose"};
  auto inv = parse_invocation(args, newest_cli_option_table(), UnknownOptions::accept);
  EXPECT_FALSE(inv.cli_error);
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
  EXPECT_EQ(parse({"--model"}).cli_error, "error: option '--model <model>' argument missing");
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

// A table in the shape scripts/capture-cli-options writes, small enough to read in the tests.
const CliOptionTable& test_table() {
  static const CliOptionTable table = [] {
    std::string error;
    auto parsed = parse_cli_option_table(base::parse_json(R"({"cli_version":"9.9.9","options":[
      {"flags":"-p, --print","names":["-p","--print"],"value":"none"},
      {"flags":"-c, --continue","names":["-c","--continue"],"value":"none"},
      {"flags":"--verbose","names":["--verbose"],"value":"none"},
      {"flags":"--model <model>","names":["--model"],"value":"required"},
      {"flags":"-r, --resume [value]","names":["-r","--resume"],"value":"optional"},
      {"flags":"--allowedTools, --allowed-tools <tools...>",
       "names":["--allowedTools","--allowed-tools"],"value":"required","variadic":true},
      {"flags":"--output-format <format>","names":["--output-format"],"value":"required",
       "choices":["text","json","stream-json"]},
      {"flags":"--max-turns <turns>","names":["--max-turns"],"value":"required","hidden":true}
    ]})"),
                                         error);
    EXPECT_TRUE(parsed) << error;
    return *parsed;
  }();
  return table;
}

Invocation commander(std::vector<std::string> args) {
  return parse_invocation(args, test_table());
}

TEST(CliOptions, UnknownOptionIsRejectedWithTheCliMessage) {
  auto inv =
      commander({"--print", "--output-format", "stream-json", "--verbose", "--temperature", "0.5"});
  EXPECT_EQ(inv.cli_error, "error: unknown option '--temperature'");
  EXPECT_FALSE(inv.error);
}

TEST(CliOptions, FirstUnknownOptionIsReportedAfterEveryKnownOneIsRead) {
  EXPECT_EQ(commander({"-p", "--temperature", "0.5", "--bogus"}).cli_error,
            "error: unknown option '--temperature'");
  // A missing option-argument stops commander at once, before unknown options are reported.
  EXPECT_EQ(commander({"--bogus", "--model"}).cli_error,
            "error: option '--model <model>' argument missing");
  EXPECT_EQ(commander({"--foo=bar"}).cli_error, "error: unknown option '--foo=bar'");
  EXPECT_EQ(commander({"-px"}).cli_error, "error: unknown option '-x'");
}

TEST(CliOptions, SuggestsOnlyVisibleLongNames) {
  EXPECT_EQ(commander({"--verbos"}).cli_error,
            "error: unknown option '--verbos'\n(Did you mean --verbose?)");
  EXPECT_EQ(commander({"--verbose=1"}).cli_error,
            "error: unknown option '--verbose=1'\n(Did you mean --verbose?)");
  // --max-turns is hidden: the CLI names no option for --max-turn.
  EXPECT_EQ(commander({"--max-turn", "3"}).cli_error, "error: unknown option '--max-turn'");
}

TEST(CliOptions, AnUnknownOptionsValueNeverBecomesThePrompt) {
  auto inv = commander({"-p", "--temperature", "0.5"});
  EXPECT_TRUE(inv.positionals.empty());
  auto accepted = parse_invocation(std::vector<std::string>{"-p", "--temperature", "0.5", "hi"},
                                   test_table(), UnknownOptions::accept);
  EXPECT_FALSE(accepted.cli_error);
  EXPECT_EQ(accepted.prompt_argument(), "hi");
}

TEST(CliOptions, ValueKindsFollowCommander) {
  // <value> takes the next argument even when it starts with '-'.
  auto required = commander({"--model", "-p"});
  EXPECT_EQ(required.flags[0].value, "-p");
  EXPECT_FALSE(required.has("-p"));
  // [value] takes it only when it does not.
  auto optional = commander({"--resume", "-p", "hello"});
  EXPECT_FALSE(optional.flags[0].value);
  EXPECT_EQ(optional.prompt_argument(), "hello");
  EXPECT_EQ(commander({"-r", "abc"}).flags[0].value, "abc");
  EXPECT_EQ(commander({"-rabc"}).flags[0].value, "abc");
  // A switch with =value is unknown.
  EXPECT_TRUE(commander({"--print=yes"}).cli_error);
  // Combined switches.
  auto combined = commander({"-pc"});
  EXPECT_TRUE(combined.has("-p"));
  EXPECT_TRUE(combined.has("-c"));
  EXPECT_FALSE(combined.cli_error);
}

TEST(CliOptions, VariadicOptionTakesArgumentsUpToTheNextOption) {
  auto inv = commander({"-p", "--allowedTools", "Bash", "Read", "hello"});
  EXPECT_TRUE(inv.has("--allowedTools=Bash"));
  EXPECT_TRUE(inv.has("--allowedTools=Read"));
  EXPECT_TRUE(inv.has("--allowedTools=hello"));  // as the CLI reads it: no prompt left
  EXPECT_FALSE(inv.prompt_argument());
  auto ended = commander({"--allowed-tools", "Bash", "--verbose", "hello"});
  EXPECT_EQ(ended.prompt_argument(), "hello");
  auto dashes = commander({"--allowedTools", "Bash", "--", "hello"});
  EXPECT_EQ(dashes.prompt_argument(), "hello");
}

TEST(CliOptions, ChoicesAreEnforcedWithTheCliMessage) {
  EXPECT_EQ(commander({"--output-format", "xml"}).cli_error,
            "error: option '--output-format <format>' argument 'xml' is invalid. Allowed "
            "choices are text, json, stream-json.");
  EXPECT_FALSE(commander({"--output-format=json"}).cli_error);
}

TEST(CliOptions, OwnOptionsAreFoundAfterAnErrorAndAreNeverUnknown) {
  auto inv = commander({"--bogus", "--scenario", "s.ndjson", "--speed=2"});
  EXPECT_EQ(inv.scenario_path, "s.ndjson");
  EXPECT_EQ(inv.speed, 2.0);
  EXPECT_EQ(inv.cli_error, "error: unknown option '--bogus'");
}

// The compiled-in table of the pinned CLI (scenarios/recorded/cli-2.1.332/options.json).
TEST(CliOptions, PinnedTableAcceptsEveryOptionItListsAndRejectsTemperature) {
  const CliOptionTable* table = cli_option_table("2.1.332");
  ASSERT_NE(table, nullptr);
  EXPECT_GT(table->options.size(), 100u);
  for (const auto& option : table->options) {
    for (const auto& name : option.names) {
      std::vector<std::string> args{"--print", name};
      if (option.value == CliOption::Value::required) {
        args.push_back(option.choices.empty() ? "x" : option.choices.front());
      }
      auto inv = parse_invocation(args, *table);
      EXPECT_FALSE(inv.cli_error) << option.flags << ": " << inv.cli_error.value_or("");
      EXPECT_TRUE(inv.has(name)) << option.flags;
    }
  }
  const std::vector<std::string> temperature{"--print",   "--output-format", "stream-json",
                                             "--verbose", "--temperature",   "0.5"};
  EXPECT_EQ(parse_invocation(temperature, *table).cli_error,
            "error: unknown option '--temperature'");
}

// 2.1.332 names only acceptEdits, auto, bypassPermissions, manual, dontAsk and plan in its error,
// yet takes `default`, the mode every SDK sends; a rejection here broke every TS SDK run.
TEST(CliOptions, PinnedTableTakesPermissionModeDefaultWhichItsErrorDoesNotName) {
  const CliOptionTable* table = cli_option_table("2.1.332");
  ASSERT_NE(table, nullptr);
  const std::vector<std::string> sdk_default{"--print", "--permission-mode", "default"};
  EXPECT_FALSE(parse_invocation(sdk_default, *table).cli_error);
  const std::vector<std::string> unknown_mode{"--print", "--permission-mode", "ask"};
  EXPECT_EQ(parse_invocation(unknown_mode, *table).cli_error,
            "error: option '--permission-mode <mode>' argument 'ask' is invalid. Allowed choices "
            "are acceptEdits, auto, bypassPermissions, manual, dontAsk, plan.");
}

TEST(CliOptions, ScenarioOfAnUnknownVersionUsesTheNewestTable) {
  EXPECT_EQ(&emulated_cli_options("0.0.1"), &newest_cli_option_table());
  EXPECT_EQ(&emulated_cli_options("2.1.332"), cli_option_table("2.1.332"));
}

}  // namespace
}  // namespace claude::emulator
