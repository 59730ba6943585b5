// claude-tee between pipes forwards large chunks with tee(2) and takes the same bytes out of the
// CLI's pipe afterwards (into memory, or into the spill file when the recorder lags). These
// tests run /bin/cat behind claude-tee, so every byte goes through both the stdin and the stdout
// pump, and check what the SDK side receives against what the recording holds.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "claude/test_support/claude_tee.hpp"
#include "claude/test_support/recording_reader.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace claude::recorder::testing {
namespace {

using namespace claude::test_support;

using namespace std::chrono_literals;

constexpr int kBigPipeBytes = 1 << 20;

// Line j of chunk k: a tag that names it, then padding up to `line_bytes`.
std::string tagged_line(std::size_t chunk, std::size_t j, std::size_t line_bytes) {
  std::string line =
      "{\"chunk\":" + std::to_string(chunk) + ",\"line\":" + std::to_string(j) + ",\"pad\":\"";
  line.append(line_bytes - line.size() - 3, static_cast<char>('a' + (chunk + j) % 26));
  line += "\"}\n";
  return line;
}

std::string tagged_chunk(std::size_t chunk, std::size_t bytes, std::size_t line_bytes = 1024) {
  std::string out;
  out.reserve(bytes);
  for (std::size_t j = 0; out.size() + line_bytes <= bytes; ++j) {
    out += tagged_line(chunk, j, line_bytes);
  }
  return out;
}

// Starts claude-tee over /bin/cat with `in` as its stdin and `out` as its stdout.
pid_t start_tee(const std::filesystem::path& recording, int in, int out) {
  return start(claude_tee_command(CLAUDE_TEE_PATH, "/bin/cat", recording),
               {base::ChildFd::dup(in, 0), base::ChildFd::dup(out, 1)});
}

int exit_code_of(pid_t pid) {
  const auto status = base::wait_exit(pid);
  return status.signaled ? -1 : status.value;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

struct Session {
  int to_tee = -1;    // claude-tee's stdin
  int from_tee = -1;  // claude-tee's stdout
  pid_t pid = -1;
};

// claude-tee on two pipes; `pipe_bytes` sizes both (0: the default 64 KiB).
Session start_piped(const std::filesystem::path& recording, int pipe_bytes) {
  int in[2], out[2];
  EXPECT_EQ(::pipe2(in, O_CLOEXEC), 0);
  EXPECT_EQ(::pipe2(out, O_CLOEXEC), 0);
  if (pipe_bytes > 0) {
    ::fcntl(in[1], F_SETPIPE_SZ, pipe_bytes);
    ::fcntl(out[0], F_SETPIPE_SZ, pipe_bytes);
  }
  Session session;
  session.pid = start_tee(recording, in[0], out[1]);
  ::close(in[0]);
  ::close(out[1]);
  session.to_tee = in[1];
  session.from_tee = out[0];
  return session;
}

// Writes `chunks` to claude-tee (calling `pause` after each) while reading its stdout with
// `read_bytes` per read(2) (calling `after_read` after each); returns what came out.
std::string run_through(Session& session, const std::vector<std::string>& chunks,
                        const std::function<void()>& pause, std::size_t read_bytes,
                        const std::function<void()>& after_read) {
  std::thread writer([&] {
    for (const auto& chunk : chunks) {
      if (!write_all(session.to_tee, chunk)) break;
      pause();
    }
    ::close(session.to_tee);
  });
  std::string forwarded;
  std::vector<char> buf(read_bytes);
  while (true) {
    const ssize_t n = ::read(session.from_tee, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    forwarded.append(buf.data(), static_cast<std::size_t>(n));
    after_read();
  }
  ::close(session.from_tee);
  writer.join();
  return forwarded;
}

void expect_recorded_as_forwarded(const std::filesystem::path& recording, const std::string& input,
                                  const std::string& forwarded) {
  EXPECT_TRUE(forwarded == input) << "forwarded " << forwarded.size() << " of " << input.size()
                                  << " bytes";
  const ReadRecording read = read_recording(recording);
  EXPECT_TRUE(read.streams.at("in") == input)
      << "recorded stdin: " << read.streams.at("in").size() << " bytes";
  EXPECT_TRUE(read.streams.at("out") == forwarded)
      << "recorded stdout: " << read.streams.at("out").size() << " bytes";
  EXPECT_EQ(read.events.back().value("exit", -1), 0);
}

std::string joined(const std::vector<std::string>& chunks) {
  std::string all;
  for (const auto& c : chunks) all += c;
  return all;
}

TEST(ClaudeTeeZeroCopy, ChunksTheRecorderKeepsUpWithAreRecordedWholeFromMemory) {
  TempDir dir;
  const auto recording = dir.path() / "memory.ndjson";
  // 1 MiB at a time with pauses: each arrives at once (bulk forwarding), and the queue empties
  // in between, far below its 16 MiB bound.
  std::vector<std::string> chunks;
  for (std::size_t k = 0; k < 16; ++k) chunks.push_back(tagged_chunk(k, std::size_t{1} << 20));
  Session session = start_piped(recording, kBigPipeBytes);
  const std::string forwarded = run_through(
      session, chunks, [] { std::this_thread::sleep_for(40ms); }, std::size_t{256} << 10, [] {});
  EXPECT_EQ(exit_code_of(session.pid), 0);
  expect_recorded_as_forwarded(recording, joined(chunks), forwarded);
  EXPECT_EQ(single_file_in(dir.path()), recording);
}

TEST(ClaudeTeeZeroCopy, ALargeStreamBeyondTheMemoryBoundIsRecordedWholeThroughTheSpillFile) {
  TempDir dir;
  const auto recording = dir.path() / "spill.ndjson";
  // 96 MiB as fast as claude-tee takes it: the recorder falls behind, the backlog spills.
  std::vector<std::string> chunks;
  for (std::size_t k = 0; k < 24; ++k) chunks.push_back(tagged_chunk(k, std::size_t{4} << 20));
  Session session = start_piped(recording, kBigPipeBytes);
  const std::string forwarded = run_through(
      session, chunks, [] {}, std::size_t{256} << 10, [] {});
  EXPECT_EQ(exit_code_of(session.pid), 0);
  expect_recorded_as_forwarded(recording, joined(chunks), forwarded);
  // The spill file is anonymous: only the recording is left.
  EXPECT_EQ(single_file_in(dir.path()), recording);
}

TEST(ClaudeTeeZeroCopy, ASlowReaderGetsEveryByteAndTheRecordingMatches) {
  TempDir dir;
  const auto recording = dir.path() / "slow.ndjson";
  std::vector<std::string> chunks;
  for (std::size_t k = 0; k < 8; ++k) chunks.push_back(tagged_chunk(k, std::size_t{1} << 20));
  // The SDK's stdout pipe keeps its default 64 KiB and is read 4 KiB at a time with pauses, so
  // claude-tee often finds it full.
  Session session = start_piped(recording, 0);
  std::size_t reads = 0;
  const std::string forwarded = run_through(
      session, chunks, [] {}, 4096,
      [&] {
        if (++reads % 16 == 0) std::this_thread::sleep_for(1ms);
      });
  EXPECT_EQ(exit_code_of(session.pid), 0);
  expect_recorded_as_forwarded(recording, joined(chunks), forwarded);
}

TEST(ClaudeTeeZeroCopy, AReaderThatLeavesMidStreamStopsForwardingButNotRecording) {
  TempDir dir;
  const auto recording = dir.path() / "gone.ndjson";
  std::string input;
  for (std::size_t k = 0; k < 32; ++k) input += tagged_chunk(k, std::size_t{1} << 20);
  Session session = start_piped(recording, kBigPipeBytes);
  std::thread writer([&] {
    EXPECT_TRUE(write_all(session.to_tee, input));
    ::close(session.to_tee);
  });
  // Take the first 2 MiB (bulk forwarding is on by then), then close claude-tee's stdout.
  std::string forwarded;
  std::vector<char> buf(std::size_t{256} << 10);
  while (forwarded.size() < (std::size_t{2} << 20)) {
    const ssize_t n = ::read(session.from_tee, buf.data(), buf.size());
    ASSERT_GT(n, 0);
    forwarded.append(buf.data(), static_cast<std::size_t>(n));
  }
  ::close(session.from_tee);
  writer.join();
  EXPECT_EQ(exit_code_of(session.pid), 0);
  EXPECT_TRUE(input.starts_with(forwarded));
  const ReadRecording read = read_recording(recording);
  EXPECT_TRUE(read.streams.at("in") == input);
  EXPECT_TRUE(read.streams.at("out") == input)
      << "recorded stdout: " << read.streams.at("out").size() << " bytes";
}

TEST(ClaudeTeeZeroCopy, EveryEchoedLineIsRecordedAfterTheLineThatCausedIt) {
  TempDir dir;
  const auto recording = dir.path() / "causal.ndjson";
  constexpr std::size_t kChunks = 12;
  constexpr std::size_t kChunkBytes = std::size_t{768} << 10;
  Session session = start_piped(recording, kBigPipeBytes);
  // Each chunk (more than one read(2)) waits whole in the pipe, so the pumps forward most of it
  // in bulk; the next one goes out only once /bin/cat's echo of it has come back.
  std::string forwarded;
  std::string input;
  std::vector<char> buf(std::size_t{256} << 10);
  for (std::size_t k = 0; k < kChunks; ++k) {
    const std::string chunk = tagged_chunk(k, kChunkBytes);
    input += chunk;
    ASSERT_TRUE(write_all(session.to_tee, chunk));
    while (forwarded.size() < input.size()) {
      const ssize_t n = ::read(session.from_tee, buf.data(), buf.size());
      ASSERT_GT(n, 0);
      forwarded.append(buf.data(), static_cast<std::size_t>(n));
    }
  }
  ::close(session.to_tee);
  char rest;
  EXPECT_EQ(::read(session.from_tee, &rest, 1), 0);
  ::close(session.from_tee);
  EXPECT_EQ(exit_code_of(session.pid), 0);
  expect_recorded_as_forwarded(recording, input, forwarded);

  // Where each line starts, per stream: the index of the event holding its tag.
  const ReadRecording read = read_recording(recording);
  std::map<std::string, std::size_t> in_at, out_at;
  for (std::size_t i = 0; i < read.events.size(); ++i) {
    const auto& event = read.events[i];
    if (!event.contains("line")) continue;
    const auto text = event.at("line").get<std::string>();
    const auto start = text.find("{\"chunk\":");
    if (start != 0) continue;  // the rest of a line cut between two chunks
    const auto tag = text.substr(0, text.find(",\"pad\""));
    (event.at("dir") == "in" ? in_at : out_at).emplace(tag, i);
  }
  EXPECT_EQ(in_at.size(), kChunks * (kChunkBytes / 1024));
  EXPECT_EQ(out_at.size(), in_at.size());
  std::size_t out_of_order = 0;
  for (const auto& [tag, out_index] : out_at) {
    const auto in = in_at.find(tag);
    if (in == in_at.end() || in->second > out_index) {
      if (++out_of_order <= 3) ADD_FAILURE() << tag << ": echo recorded before the request";
    }
  }
  EXPECT_EQ(out_of_order, 0u);
}

TEST(ClaudeTeeZeroCopy, RegularFilesAsStdinAndStdoutTakeThePlainPath) {
  TempDir dir;
  const auto recording = dir.path() / "files.ndjson";
  std::string input;
  for (std::size_t k = 0; k < 8; ++k) input += tagged_chunk(k, std::size_t{1} << 20);
  const auto in_path = dir.path() / "stdin.bin";
  const auto out_path = dir.path() / "stdout.bin";
  std::ofstream(in_path, std::ios::binary) << input;
  const int in = ::open(in_path.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  ASSERT_GE(in, 0);
  ASSERT_GE(out, 0);
  const pid_t pid = start_tee(recording, in, out);
  ::close(in);
  ::close(out);
  EXPECT_EQ(exit_code_of(pid), 0);
  std::ifstream stream(out_path, std::ios::binary);
  const std::string forwarded{std::istreambuf_iterator<char>(stream), {}};
  const ReadRecording read = read_recording(recording);
  EXPECT_TRUE(forwarded == input) << "forwarded " << forwarded.size() << " bytes";
  EXPECT_TRUE(read.streams.at("in") == input);
  EXPECT_TRUE(read.streams.at("out") == input);
}

}  // namespace
}  // namespace claude::recorder::testing
