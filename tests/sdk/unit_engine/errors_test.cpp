// The SDK's error types: how ConnectionError and ProcessError carry the CLI's stderr tail.
#include "claude/sdk/errors.hpp"

#include <gtest/gtest.h>

#include <string>

namespace claude::sdk {
namespace {

std::string numbered_lines(int count) {
  std::string text;
  for (int i = 1; i <= count; ++i) text += "line " + std::to_string(i) + "\n";
  return text;
}

TEST(ErrorsTest, ConnectionErrorMessageEndsWithTheStderrTail) {
  const ConnectionError e("write to the CLI's stdin failed: Broken pipe", "fatal: bad flag\n");
  EXPECT_STREQ(e.what(),
               "write to the CLI's stdin failed: Broken pipe\nstderr tail:\nfatal: bad flag");
  EXPECT_EQ(e.stderr_tail(), "fatal: bad flag\n");
}

TEST(ErrorsTest, ConnectionErrorWithoutStderrIsJustItsMessage) {
  EXPECT_STREQ(ConnectionError("connect: already connected").what(), "connect: already connected");
  EXPECT_STREQ(ConnectionError("exec failed", "").what(), "exec failed");
}

TEST(ErrorsTest, TheMessageKeepsTheLastTwentyLines) {
  const std::string message = with_stderr_tail("ended", numbered_lines(30));
  EXPECT_EQ(message.find("line 10\n"), std::string::npos) << message;
  EXPECT_NE(message.find("\nstderr tail:\nline 11\n"), std::string::npos) << message;
  EXPECT_TRUE(message.ends_with("line 30")) << message;
}

TEST(ErrorsTest, TheMessageKeepsAtMostFourKibibytesOfStderr) {
  const std::string tail = std::string(10000, 'a') + "END";
  const std::string message = with_stderr_tail("ended", tail);
  const std::string prefix = "ended\nstderr tail:\n";
  ASSERT_EQ(message.rfind(prefix, 0), 0u);
  EXPECT_EQ(message.size() - prefix.size(), kStderrTailMessageBytes);
  EXPECT_TRUE(message.ends_with("aEND"));
}

TEST(ErrorsTest, ProcessErrorUsesTheSameTail) {
  const ProcessError e("the Claude Code CLI ended unexpectedly", ExitStatus{2, std::nullopt, false},
                       numbered_lines(25));
  EXPECT_EQ(
      std::string(e.what()),
      with_stderr_tail("the Claude Code CLI ended unexpectedly (exit code 2)", numbered_lines(25)));
  EXPECT_EQ(e.stderr_tail(), numbered_lines(25));
}

}  // namespace
}  // namespace claude::sdk
