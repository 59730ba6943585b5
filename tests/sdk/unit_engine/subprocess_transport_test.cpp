// SubprocessTransport against /bin/sh playing a CLI: pipes, environment, working directory,
// stderr, exit status, and teardown escalation without zombies.
#include "process/subprocess_transport.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace claude::sdk {
namespace {

using namespace std::chrono_literals;

ProcessLaunch sh(const std::string& script, bool own_group = false) {
  return {{"/bin/sh", "-c", script}, {"PATH=/usr/bin:/bin", "FOO=bar"}, "", own_group};
}

std::vector<std::string> read_lines(SubprocessTransport& t, StreamEnd* end = nullptr) {
  std::vector<std::string> lines;
  for (;;) {
    ReadResult r = t.read();
    if (auto* e = std::get_if<StreamEnd>(&r)) {
      if (end) *end = *e;
      return lines;
    }
    lines.push_back(std::get<InboundLine>(r).text);
  }
}

bool process_gone(int pid) {
  return ::kill(pid, 0) != 0 && errno == ESRCH;
}

TEST(SubprocessTransportTest, StdoutLinesArriveInOrderAndTheExitCodeIsReported) {
  SubprocessTransport t(sh("echo one; echo two; exit 3"));
  t.connect();
  StreamEnd end;
  EXPECT_EQ(read_lines(t, &end), (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(end.status.exit_code, 3);
  EXPECT_FALSE(end.status.ended_by_host);
}

TEST(SubprocessTransportTest, WrittenFramesReachStdinAndEndInputSendsEof) {
  SubprocessTransport t(sh("cat"));
  t.connect();
  t.write("{\"a\":1}\n");
  t.write("{\"b\":2}\n");
  t.end_input();
  EXPECT_FALSE(t.input_open());
  StreamEnd end;
  EXPECT_EQ(read_lines(t, &end), (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}"}));
  EXPECT_EQ(end.status.exit_code, 0);
  EXPECT_THROW(t.write("x\n"), ConnectionError);
}

TEST(SubprocessTransportTest, EnvironmentAndWorkingDirectoryAreTheGivenOnes) {
  ProcessLaunch launch = sh("echo \"$FOO\"; pwd; echo \"${HOME:-unset}\"");
  launch.cwd = "/tmp";
  SubprocessTransport t(launch);
  t.connect();
  EXPECT_EQ(read_lines(t), (std::vector<std::string>{"bar", "/tmp", "unset"}));
}

TEST(SubprocessTransportTest, StderrGoesLineByLineToTheCallbackAndTheTail) {
  std::mutex m;
  std::vector<std::string> seen;
  SubprocessOptions o;
  o.stderr_tail_lines = 2;
  o.on_stderr_line = [&](std::string_view line) {
    std::lock_guard lock(m);
    seen.emplace_back(line);
  };
  SubprocessTransport t(sh("echo e1 >&2; echo e2 >&2; echo e3 >&2; exit 1"), o);
  t.connect();
  StreamEnd end;
  read_lines(t, &end);
  EXPECT_EQ(end.stderr_tail, "e2\ne3");
  std::lock_guard lock(m);
  EXPECT_EQ(seen, (std::vector<std::string>{"e1", "e2", "e3"}));
}

TEST(SubprocessTransportTest, TheCliCanWriteAheadWhileNothingReadsItsStdout) {
  // 512 KiB of lines fit in the raised stdout pipe (the default 64 KiB would block the writer),
  // so the CLI gets to its stderr line before the host reads a single line.
  std::promise<void> wrote;
  SubprocessOptions o;
  o.on_stderr_line = [&](std::string_view line) {
    if (line == "wrote") wrote.set_value();
  };
  SubprocessTransport t(
      sh("i=0; while [ $i -lt 4096 ]; do printf '%0127d\\n' $i; i=$((i+1)); done; "
         "echo wrote >&2; exec cat >/dev/null"),
      o);
  t.connect();
  const bool ahead = wrote.get_future().wait_for(10s) == std::future_status::ready;
  t.end_input();
  const auto lines = read_lines(t);
  EXPECT_TRUE(ahead) << "the CLI blocked on its stdout pipe";
  EXPECT_EQ(lines.size(), 4096u);
}

TEST(SubprocessTransportTest, ThrowingStderrCallbackIsRecordedInTheTail) {
  SubprocessOptions o;
  o.on_stderr_line = [](std::string_view) { throw std::runtime_error("callback bug"); };
  SubprocessTransport t(sh("echo oops >&2"), o);
  t.connect();
  StreamEnd end;
  read_lines(t, &end);
  EXPECT_NE(end.stderr_tail.find("[stderr callback failed: callback bug]"), std::string::npos);
}

TEST(SubprocessTransportTest, MissingExecutableIsAConnectionError) {
  SubprocessTransport t({{"/nonexistent/claude"}, {}, "", false});
  try {
    t.connect();
    FAIL();
  } catch (const ConnectionError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/claude"), std::string::npos);
  }
  t.close();
}

TEST(SubprocessTransportTest, MissingWorkingDirectoryIsAConnectionError) {
  ProcessLaunch launch = sh("true");
  launch.cwd = "/nonexistent-dir";
  SubprocessTransport t(launch);
  try {
    t.connect();
    FAIL();
  } catch (const ConnectionError& e) {
    EXPECT_NE(std::string(e.what()).find("working directory does not exist"), std::string::npos);
  }
}

TEST(SubprocessTransportTest, OversizedAndPartialLinesAreFlagged) {
  SubprocessOptions o;
  o.max_line_bytes = 8;
  SubprocessTransport t(sh("printf '0123456789abcdef\\nok\\ntail'"), o);
  t.connect();
  std::vector<InboundLine> lines;
  for (;;) {
    ReadResult r = t.read();
    if (std::holds_alternative<StreamEnd>(r)) break;
    lines.push_back(std::get<InboundLine>(r));
  }
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_TRUE(lines[0].oversized);
  EXPECT_EQ(lines[0].size, 16u);
  EXPECT_EQ(lines[1].text, "ok");
  EXPECT_TRUE(lines[2].partial);
  EXPECT_EQ(lines[2].text, "tail");
}

TEST(SubprocessTransportTest, CloseLetsAWellBehavedChildExitOnEof) {
  SubprocessTransport t(sh("cat >/dev/null; exit 0"));
  t.connect();
  int pid = t.pid();
  auto begin = std::chrono::steady_clock::now();
  t.close();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 2s);
  StreamEnd end;
  read_lines(t, &end);
  EXPECT_EQ(end.status.exit_code, 0);
  EXPECT_TRUE(end.status.ended_by_host);
  EXPECT_TRUE(process_gone(pid));
}

TEST(SubprocessTransportTest, CloseEscalatesToSigtermAfterTheGracePeriod) {
  SubprocessOptions o;
  o.grace = 100ms;
  SubprocessTransport t(sh("echo ready; exec sleep 30"), o);
  t.connect();
  ASSERT_EQ(std::get<InboundLine>(t.read()).text, "ready");
  t.close();
  StreamEnd end;
  read_lines(t, &end);
  EXPECT_EQ(end.status.term_signal, SIGTERM);
  EXPECT_TRUE(end.status.ended_by_host);
}

// How a read waits for stdout: epoll_wait on stdout and a wake-up pipe that close() writes to.
class SubprocessTransportReadWaitTest : public ::testing::Test {
 protected:
  static SubprocessOptions options() {
    SubprocessOptions o;
    o.grace = 100ms;
    return o;
  }
};

using LinesAndEnd = std::pair<std::vector<InboundLine>, StreamEnd>;

// Every line, with its `partial` flag, up to the end of the stream.
LinesAndEnd read_to_end(SubprocessTransport& t) {
  LinesAndEnd out;
  for (;;) {
    ReadResult r = t.read();
    if (auto* end = std::get_if<StreamEnd>(&r)) {
      out.second = *end;
      return out;
    }
    out.first.push_back(std::get<InboundLine>(std::move(r)));
  }
}

TEST_F(SubprocessTransportReadWaitTest, LinesPartialLinesAndTheExitCodeArrive) {
  SubprocessTransport t(
      sh("echo one; sleep 0.05; printf 'two\\nthr'; sleep 0.05; printf ee; exit 3"), options());
  t.connect();
  const auto [lines, end] = read_to_end(t);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].text, "one");
  EXPECT_EQ(lines[1].text, "two");
  EXPECT_EQ(lines[2].text, "three");
  EXPECT_TRUE(lines[2].partial);
  EXPECT_EQ(end.status.exit_code, 3);
}

// Reads until the end on another thread; the end, or nullopt when close() did not end the read
// within 5 s. `grandchild` is killed afterwards either way, so the join cannot hang.
std::optional<LinesAndEnd> close_while_reading(SubprocessTransport& t, int grandchild) {
  std::promise<LinesAndEnd> ended;
  std::thread reader([&] { ended.set_value(read_to_end(t)); });
  std::this_thread::sleep_for(150ms);  // the reader now waits for stdout
  t.close();
  auto result = ended.get_future();
  const bool released = result.wait_for(5s) == std::future_status::ready;
  ::kill(grandchild, SIGKILL);
  reader.join();
  if (!released) return std::nullopt;
  return result.get();
}

TEST_F(SubprocessTransportReadWaitTest, CloseReleasesAReaderWhoseStdoutAGrandchildKeepsOpen) {
  // The grandchild inherits stdout and outlives the CLI, so the pipe never reaches EOF: only the
  // wake-up that close() sends can end the read.
  SubprocessTransport t(sh("sleep 30 & echo \"$!\"; exec sleep 30"), options());
  t.connect();
  const int grandchild = std::stoi(std::get<InboundLine>(t.read()).text);
  const auto ended = close_while_reading(t, grandchild);
  ASSERT_TRUE(ended) << "close() left the reader blocked on a pipe a grandchild holds";
  EXPECT_TRUE(ended->first.empty());
  EXPECT_TRUE(ended->second.status.ended_by_host);
}

TEST_F(SubprocessTransportReadWaitTest, WhatAGrandchildWroteBeforeCloseArrivesExactly) {
  // The grandchild's output is still unread, unfinished and the pipe's last bytes when close()
  // wakes the reader: it must come out as written, without the wake-up marker.
  SubprocessTransport t(
      sh("(sleep 0.05; printf 'last\\nunfinished'; exec sleep 30) & echo \"$!\"; exec sleep 30"),
      options());
  t.connect();
  const int grandchild = std::stoi(std::get<InboundLine>(t.read()).text);
  const auto ended = close_while_reading(t, grandchild);
  ASSERT_TRUE(ended) << "close() left the reader blocked on a pipe a grandchild holds";
  const auto& lines = ended->first;
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].text, "last");
  EXPECT_FALSE(lines[0].partial);
  EXPECT_EQ(lines[1].text, "unfinished");
  EXPECT_TRUE(lines[1].partial);
}

TEST(SubprocessTransportTest, ChildIgnoringSigtermIsKilledAndReapedWithItsGroup) {
  SubprocessOptions o;
  o.grace = 100ms;
  o.term_wait = 100ms;
  SubprocessTransport t(sh("trap '' TERM; echo ready; while :; do sleep 0.05; done", true), o);
  t.connect();
  int pid = t.pid();
  ASSERT_EQ(std::get<InboundLine>(t.read()).text, "ready");
  t.close();
  StreamEnd end;
  read_lines(t, &end);
  EXPECT_EQ(end.status.term_signal, SIGKILL);
  EXPECT_TRUE(process_gone(pid)) << "the child was left as a zombie or alive";
  // Grandchildren are reaped by init, not by us: give it a moment.
  bool group_gone = false;
  for (int i = 0; i < 200 && !group_gone; ++i) {
    group_gone = ::kill(-pid, 0) != 0;
    if (!group_gone) std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(group_gone) << "a member of the child's process group survived";
}

TEST(SubprocessTransportTest, WriteToAnExitedChildFailsWithoutRaisingSigpipe) {
  SubprocessTransport t(sh("exec 0<&-; echo gone"));
  t.connect();
  read_lines(t);
  EXPECT_THROW(
      {
        for (int i = 0; i < 100; ++i) t.write(std::string(4096, 'x') + "\n");
      },
      ConnectionError);
}

TEST(SubprocessTransportTest, WriteToAnExitedChildCarriesItsStderrTail) {
  SubprocessTransport t(sh("exec 0<&-; echo 'error: unknown option --frob' >&2; exit 2"));
  t.connect();
  try {
    for (int i = 0; i < 100; ++i) t.write(std::string(4096, 'x') + "\n");
    FAIL() << "no exception";
  } catch (const ConnectionError& e) {
    EXPECT_EQ(e.stderr_tail(), "error: unknown option --frob");
    const std::string message = e.what();
    EXPECT_NE(message.find("(exit code 2)"), std::string::npos) << message;
    EXPECT_NE(message.find("stderr tail:\nerror: unknown option --frob"), std::string::npos)
        << message;
  }
}

TEST(SubprocessTransportTest, DestructorReapsARunningChild) {
  int pid;
  {
    SubprocessOptions o;
    o.grace = 50ms;
    SubprocessTransport t(sh("exec sleep 30"), o);
    t.connect();
    pid = t.pid();
  }
  EXPECT_TRUE(process_gone(pid));
}

}  // namespace
}  // namespace claude::sdk
