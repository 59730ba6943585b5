// `harness check` draws a live progress line on a terminal, and only there: a pipe (CI logs) and
// --quiet get plain lines.
#include <gtest/gtest.h>
#include <pty.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "claude/base/subprocess.hpp"
#include "claude/test_support/command.hpp"
#include "claude/test_support/run.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace {

using claude::test_support::Command;

struct Output {
  std::string text;
  int status = -1;  // the exit code, or 128 + the signal number
};

const std::vector<std::string> kCheck{
    "check", "--sdk", "cpp", "-j", "2", "--exact", "lifecycle.two-turns-streaming", "perm.allow"};

Command harness(std::vector<std::string> args) {
  Command command;
  command.program = HARNESS_PATH;
  command.args = std::move(args);
  command.env["TERM"] = "xterm";
  return command;
}

// stdin, stdout and stderr on one pseudo-terminal; the text is what the terminal showed.
Output run_on_terminal(const std::vector<std::string>& args) {
  int master = -1;
  int terminal = -1;
  if (::openpty(&master, &terminal, nullptr, nullptr, nullptr) != 0) return {};
  const pid_t pid =
      claude::test_support::start(harness(args), {claude::base::ChildFd::dup(terminal, 0),
                                                  claude::base::ChildFd::dup(terminal, 1),
                                                  claude::base::ChildFd::dup(terminal, 2)});
  ::close(terminal);
  Output o;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n > 0) {
      o.text.append(buffer, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // EIO once every holder of the terminal side is gone
    }
  }
  ::close(master);
  o.status = claude::test_support::status_code(claude::base::wait_exit(pid));
  return o;
}

// stdout on a pipe; the text is stdout.
Output run_on_pipe(const std::vector<std::string>& args) {
  claude::test_support::SpawnRequest request;
  static_cast<Command&>(request) = harness(args);
  request.timeout = std::chrono::minutes(5);
  const auto result = claude::test_support::run_to_completion(request);
  return {result.out, result.status_code()};
}

TEST(ProgressOutput, TerminalGetsALiveLineThatEndsErased) {
  const Output o = run_on_terminal(kCheck);
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_NE(o.text.find("\r\x1b[Kharness check 0/2"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("\r\x1b[Kharness check 2/2"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("lifecycle.two-turns-streaming"), std::string::npos) << o.text;
}

TEST(ProgressOutput, PipeGetsPlainLinesOnly) {
  const Output o = run_on_pipe(kCheck);
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_EQ(o.text.find('\r'), std::string::npos) << o.text;
  EXPECT_EQ(o.text.find("\x1b["), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("perm.allow"), std::string::npos) << o.text;
}

TEST(ProgressOutput, QuietTerminalHasNoProgressLine) {
  std::vector<std::string> args = kCheck;
  args.insert(args.begin() + 1, "--quiet");
  const Output o = run_on_terminal(args);
  EXPECT_EQ(o.status, 0) << o.text;
  EXPECT_EQ(o.text.find("harness check 0/2"), std::string::npos) << o.text;
}

TEST(ProgressOutput, RecordSetCountsRecordingsAndFailuresOnATerminal) {
  const char* source = std::getenv("CLAUDE_HARNESS_SOURCE_DIR");
  ASSERT_NE(source, nullptr);
  const claude::test_support::TempDir out_dir("progress-record-set");
  // /bin/false as the "real CLI" fails fast, which is all the progress line needs.
  const Output o =
      run_on_terminal({"record-set", std::string(source) + "/scenarios/recorded/cli-2.1.332", "-o",
                       (out_dir.path() / "set").string(), "--real-cli", "/bin/false", "--sdk",
                       "cpp", "--case", "plain-text", "--netns", "off"});
  EXPECT_EQ(o.status, 3) << o.text;
  EXPECT_NE(o.text.find("\r\x1b[Kharness record-set 0/1"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("\r\x1b[Kharness record-set 1/1 · 1 failed"), std::string::npos) << o.text;
}

}  // namespace
