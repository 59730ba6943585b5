// base/subprocess.hpp: the one posix_spawn; what each caller asks of the child happens.
#include "claude/base/subprocess.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

using claude::base::ChildFd;

// The child's stdout, read to its end.
std::string read_all(int fd) {
  std::string text;
  char buffer[256];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) {
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

// Runs `script` under sh with its stdout on a pipe; returns the output, sets `status`.
std::string run_sh(const std::string& script, claude::base::SpawnOptions options,
                   claude::base::ExitStatus& status) {
  int fds[2];
  EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  options.argv = {"sh", "-c", script};
  options.search_path = true;
  options.fds.push_back(ChildFd::dup(fds[1], 1));
  const auto child = claude::base::spawn(options);
  ::close(fds[1]);
  EXPECT_TRUE(child.started()) << child.error;
  const std::string text = read_all(fds[0]);
  status = claude::base::wait_exit(child.pid);
  return text;
}

TEST(Spawn, ReportsTheExitStatusAndTheSignal) {
  claude::base::ExitStatus status;
  run_sh("exit 3", {}, status);
  EXPECT_FALSE(status.signaled);
  EXPECT_EQ(status.value, 3);
  run_sh("kill -TERM $$", {}, status);
  EXPECT_TRUE(status.signaled);
  EXPECT_EQ(status.value, SIGTERM);
}

TEST(Spawn, AProgramThatCannotStartIsAnErrnoNotAThrow) {
  const auto child = claude::base::spawn({.argv = {"/nonexistent/program"}});
  EXPECT_FALSE(child.started());
  EXPECT_EQ(child.error, ENOENT);
  EXPECT_EQ(child.pid, -1);
}

TEST(Spawn, RunsTheProgramFileUnderAnotherArgv0) {
  claude::base::ExitStatus status;
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_CLOEXEC), 0);
  const auto child = claude::base::spawn({.argv = {"named-so", "-c", "echo $0"},
                                          .program = "/bin/sh",
                                          .fds = {ChildFd::dup(fds[1], 1)}});
  ::close(fds[1]);
  ASSERT_TRUE(child.started());
  EXPECT_EQ(read_all(fds[0]), "named-so\n");
  claude::base::wait_exit(child.pid);
}

TEST(Spawn, AnOwnProcessGroupIsLedByTheChild) {
  const auto child =
      claude::base::spawn({.argv = {"sleep", "5"}, .search_path = true, .own_process_group = true});
  ASSERT_TRUE(child.started());
  EXPECT_EQ(::getpgid(child.pid), child.pid);
  EXPECT_EQ(claude::base::try_wait_exit(child.pid), std::nullopt);
  ::killpg(child.pid, SIGKILL);
  const auto status = claude::base::wait_exit(child.pid);
  EXPECT_TRUE(status.signaled);
  EXPECT_EQ(status.value, SIGKILL);
}

TEST(Spawn, ResetsIgnoredSignalsToDefaultWhenAsked) {
  const auto old = std::signal(SIGPIPE, SIG_IGN);
  claude::base::ExitStatus status;
  const std::string kept = run_sh("grep SigIgn /proc/self/status", {}, status);
  const std::string reset =
      run_sh("grep SigIgn /proc/self/status", {.default_signals = {SIGPIPE}}, status);
  std::signal(SIGPIPE, old);
  EXPECT_NE(kept, reset);  // SIGPIPE (bit 13) is ignored in the first child only
}

// Through posix_spawn and through fork+exec (die_with_parent) alike; a SIGPIPE we ignore kills it.
TEST(Spawn, GivesTheChildItsEnvironmentFilesDirectoryGroupAndSignals) {
  char input[] = "/tmp/base-subprocess-test-XXXXXX";
  const int fd = ::mkstemp(input);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::write(fd, "from the file\n", 14), 14);
  ::close(fd);
  const auto old = std::signal(SIGPIPE, SIG_IGN);
  for (const bool die_with_parent : {false, true}) {
    claude::base::ExitStatus status;
    const std::string out = run_sh(
        "echo \"$ONLY\"; pwd; cat; grep SigBlk /proc/self/status;"
        "test \"$(cut -d' ' -f5 /proc/$$/stat)\" = $$ && echo leader; kill -PIPE $$",
        {.env = std::vector<std::string>{"ONLY=here", "PATH=/usr/bin:/bin"},
         .fds = {ChildFd::open(0, input, O_RDONLY)},
         .cwd = "/",
         .own_process_group = true,
         .default_signals = {SIGPIPE},
         .empty_signal_mask = true,
         .die_with_parent = die_with_parent},
        status);
    EXPECT_EQ(out, "here\n/\nfrom the file\nSigBlk:\t0000000000000000\nleader\n")
        << die_with_parent;
    EXPECT_TRUE(status.signaled) << die_with_parent;
    EXPECT_EQ(status.value, SIGPIPE) << die_with_parent;
  }
  std::signal(SIGPIPE, old);
  ::unlink(input);
}

TEST(Spawn, DyingWithTheParentAProgramThatCannotStartIsAnErrno) {
  const auto child =
      claude::base::spawn({.argv = {"/nonexistent/program"}, .die_with_parent = true});
  EXPECT_EQ(child.error, ENOENT);
  EXPECT_EQ(child.pid, -1);
}

TEST(Spawn, AChildThatDiesWithItsParentGetsSigtermWhenTheSpawningThreadEnds) {
  claude::base::Spawned child;
  std::thread([&] {
    child = claude::base::spawn(
        {.argv = {"sleep", "30"}, .search_path = true, .die_with_parent = true});
  }).join();
  ASSERT_TRUE(child.started()) << child.error;
  const auto status = claude::base::wait_exit(child.pid);
  EXPECT_TRUE(status.signaled);
  EXPECT_EQ(status.value, SIGTERM);
}

TEST(ProcFiles, ReadsAProcFileAndAGoneProcessReadsEmpty) {
  EXPECT_NE(claude::base::read_proc_file("/proc/self/stat").find(')'), std::string::npos);
  const auto child = claude::base::spawn({.argv = {"true"}, .search_path = true});
  ASSERT_TRUE(child.started());
  claude::base::wait_exit(child.pid);
  const std::string gone = "/proc/" + std::to_string(child.pid) + "/stat";
  EXPECT_EQ(claude::base::read_proc_file(gone), "");
}

// Processes that end while /proc is scanned are left out, never a crash (ESRCH on read).
TEST(ProcFiles, ListingWhileChildrenComeAndGoFindsThisProcess) {
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    while (!stop) {
      const auto child = claude::base::spawn({.argv = {"true"}, .search_path = true});
      if (child.started()) claude::base::wait_exit(child.pid);
    }
  });
  bool found = false;
  for (int i = 0; i < 50; ++i) {
    for (const auto& process : claude::base::list_processes()) {
      found = found || (process.pid == ::getpid() && process.ppid == ::getppid());
    }
  }
  stop = true;
  churn.join();
  EXPECT_TRUE(found);
}

}  // namespace
