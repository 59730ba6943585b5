// Recordings under faults: a recorder killed mid-session or a disk that fills up leaves a
// recording without its exit event. `harness record` and `harness run --mode record` must say so
// (exit 3) and never put it where a complete recording belongs; loading it gives a `truncated`
// note that lint, convert and the replay verdict repeat.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "claude/test_support/run.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kData = RECORDING_FAULTS_DATA;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Mounts a tmpfs of `size` at `where`; false (with the reason) when that is not allowed.
bool mount_tmpfs(const fs::path& where, const std::string& size, std::string& why) {
  fs::create_directories(where);
  if (::mount("tmpfs", where.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0) return true;
  why = "cannot mount a " + size + " tmpfs (needs root; CI runs as root): " + std::strerror(errno);
  return false;
}

// Bytes of the CLI's stdout a recording holds (each complete "out" line and its '\n'), and
// whether it ends with its exit event.
struct RecordedOut {
  std::size_t bytes = 0;
  bool ended = false;
  bool gap = false;
};

RecordedOut recorded_out(const fs::path& recording) {
  RecordedOut result;
  std::ifstream in(recording, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    const auto event = nlohmann::json::parse(line, nullptr, false);
    if (!event.is_object()) continue;
    if (event.value("dir", "") == "out" && event.contains("line")) {
      result.bytes += event["line"].get_ref<const std::string&>().size() +
                      (event.value("partial", false) ? 0 : 1);
    }
    result.ended = result.ended || event.contains("exit");
    result.gap = result.gap || event.contains("gap");
  }
  return result;
}

claude::test_support::SpawnResult tee_session(const fs::path& cli, const fs::path& recording,
                                              std::map<std::string, std::string> env) {
  claude::test_support::SpawnRequest run;
  run.program = CLAUDE_TEE_PATH;
  run.args = {"--print", "hi"};
  env["CLAUDE_TEE_REAL_CLI"] = cli.string();
  env["CLAUDE_TEE_OUT"] = recording.string();
  env["CLAUDE_TEE_CLI_VERSION"] = "1.0.0";
  run.env = std::move(env);
  run.timeout = std::chrono::milliseconds(120000);
  return claude::test_support::run_to_completion(run);
}

class RecordingFaults : public ::testing::Test {
 protected:
  static claude::test_support::SpawnResult harness(const std::vector<std::string>& args) {
    claude::test_support::SpawnRequest run;
    run.program = HARNESS_PATH;
    run.args = args;
    run.unset_env = {"CI"};
    return claude::test_support::run_to_completion(run);
  }

  claude::test_support::TempDir temp_{"recording-faults"};
  const fs::path dir_ = temp_.path();
};

TEST_F(RecordingFaults, HarnessRecordExitsThreeAndWritesNoFileWhenTheRecorderIsKilled) {
  const fs::path output = dir_ / "session.ndjson";
  const auto run =
      harness({"record", "-o", output.string(), "--real-cli", (kData / "kill-recorder.sh").string(),
               "--", (kData / "run-claude.sh").string()});
  EXPECT_EQ(run.exit_code, 3) << run.describe() << run.out << run.err;
  EXPECT_FALSE(fs::exists(output));
  EXPECT_TRUE(fs::exists(output.string() + ".incomplete"));
  // Cut after its header and first line, or (on a slow machine) before them: either way unusable.
  EXPECT_NE(run.err.find("the recording is not usable"), std::string::npos) << run.err;
  EXPECT_EQ(run.out.find("recorded"), std::string::npos) << run.out;
}

TEST_F(RecordingFaults, RunModeRecordKeepsTheCassetteWhenTheNewRecordingIsCut) {
  const fs::path cassette = dir_ / "cassette.ndjson";
  const std::string good = read_file(kData / "cut.ndjson") + "{\"t\":0.03,\"exit\":0}\n";
  std::ofstream(cassette, std::ios::binary) << good;
  const auto run =
      harness({"run", "--cassette", cassette.string(), "--mode", "record", "--real-cli",
               (kData / "kill-recorder.sh").string(), "--", (kData / "run-claude.sh").string()});
  EXPECT_EQ(run.exit_code, 3) << run.describe() << run.out << run.err;
  EXPECT_EQ(read_file(cassette), good);
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path(), cassette) << "left behind: " << entry.path();
  }
}

// A 256 KiB tmpfs holds the start of a 2 MB session: claude-tee's writes fail once it is full.
TEST_F(RecordingFaults, HarnessRecordOnAFullDiskExitsThreeAndWritesNoFile) {
  std::string why;
  const fs::path disk = dir_ / "disk";
  if (!mount_tmpfs(disk, "256k", why)) GTEST_SKIP() << why;
  const fs::path output = disk / "session.ndjson";
  const auto run =
      harness({"record", "-o", output.string(), "--real-cli", (kData / "flood.sh").string(), "--",
               (kData / "run-claude.sh").string()});
  const bool exists = fs::exists(output);
  ::umount2(disk.c_str(), MNT_DETACH);
  EXPECT_EQ(run.exit_code, 3) << run.describe() << run.out << run.err;
  EXPECT_FALSE(exists);
}

TEST_F(RecordingFaults, ReplayOfACutRecordingFailsSayingItIsTruncated) {
  for (const char* name : {"cut.ndjson", "torn.ndjson"}) {
    const fs::path report = dir_ / (std::string(name) + ".report.json");
    claude::test_support::SpawnRequest run;
    run.program = FAKE_CLAUDE_PATH;
    run.args = {"--scenario", (kData / name).string(), "--print", "hi"};
    run.env = {{"FAKE_CLAUDE_REPORT", report.string()}};
    const auto result = claude::test_support::run_to_completion(run);
    EXPECT_NE(result.exit_code, 0) << name << " " << result.describe() << result.err;
    EXPECT_NE(result.err.find("truncated recording"), std::string::npos) << name << result.err;
    const std::string json = read_file(report);
    EXPECT_NE(json.find("\"verdict\": \"fail\""), std::string::npos) << name << json;
    EXPECT_NE(json.find("\"truncated\""), std::string::npos) << name << json;
  }
}

TEST_F(RecordingFaults, LintWarnsAndConvertKeepsTheTruncatedNote) {
  const auto lint = harness({"lint", (kData / "torn.ndjson").string()});
  EXPECT_EQ(lint.exit_code, 0) << lint.describe() << lint.err;
  EXPECT_NE(lint.err.find("warning: "), std::string::npos) << lint.err;
  EXPECT_NE(lint.err.find("torn.ndjson:3: truncated recording"), std::string::npos) << lint.err;

  const fs::path scenario = dir_ / "converted.ndjson";
  const auto convert =
      harness({"convert", (kData / "torn.ndjson").string(), "-o", scenario.string()});
  EXPECT_EQ(convert.exit_code, 0) << convert.describe() << convert.err;
  EXPECT_NE(convert.err.find("truncated recording"), std::string::npos) << convert.err;
  EXPECT_NE(read_file(scenario).find("\"truncated\""), std::string::npos);
}

// The recording of a session of 40.3 MB fits a 48 MiB disk: claude-tee's own spill file goes
// elsewhere, so the whole session is recorded.
TEST_F(RecordingFaults, ClaudeTeeRecordsA40MBSessionWholeOnA48MiBDisk) {
  std::string why;
  const fs::path disk = dir_ / "disk";
  if (!mount_tmpfs(disk, "48m", why)) GTEST_SKIP() << why;
  const fs::path recording = disk / "session.ndjson";
  const auto run =
      tee_session(kData / "big-session.sh", recording, {{"SESSION_BYTES", "38860000"}});
  const auto size = fs::file_size(recording);
  const RecordedOut recorded = recorded_out(recording);
  ::umount2(disk.c_str(), MNT_DETACH);
  ASSERT_EQ(run.exit_code, 0) << run.describe() << run.err;
  std::cout << "session " << run.out.size() << " bytes, recorded " << recorded.bytes
            << " bytes of it in a recording of " << size << " bytes\n";
  EXPECT_EQ(recorded.bytes, run.out.size());
  EXPECT_TRUE(recorded.ended);
  EXPECT_FALSE(recorded.gap);
  EXPECT_EQ(run.err.find("recording incomplete"), std::string::npos) << run.err;
}

// The disk is full when the session starts and frees up after 1 MB: nothing is lost.
TEST_F(RecordingFaults, ClaudeTeeRetriesWhenTheDiskFreesUpAndLosesNothing) {
  std::string why;
  const fs::path disk = dir_ / "disk";
  if (!mount_tmpfs(disk, "4m", why)) GTEST_SKIP() << why;
  const fs::path filler = disk / "filler";
  {
    std::ofstream out(filler, std::ios::binary);
    const std::string block(4096, 'f');
    while (out.write(block.data(), static_cast<std::streamsize>(block.size()))) {
    }
  }
  const fs::path recording = disk / "session.ndjson";
  const auto run =
      tee_session(kData / "frees-disk-midway.sh", recording, {{"FILLER", filler.string()}});
  const RecordedOut recorded = recorded_out(recording);
  ::umount2(disk.c_str(), MNT_DETACH);
  ASSERT_EQ(run.exit_code, 0) << run.describe() << run.err;
  EXPECT_EQ(run.out.size(), 2001998u);  // two 1,000,000-byte runs folded into 1000-byte lines
  EXPECT_EQ(recorded.bytes, run.out.size());
  EXPECT_TRUE(recorded.ended);
  EXPECT_FALSE(recorded.gap);
}

}  // namespace
