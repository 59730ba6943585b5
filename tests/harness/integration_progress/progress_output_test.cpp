// `harness check` draws a live progress line on a terminal, and only there: a pipe (CI logs) and
// --quiet get plain lines.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

struct Output {
  std::string text;
  int status = -1;
};

const std::vector<std::string> kCheck{
    HARNESS_PATH, "check", "--sdk", "cpp", "-j", "2", "--exact", "lifecycle.two-turns-streaming",
    "perm.allow"};

[[noreturn]] void exec(const std::vector<std::string>& argv) {
  std::vector<char*> c_argv;
  for (const auto& a : argv) c_argv.push_back(const_cast<char*>(a.c_str()));
  c_argv.push_back(nullptr);
  ::setenv("TERM", "xterm", 1);
  ::execv(c_argv[0], c_argv.data());
  ::_exit(127);
}

std::string drain(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      text.append(buffer, static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return text;  // EOF on a pipe, EIO on a pty whose child side is gone
    }
  }
}

Output run_on_terminal(const std::vector<std::string>& argv) {
  int master = -1;
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) exec(argv);
  Output o;
  if (pid < 0) return o;
  o.text = drain(master);
  ::close(master);
  ::waitpid(pid, &o.status, 0);
  return o;
}

Output run_on_pipe(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    exec(argv);
  }
  ::close(fds[1]);
  Output o;
  o.text = drain(fds[0]);
  ::close(fds[0]);
  ::waitpid(pid, &o.status, 0);
  return o;
}

TEST(ProgressOutput, TerminalGetsALiveLineThatEndsErased) {
  const Output o = run_on_terminal(kCheck);
  ASSERT_TRUE(WIFEXITED(o.status)) << o.text;
  EXPECT_EQ(WEXITSTATUS(o.status), 0) << o.text;
  EXPECT_NE(o.text.find("\r\x1b[Kharness check 0/2"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("\r\x1b[Kharness check 2/2"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("lifecycle.two-turns-streaming"), std::string::npos) << o.text;
}

TEST(ProgressOutput, PipeGetsPlainLinesOnly) {
  const Output o = run_on_pipe(kCheck);
  ASSERT_TRUE(WIFEXITED(o.status)) << o.text;
  EXPECT_EQ(WEXITSTATUS(o.status), 0) << o.text;
  EXPECT_EQ(o.text.find('\r'), std::string::npos) << o.text;
  EXPECT_EQ(o.text.find("\x1b["), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("perm.allow"), std::string::npos) << o.text;
}

TEST(ProgressOutput, QuietTerminalHasNoProgressLine) {
  std::vector<std::string> argv = kCheck;
  argv.insert(argv.begin() + 2, "--quiet");
  const Output o = run_on_terminal(argv);
  ASSERT_TRUE(WIFEXITED(o.status)) << o.text;
  EXPECT_EQ(WEXITSTATUS(o.status), 0) << o.text;
  EXPECT_EQ(o.text.find("harness check 0/2"), std::string::npos) << o.text;
}

TEST(ProgressOutput, RecordSetCountsRecordingsAndFailuresOnATerminal) {
  const char* source = std::getenv("CLAUDE_HARNESS_SOURCE_DIR");
  ASSERT_NE(source, nullptr);
  char out_dir[] = "/tmp/progress-record-set-XXXXXX";
  ASSERT_NE(::mkdtemp(out_dir), nullptr);
  // /bin/false as the "real CLI" fails fast, which is all the progress line needs.
  const Output o = run_on_terminal({HARNESS_PATH, "record-set",
                                    std::string(source) + "/scenarios/recorded/cli-2.1.332", "-o",
                                    std::string(out_dir) + "/set", "--real-cli", "/bin/false",
                                    "--sdk", "cpp", "--case", "plain-text", "--netns", "off"});
  std::filesystem::remove_all(out_dir);
  ASSERT_TRUE(WIFEXITED(o.status)) << o.text;
  EXPECT_EQ(WEXITSTATUS(o.status), 3) << o.text;
  EXPECT_NE(o.text.find("\r\x1b[Kharness record-set 0/1"), std::string::npos) << o.text;
  EXPECT_NE(o.text.find("\r\x1b[Kharness record-set 1/1 · 1 failed"), std::string::npos) << o.text;
}

}  // namespace
