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
#include <sstream>
#include <string>

#include "spawned_process.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kData = RECORDING_FAULTS_DATA;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class RecordingFaults : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/recording-faults-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  static claude::testing::SpawnResult harness(const std::vector<std::string>& args) {
    claude::testing::SpawnRequest run;
    run.program = HARNESS_PATH;
    run.args = args;
    run.unset_env = {"CI"};
    return claude::testing::run_to_completion(run);
  }

  fs::path dir_;
};

TEST_F(RecordingFaults, HarnessRecordExitsThreeAndWritesNoFileWhenTheRecorderIsKilled) {
  const fs::path output = dir_ / "session.ndjson";
  const auto run =
      harness({"record", "-o", output.string(), "--real-cli", (kData / "kill-recorder.sh").string(),
               "--", (kData / "run-claude.sh").string()});
  EXPECT_EQ(run.exit_code, 3) << run.describe() << run.out << run.err;
  EXPECT_FALSE(fs::exists(output));
  EXPECT_TRUE(fs::exists(output.string() + ".incomplete"));
  EXPECT_NE(run.err.find("truncated recording"), std::string::npos) << run.err;
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
  const fs::path disk = dir_ / "disk";
  fs::create_directories(disk);
  if (::mount("tmpfs", disk.c_str(), "tmpfs", 0, "size=256k") != 0) {
    GTEST_SKIP() << "cannot mount a 256 KiB tmpfs (needs root; CI runs as root): "
                 << std::strerror(errno);
  }
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
    claude::testing::SpawnRequest run;
    run.program = FAKE_CLAUDE_PATH;
    run.args = {"--scenario", (kData / name).string(), "--print", "hi"};
    run.env = {{"FAKE_CLAUDE_REPORT", report.string()}};
    const auto result = claude::testing::run_to_completion(run);
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

}  // namespace
