#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "recording_reader.hpp"

extern char** environ;

namespace claude::recorder::testing {
namespace {

// 32 MiB of NDJSON-like lines: twice the queue's 16 MiB memory bound, written by the test as
// fast as claude-tee takes it, so the recorder thread cannot keep up.
std::string burst() {
  const std::string line =
      R"({"type":"stream_event","event":{"delta":{"text":"Hello \"world\"\n"}},"n":0123456789})"
      "\n";
  std::string out;
  out.reserve((std::size_t{32} << 20) + line.size());
  while (out.size() < (std::size_t{32} << 20)) out += line;
  return out;
}

struct TeeRun {
  std::string forwarded;
  int exit_code = -1;
};

TeeRun run_cat_through_tee(const std::filesystem::path& recording, const std::string& input) {
  int in[2], out[2];
  EXPECT_EQ(::pipe2(in, O_CLOEXEC), 0);
  EXPECT_EQ(::pipe2(out, O_CLOEXEC), 0);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  std::vector<std::string> env{"CLAUDE_TEE_REAL_CLI=/bin/cat",
                               "CLAUDE_TEE_OUT=" + recording.string(),
                               "CLAUDE_TEE_CLI_VERSION=test"};
  for (char** e = environ; *e != nullptr; ++e) {
    if (!std::string_view(*e).starts_with("CLAUDE_TEE_")) env.emplace_back(*e);
  }
  std::vector<char*> c_env;
  for (auto& s : env) c_env.push_back(s.data());
  c_env.push_back(nullptr);
  std::string tee = CLAUDE_TEE_PATH;
  char* argv[] = {tee.data(), nullptr};
  pid_t pid = -1;
  EXPECT_EQ(::posix_spawn(&pid, tee.c_str(), &actions, nullptr, argv, c_env.data()), 0);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  std::thread writer([fd = in[1], &input] {
    std::size_t done = 0;
    while (done < input.size()) {
      const ssize_t n = ::write(fd, input.data() + done, input.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
  TeeRun run;
  char buf[1 << 16];
  while (true) {
    const ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    run.forwarded.append(buf, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  writer.join();
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

TEST(ClaudeTeeBacklog, ABurstBeyondTheMemoryBoundIsForwardedAndRecordedWhole) {
  TempDir dir;
  const auto recording = dir.path() / "burst.ndjson";
  const std::string input = burst();
  const TeeRun run = run_cat_through_tee(recording, input);
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_TRUE(run.forwarded == input) << "forwarded " << run.forwarded.size() << " bytes";
  const ReadRecording read = read_recording(recording);
  EXPECT_TRUE(read.streams.at("in") == input);
  EXPECT_TRUE(read.streams.at("out") == input);
  EXPECT_EQ(read.events.back().value("exit", -1), 0);
  // The spill file never shows up beside the recording.
  EXPECT_EQ(single_file_in(dir.path()), recording);
}

}  // namespace
}  // namespace claude::recorder::testing
