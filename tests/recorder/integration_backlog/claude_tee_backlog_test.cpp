#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "claude/test_support/claude_tee.hpp"
#include "claude/test_support/recording_reader.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace claude::recorder::testing {
namespace {

using namespace claude::test_support;

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
  const pid_t pid = start(claude_tee_command(CLAUDE_TEE_PATH, "/bin/cat", recording),
                          {base::ChildFd::dup(in[0], 0), base::ChildFd::dup(out[1], 1)});
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
  const auto status = base::wait_exit(pid);
  run.exit_code = status.signaled ? -1 : status.value;
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
