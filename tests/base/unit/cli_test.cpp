// base/cli.hpp: the wording and exit codes every executable's usage errors share.
#include "claude/base/cli.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace {

using claude::base::CommandLineText;

class CommandLine : public ::testing::Test {
 protected:
  std::optional<int> parse(const std::vector<std::string>& args,
                           const CommandLineText& text = {"prog", "HELP\n", "TAIL\n"}) {
    out_.str("");
    err_.str("");
    return claude::base::parse_command_line(app_, args, text, out_, err_);
  }
  CLI::App app_;
  std::ostringstream out_, err_;
};

TEST_F(CommandLine, HelpPrintsTheProgramsOwnTextAndExitsZero) {
  EXPECT_EQ(parse({"--frob", "--help"}), 0);
  EXPECT_EQ(out_.str(), "HELP\n");
  EXPECT_EQ(err_.str(), "");
}

TEST_F(CommandLine, AnUnknownOptionIsAUsageErrorInOurWording) {
  EXPECT_EQ(parse({"--frob"}), 2);
  EXPECT_EQ(err_.str(), "prog: unknown option '--frob'\nTAIL\n");
  EXPECT_EQ(parse({"--frob"}, {"prog", "", "", false, "unknown argument"}), 2);
  EXPECT_EQ(err_.str(), "prog: unknown argument '--frob'\n");
}

TEST_F(CommandLine, AnArgumentNobodyTakesIsUnexpected) {
  std::string one;
  app_.add_option("FILE", one);
  EXPECT_EQ(parse({"a", "b"}), 2);
  EXPECT_EQ(err_.str(), "prog: unexpected argument 'b'\nTAIL\n");
}

TEST_F(CommandLine, AMissingValueNamesTheOptionAsTyped) {
  std::string output;
  app_.add_option("-o,--output", output);
  EXPECT_EQ(parse({"-o"}), 2);
  EXPECT_EQ(err_.str(), "prog: -o needs a value\nTAIL\n");
  EXPECT_EQ(parse({"--output"}), 2);
  EXPECT_EQ(err_.str(), "prog: --output needs a value\nTAIL\n");
}

TEST_F(CommandLine, AMissingValueIsNamedByTheOptionsTypeName) {
  std::string script;
  app_.add_option("--script", script)->type_name("FILE");
  EXPECT_EQ(parse({"--script"}), 2);
  EXPECT_EQ(err_.str(), "prog: --script needs a FILE\nTAIL\n");
}

TEST_F(CommandLine, ASingleOptionGivenTwiceIsRefused) {
  std::optional<std::string> json;
  app_.add_option("--json", json);
  EXPECT_EQ(parse({"--json", "a", "--json=b"}), 2);
  EXPECT_EQ(err_.str(), "prog: --json given twice\nTAIL\n");
}

TEST_F(CommandLine, ARepeatableOptionTakesOneValueEachTime) {
  std::vector<std::string> sdks, rest;
  claude::base::add_repeatable(app_, "--sdk", sdks);
  app_.add_option("REST", rest);
  EXPECT_EQ(parse({"--sdk", "cpp", "--sdk=ts", "dir"}), std::nullopt);
  EXPECT_EQ(sdks, (std::vector<std::string>{"cpp", "ts"}));
  EXPECT_EQ(rest, (std::vector<std::string>{"dir"}));
}

TEST_F(CommandLine, ForwardedUnknownArgumentsStayForTheCaller) {
  EXPECT_EQ(parse({"-p", "hi"}, {"prog", "", "", true}), std::nullopt);
  EXPECT_EQ(app_.remaining(), (std::vector<std::string>{"-p", "hi"}));
}

TEST(SplitCommand, TheCommandIsEverythingAfterTheFirstDoubleDash) {
  const auto [options, command] = claude::base::split_command({"-o", "f", "--", "cmd", "--", "x"});
  EXPECT_EQ(options, (std::vector<std::string>{"-o", "f"}));
  EXPECT_EQ(command, (std::vector<std::string>{"cmd", "--", "x"}));
  EXPECT_TRUE(claude::base::split_command({"a"}).second.empty());
}

}  // namespace
