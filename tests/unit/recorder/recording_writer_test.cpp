#include "claude/recorder/recording_writer.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace claude::recorder {
namespace {

class RecorderRecordingWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/recording-writer-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static std::string read(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  std::filesystem::path dir_;
};

TEST_F(RecorderRecordingWriterTest, CreatesTheFileWithOwnerOnlyPermissions) {
  const auto path = dir_ / "r.ndjson";
  auto writer = RecordingWriter::create({path, false});
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST_F(RecorderRecordingWriterTest, RefusesToOverwriteAnExistingFile) {
  const auto path = dir_ / "r.ndjson";
  std::ofstream(path) << "precious\n";
  EXPECT_THROW(RecordingWriter::create({path, false}), RecordingError);
  EXPECT_EQ(read(path), "precious\n");
}

TEST_F(RecorderRecordingWriterTest, GivesEachRecordingInADirectoryItsOwnFile) {
  auto first = RecordingWriter::create({dir_ / "recs", true});
  auto second = RecordingWriter::create({dir_ / "recs", true});
  EXPECT_NE(first->path(), second->path());
  EXPECT_EQ(first->path().parent_path(), dir_ / "recs");
}

TEST_F(RecorderRecordingWriterTest, HoldsEventsUntilTheHeaderIsWritten) {
  auto writer = RecordingWriter::create({dir_ / "r.ndjson", false});
  writer->append("{\"e\":1}\n");
  writer->flush();
  EXPECT_EQ(read(writer->path()), "");
  writer->write_header("{\"h\":1}\n");
  EXPECT_EQ(read(writer->path()), "{\"h\":1}\n{\"e\":1}\n");
}

TEST_F(RecorderRecordingWriterTest, WritesEachFlushedBatchImmediately) {
  auto writer = RecordingWriter::create({dir_ / "r.ndjson", false});
  writer->write_header("H\n");
  writer->append("A\n");
  writer->flush();
  EXPECT_EQ(read(writer->path()), "H\nA\n");
}

TEST_F(RecorderRecordingWriterTest, IgnoresEventsAppendedAfterTheLastOne) {
  auto writer = RecordingWriter::create({dir_ / "r.ndjson", false});
  writer->write_header("H\n");
  writer->close_with("END\n");
  writer->append("late\n");
  writer->flush();
  EXPECT_EQ(read(writer->path()), "H\nEND\n");
}

TEST_F(RecorderRecordingWriterTest, ReadsTheTargetFromTheEnvironmentValue) {
  EXPECT_EQ(resolve_recording_target(std::nullopt).path, "claude-recordings");
  EXPECT_TRUE(resolve_recording_target(std::nullopt).is_directory);
  EXPECT_TRUE(resolve_recording_target(std::string("out/")).is_directory);
  EXPECT_TRUE(resolve_recording_target(dir_.string()).is_directory);
  EXPECT_FALSE(resolve_recording_target((dir_ / "x.ndjson").string()).is_directory);
}

}  // namespace
}  // namespace claude::recorder
