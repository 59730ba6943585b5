#include "claude/recorder/recording_writer.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "claude/test_support/temp_dir.hpp"

namespace claude::recorder {
namespace {

class RecorderRecordingWriterTest : public ::testing::Test {
 protected:
  static std::string read(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  test_support::TempDir temp_{"recording-writer-test"};
  const std::filesystem::path dir_ = temp_.path();
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

// A disk that is full while `full` is set: every write fails with ENOSPC, or (`short_by`) writes
// only part of what it is given first.
struct FullDisk {
  bool full = false;
  std::size_t accept_before_full = 0;  // bytes the next write takes before the disk fills
  RecordingWriter::WriteCall call() {
    return [this](int fd, const char* data, std::size_t size) -> long {
      if (accept_before_full != 0) {
        const std::size_t n = std::min(size, accept_before_full);
        accept_before_full = 0;
        full = true;
        return ::write(fd, data, n);
      }
      if (full) {
        errno = ENOSPC;
        return -1;
      }
      return ::write(fd, data, size);
    };
  }
};

TEST_F(RecorderRecordingWriterTest, AFailedWriteIsRetriedAndLosesNothingWhenSpaceReturns) {
  FullDisk disk;
  auto writer = RecordingWriter::create({dir_ / "r.ndjson", false}, disk.call());
  writer->write_header("H\n");
  disk.full = true;
  writer->append("{\"t\":1,\"e\":1}\n");
  writer->flush();
  writer->append("{\"t\":2,\"e\":2}\n");
  writer->flush();
  EXPECT_EQ(read(writer->path()), "H\n");
  disk.full = false;
  writer->append("{\"t\":3,\"e\":3}\n");
  writer->flush();
  EXPECT_EQ(read(writer->path()), "H\n{\"t\":1,\"e\":1}\n{\"t\":2,\"e\":2}\n{\"t\":3,\"e\":3}\n");
  EXPECT_FALSE(writer->losses().has_value());
}

TEST_F(RecorderRecordingWriterTest, ALineCutByAShortWriteIsFinishedNotTorn) {
  FullDisk disk;
  auto writer = RecordingWriter::create({dir_ / "r.ndjson", false}, disk.call());
  writer->write_header("H\n");
  disk.accept_before_full = 5;
  writer->append("{\"t\":1,\"e\":1}\n");
  writer->flush();
  EXPECT_EQ(read(writer->path()), "H\n{\"t\":");
  disk.full = false;
  writer->close_with("{\"t\":2,\"exit\":0}\n");
  EXPECT_EQ(read(writer->path()), "H\n{\"t\":1,\"e\":1}\n{\"t\":2,\"exit\":0}\n");
}

TEST_F(RecorderRecordingWriterTest, EventsPastTheMemoryBoundBecomeOneGapEventWhereTheyWere) {
  FullDisk disk;
  auto writer = RecordingWriter::create({dir_ / "r.ndjson", false}, disk.call());
  writer->write_header("H\n");
  disk.full = true;
  const std::string filler(std::size_t{1} << 20, 'x');
  std::size_t kept = 0;
  for (int i = 0; i < 20; ++i) {
    const std::string event = "{\"t\":" + std::to_string(i) + ",\"line\":\"" + filler + "\"}\n";
    writer->append(event);
    writer->flush();
    kept += event.size() <= RecordingWriter::kMaxUnwrittenBytes - kept ? event.size() : 0;
  }
  disk.full = false;
  writer->close_with("{\"t\":99,\"exit\":0}\n");
  const std::string text = read(writer->path());
  const auto gap = text.find("{\"t\":15,\"gap\":{\"events\":5,");
  ASSERT_NE(gap, std::string::npos) << text.substr(0, 200);
  EXPECT_EQ(gap, 2 + kept);
  EXPECT_NE(text.find("\"reason\":\"No space left on device\"}}\n{\"t\":99,\"exit\":0}\n", gap),
            std::string::npos);
  ASSERT_TRUE(writer->losses().has_value());
  EXPECT_NE(writer->losses()->find("5 events"), std::string::npos) << *writer->losses();
  EXPECT_NE(writer->losses()->find("1 gap event"), std::string::npos) << *writer->losses();
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
