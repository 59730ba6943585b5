// claude-tee forwards every byte unchanged and records every byte, whatever the chunking, line
// length or encoding.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "claude/test_support/child_process.hpp"
#include "claude/test_support/recording_reader.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace claude::recorder::testing {
namespace {

using namespace claude::test_support;

constexpr std::size_t kPieceBytes = 8u << 20;

// Line bodies: JSON-looking text, arbitrary bytes (invalid UTF-8, NUL, '\r'), or valid
// multi-byte UTF-8; never a '\n', which only ends lines.
std::string random_line(std::mt19937_64& rng, std::size_t length) {
  std::string line(length, '\0');
  const auto kind = rng() % 3;
  static constexpr std::string_view kJsonish = "{\"type\":\"assistant\",\"text\":[0-9 ]}\\";
  static constexpr std::string_view kUtf8 = "\xC3\xA9\xE2\x80\xA8\xF0\x9F\x98\x80";
  std::uint64_t bits = 0;
  for (std::size_t i = 0; i < length; ++i) {
    if (i % 8 == 0) bits = rng();
    const auto byte = static_cast<unsigned char>(bits >> (8 * (i % 8)));
    char c;
    if (kind == 0) {
      c = kJsonish[byte % kJsonish.size()];
    } else if (kind == 1) {
      c = static_cast<char>(byte);
    } else {
      c = kUtf8[i % kUtf8.size()];
    }
    line[i] = c == '\n' ? '\r' : c;
  }
  return line;
}

std::string build_stream(std::mt19937_64& rng, const std::vector<std::size_t>& lengths,
                         bool final_newline) {
  std::string stream;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    stream += random_line(rng, lengths[i]);
    if (i + 1 < lengths.size() || final_newline) stream.push_back('\n');
  }
  return stream;
}

std::uint64_t fnv1a(std::string_view bytes) {
  std::uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
  return hash;
}

std::string checksum_line(std::string_view bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%zu %016llx\n", bytes.size(),
                static_cast<unsigned long long>(fnv1a(bytes)));
  return buf;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Writes `stream` to the tee's stdin in random-sized chunks, then closes it.
void feed_in_random_chunks(ChildProcess& tee, std::string_view stream, std::mt19937_64& rng) {
  while (!stream.empty()) {
    const std::size_t max = std::size_t{1} << (rng() % 21);
    const std::size_t n = std::min(stream.size(), 1 + rng() % max);
    ASSERT_TRUE(tee.write_stdin(stream.substr(0, n)));
    stream.remove_prefix(n);
  }
  tee.close_stdin();
}

struct TeeRun {
  ProcessEnd end;
  std::string out;
  std::string err;
  std::string child_checksum;
  ReadRecording recording;
};

TeeRun run_through_tee(std::string_view stream, std::mt19937_64& rng, const char* echo_to) {
  TempDir dir;
  const auto checksum = dir.path() / "checksum";
  ChildProcess tee(CLAUDE_TEE_PATH, {"--echo-to", echo_to, "--checksum-file", checksum.string()},
                   {{"CLAUDE_TEE_REAL_CLI", ECHO_CHILD_PATH},
                    {"CLAUDE_TEE_OUT", (dir.path() / "recording.ndjson").string()},
                    {"CLAUDE_TEE_CLI_VERSION", "test"}});
  feed_in_random_chunks(tee, stream, rng);
  TeeRun run;
  run.end = tee.wait();
  run.out = tee.out();
  run.err = tee.err();
  run.child_checksum = read_file(checksum);
  run.recording = read_recording(dir.path() / "recording.ndjson");
  return run;
}

TEST(ClaudeTeeByteExactness, ForwardsAndRecordsRandomStreamsInRandomChunksUnchanged) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<std::size_t> lengths;
    for (int i = 0; i < 400; ++i) {
      const auto pick = rng() % 100;
      lengths.push_back(pick < 70 ? rng() % 200 : pick < 97 ? rng() % 20'000 : rng() % (1 << 18));
    }
    const std::string stream = build_stream(rng, lengths, seed % 2 == 0);
    const auto run = run_through_tee(stream, rng, "both");

    EXPECT_FALSE(run.end.signaled);
    EXPECT_EQ(run.end.value, 0);
    EXPECT_EQ(run.child_checksum, checksum_line(stream)) << "stdin reached the CLI altered";
    EXPECT_TRUE(run.out == stream) << "stdout differs from what the CLI wrote";
    EXPECT_TRUE(run.err == stream) << "stderr differs from what the CLI wrote";
    for (const char* dir : {"in", "out", "err"}) {
      EXPECT_TRUE(run.recording.streams.at(dir) == stream) << "recorded '" << dir << "' differs";
    }
  }
}

// The CLI writes 512 KiB (it fits in the tee's pipe, so the CLI exits at once) to an SDK that
// starts reading only after 3 s, longer than the 2 s the tee gives a silent pipe to reach EOF:
// the tee must wait for a forward in progress, however slow the reader, and record all of it.
TEST(ClaudeTeeByteExactness, ForwardsAndRecordsEverythingToAnSdkThatReadsLate) {
  TempDir dir;
  std::mt19937_64 rng(7);
  const std::string stream = build_stream(rng, std::vector<std::size_t>(64, 8191), true);
  { std::ofstream(dir.path() / "stdin", std::ios::binary) << stream; }
  const std::string pipeline = "'" CLAUDE_TEE_PATH "' <stdin | { sleep 3; cat >stdout; }";
  ChildProcess shell("/bin/sh", {"-c", pipeline},
                     {{"CLAUDE_TEE_REAL_CLI", ECHO_CHILD_PATH},
                      {"CLAUDE_TEE_OUT", (dir.path() / "recording.ndjson").string()},
                      {"CLAUDE_TEE_CLI_VERSION", "test"}},
                     dir.path());
  shell.close_stdin();
  EXPECT_EQ(shell.wait().value, 0);

  EXPECT_TRUE(read_file(dir.path() / "stdout") == stream) << "the late SDK lost output";
  const auto recording = read_recording(dir.path() / "recording.ndjson");
  EXPECT_TRUE(recording.streams.at("out") == stream) << "recorded 'out' differs";
}

TEST(ClaudeTeeByteExactness, KeepsLinesFromEmptyTo40MiBWithoutAFinalNewline) {
  std::mt19937_64 rng(40);
  const std::vector<std::size_t> lengths{0, 1, kPieceBytes, kPieceBytes + 1, 40u << 20, 0, 5};
  const std::string stream = build_stream(rng, lengths, false);
  const auto run = run_through_tee(stream, rng, "out");

  EXPECT_EQ(run.end.value, 0);
  EXPECT_EQ(run.child_checksum, checksum_line(stream));
  EXPECT_TRUE(run.out == stream);
  EXPECT_TRUE(run.recording.streams.at("in") == stream);
  EXPECT_TRUE(run.recording.streams.at("out") == stream);
  std::size_t continued = 0;
  for (const auto& event : run.recording.events) {
    if (event.value("more", false)) ++continued;
  }
  // 8 MiB + 1 needs one continuation and 40 MiB four, in each of the two directions.
  EXPECT_EQ(continued, 2u * (1 + 4));
}

TEST(ClaudeTeeByteExactness, RecordsThePartialLastLineAndEveryEof) {
  std::mt19937_64 rng(3);
  const auto run = run_through_tee("{\"a\":1}\n{\"unterminated\":", rng, "both");
  ASSERT_GE(run.recording.events.size(), 5u);
  std::size_t partial = 0;
  std::vector<std::string> eofs;
  for (const auto& event : run.recording.events) {
    if (event.value("partial", false)) ++partial;
    if (event.contains("eof")) eofs.push_back(event.at("eof").get<std::string>());
  }
  EXPECT_EQ(partial, 3u);
  std::sort(eofs.begin(), eofs.end());
  EXPECT_EQ(eofs, (std::vector<std::string>{"err", "in", "out"}));
  EXPECT_EQ(run.recording.events.back().value("exit", -1), 0);
}

}  // namespace
}  // namespace claude::recorder::testing
