#include "claude/recorder/recording_queue.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

namespace claude::recorder {
namespace {

using namespace std::chrono_literals;

RecordingQueue::Limits no_linger(std::size_t memory_bytes) {
  RecordingQueue::Limits limits;
  limits.memory_bytes = memory_bytes;
  limits.linger = 0us;
  return limits;
}

void push_text(RecordingQueue& queue, Stream stream, double t, const std::string& text) {
  auto buffer = queue.take_buffer(stream);
  std::memcpy(buffer.get(), text.data(), text.size());
  queue.push(stream, t, buffer, text.size());
}

std::string loaded_bytes(RecordingQueue& queue, RecordedChunk& chunk) {
  EXPECT_TRUE(queue.load(chunk));
  return std::string(chunk.bytes());
}

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/recording-queue-test-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(RecordingQueue, KeepsPushOrderAcrossStreams) {
  RecordingQueue queue(no_linger(1 << 20));
  push_text(queue, Stream::in, 1.0, "request\n");
  push_text(queue, Stream::out, 2.0, "answer\n");
  queue.push_eof(Stream::in, 3.0);
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(batch[0].stream, Stream::in);
  EXPECT_EQ(loaded_bytes(queue, batch[0]), "request\n");
  EXPECT_EQ(batch[0].t, 1.0);
  EXPECT_EQ(batch[1].stream, Stream::out);
  EXPECT_EQ(loaded_bytes(queue, batch[1]), "answer\n");
  EXPECT_TRUE(batch[2].eof);
  queue.release(batch);
  EXPECT_EQ(queue.queued_bytes(), 0u);
}

TEST(RecordingQueue, CopiesSmallChunksAndTakesOverLargeBuffers) {
  RecordingQueue queue(no_linger(16 << 20));
  auto buffer = queue.take_buffer(Stream::out);
  std::memset(buffer.get(), 'x', RecordingQueue::kBufferBytes);
  queue.push(Stream::out, 0, buffer, 10);
  EXPECT_NE(buffer.get(), nullptr);
  queue.push(Stream::out, 0, buffer, RecordingQueue::kHandOverBytes);
  EXPECT_EQ(buffer.get(), nullptr);
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch[0].bytes(), std::string(10, 'x'));
  EXPECT_EQ(batch[1].bytes(), std::string(RecordingQueue::kHandOverBytes, 'x'));
  queue.release(batch);
}

TEST(RecordingQueue, AHandedOverBufferReleasedWhileItsPumpForwardsIsNotFreed) {
  RecordingQueue queue(no_linger(16 << 20));
  auto buffer = queue.take_buffer(Stream::out);
  const char* const forwarded = buffer.get();
  std::memset(buffer.get(), 'y', RecordingQueue::kHandOverBytes);
  queue.push(Stream::out, 0, buffer, RecordingQueue::kHandOverBytes);
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  queue.release(batch);  // the recorder is done before the pump's write(2) returns
  EXPECT_EQ(forwarded[RecordingQueue::kHandOverBytes - 1], 'y');
  // The pump, done forwarding, gets that very buffer back.
  EXPECT_EQ(queue.take_buffer(Stream::out).get(), forwarded);
}

TEST(RecordingQueue, AHandedOverBufferPushedAfterCloseIsNotFreed) {
  RecordingQueue queue(no_linger(16 << 20));
  queue.close();
  auto buffer = queue.take_buffer(Stream::in);
  const char* const forwarded = buffer.get();
  queue.push(Stream::in, 0, buffer, RecordingQueue::kHandOverBytes);
  EXPECT_EQ(queue.take_buffer(Stream::in).get(), forwarded);
}

TEST(RecordingQueue, WithoutSpillDirectoryAFullQueueHoldsTheProducerBack) {
  RecordingQueue queue(no_linger(1000));
  push_text(queue, Stream::out, 0, std::string(600, 'a'));
  std::atomic<bool> pushed{false};
  std::thread producer([&] {
    push_text(queue, Stream::out, 0, std::string(600, 'b'));
    pushed = true;
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(pushed);  // still waiting for room: nothing was dropped
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 1u);
  queue.release(batch);
  producer.join();
  EXPECT_TRUE(pushed);
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(loaded_bytes(queue, batch[0]), std::string(600, 'b'));
  queue.release(batch);
}

TEST(RecordingQueue, WithSpillDirectoryAFullQueueSpillsInsteadOfWaiting) {
  TempDir dir;
  auto limits = no_linger(1000);
  limits.spill_directory = dir.path();
  RecordingQueue queue(limits);
  for (char c = 'a'; c <= 'e'; ++c) push_text(queue, Stream::out, 0, std::string(600, c));
  EXPECT_EQ(queue.spilled_chunks(), 4u);
  // The spill file is anonymous: nothing is left in the directory.
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 5u);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    EXPECT_EQ(loaded_bytes(queue, batch[i]), std::string(600, static_cast<char>('a' + i)));
  }
  queue.release(batch);
  EXPECT_EQ(queue.queued_bytes(), 0u);
}

TEST(RecordingQueue, BeyondTheSpillBoundTheProducerIsHeldBack) {
  TempDir dir;
  auto limits = no_linger(1000);
  limits.spill_directory = dir.path();
  limits.spill_bytes = 1200;
  RecordingQueue queue(limits);
  push_text(queue, Stream::out, 0, std::string(600, 'a'));  // memory
  push_text(queue, Stream::out, 0, std::string(600, 'b'));  // spill
  push_text(queue, Stream::out, 0, std::string(600, 'c'));  // spill, now full
  std::atomic<bool> pushed{false};
  std::thread producer([&] {
    push_text(queue, Stream::out, 0, std::string(600, 'd'));
    pushed = true;
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(pushed);
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  queue.release(batch);
  producer.join();
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(loaded_bytes(queue, batch[0]), std::string(600, 'd'));
  queue.release(batch);
}

TEST(RecordingQueue, CloseDrainsWhatIsQueuedThenStops) {
  RecordingQueue queue(no_linger(1 << 20));
  push_text(queue, Stream::err, 0, "last words\n");
  queue.close();
  push_text(queue, Stream::err, 0, "after the end\n");  // discarded, never waits
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(loaded_bytes(queue, batch[0]), "last words\n");
  queue.release(batch);
  EXPECT_FALSE(queue.pop_batch(batch));
}

TEST(RecordingQueue, CloseWakesAWaitingConsumer) {
  RecordingQueue queue(no_linger(1 << 20));
  std::thread consumer([&] {
    std::vector<RecordedChunk> batch;
    EXPECT_FALSE(queue.pop_batch(batch));
  });
  std::this_thread::sleep_for(20ms);
  queue.close();
  consumer.join();
}

TEST(RecordingQueue, AWaitingConsumerIsWokenByAPush) {
  RecordingQueue queue(no_linger(1 << 20));
  std::thread consumer([&] {
    std::vector<RecordedChunk> batch;
    ASSERT_TRUE(queue.pop_batch(batch));
    EXPECT_EQ(batch.size(), 1u);
    queue.release(batch);
  });
  std::this_thread::sleep_for(20ms);
  push_text(queue, Stream::in, 0, "hello\n");
  consumer.join();
}

}  // namespace
}  // namespace claude::recorder
