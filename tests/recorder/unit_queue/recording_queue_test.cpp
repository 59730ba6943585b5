#include "claude/recorder/recording_queue.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

#include "claude/test_support/temp_dir.hpp"

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

using test_support::TempDir;

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

TEST(RecordingQueue, AChunkReleasedAloneGivesItsRoomAndBufferToTheNextSpilledOne) {
  TempDir dir;
  auto limits = no_linger(RecordingQueue::kBufferBytes);
  limits.spill_directory = dir.path();
  RecordingQueue queue(limits);
  const std::size_t size = RecordingQueue::kHandOverBytes;
  push_text(queue, Stream::out, 0, std::string(size, 'a'));  // memory
  push_text(queue, Stream::out, 0, std::string(size, 'b'));  // spill
  push_text(queue, Stream::out, 0, std::string(size, 'c'));  // spill
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 3u);
  ASSERT_TRUE(batch[1].spilled && batch[2].spilled);
  const std::size_t queued = queue.queued_bytes();
  queue.release(batch[0]);
  EXPECT_EQ(queue.queued_bytes(), queued - RecordingQueue::kBufferBytes);
  EXPECT_EQ(loaded_bytes(queue, batch[1]), std::string(size, 'b'));
  const char* const first_load = batch[1].storage.get();
  queue.release(batch[1]);
  // Loaded into the buffer the chunk before it gave back, not into fresh pages.
  EXPECT_EQ(loaded_bytes(queue, batch[2]), std::string(size, 'c'));
  EXPECT_EQ(batch[2].storage.get(), first_load);
  queue.release(batch);  // what was released alone is not given back twice
  EXPECT_EQ(queue.queued_bytes(), 0u);
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

// The zero-copy path: a place taken before the bytes are at hand (forwarded with tee(2) first).

std::unique_ptr<char[]> filled_buffer(RecordingQueue& queue, Stream stream, char c,
                                      std::size_t size) {
  auto buffer = queue.take_buffer(stream);
  std::memset(buffer.get(), c, size);
  return buffer;
}

TEST(RecordingQueueSlot, TheConsumerTakesOnlyTheCommittedPrefix) {
  RecordingQueue queue(no_linger(16 << 20));
  push_text(queue, Stream::in, 1.0, "request\n");
  const auto slot = queue.reserve(Stream::out, 2.0, RecordingQueue::kBufferBytes);
  ASSERT_TRUE(slot.active);
  EXPECT_FALSE(slot.spill);
  push_text(queue, Stream::err, 3.0, "after the reserved place\n");
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(loaded_bytes(queue, batch[0]), "request\n");
  queue.release(batch);

  std::atomic<bool> popped{false};
  std::thread consumer([&] {
    ASSERT_TRUE(queue.pop_batch(batch));
    popped = true;
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(popped);  // the answer waits for the reserved place before it
  auto buffer = filled_buffer(queue, Stream::out, 'o', RecordingQueue::kHandOverBytes);
  queue.commit(slot, buffer, RecordingQueue::kHandOverBytes, 0);
  consumer.join();
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch[0].stream, Stream::out);
  EXPECT_EQ(batch[0].t, 2.0);
  EXPECT_EQ(loaded_bytes(queue, batch[0]), std::string(RecordingQueue::kHandOverBytes, 'o'));
  EXPECT_EQ(loaded_bytes(queue, batch[1]), "after the reserved place\n");
  queue.release(batch);
  EXPECT_EQ(queue.queued_bytes(), 0u);
}

TEST(RecordingQueueSlot, ALargeCommitTakesTheBufferOverAndASmallOneCopies) {
  RecordingQueue queue(no_linger(16 << 20));
  auto buffer = filled_buffer(queue, Stream::out, 's', RecordingQueue::kBufferBytes);
  queue.commit(queue.reserve(Stream::out, 0, 100), buffer, 100, 0);
  EXPECT_NE(buffer.get(), nullptr);
  queue.commit(queue.reserve(Stream::out, 0, RecordingQueue::kBufferBytes), buffer,
               RecordingQueue::kBufferBytes, 0);
  EXPECT_EQ(buffer.get(), nullptr);
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(loaded_bytes(queue, batch[0]), std::string(100, 's'));
  EXPECT_EQ(loaded_bytes(queue, batch[1]), std::string(RecordingQueue::kBufferBytes, 's'));
  queue.release(batch);
  EXPECT_EQ(queue.queued_bytes(), 0u);
}

TEST(RecordingQueueSlot, ACancelledPlaceRecordsNothingAndUnblocksTheQueue) {
  RecordingQueue queue(no_linger(16 << 20));
  const auto slot = queue.reserve(Stream::out, 0, 1000);
  push_text(queue, Stream::in, 0, "next\n");
  queue.cancel(slot);
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch[0].size, 0u);
  EXPECT_FALSE(batch[0].eof);
  EXPECT_EQ(loaded_bytes(queue, batch[1]), "next\n");
  queue.release(batch);
  EXPECT_EQ(queue.queued_bytes(), 0u);
}

TEST(RecordingQueueSlot, BeyondTheMemoryBoundAPlaceIsInTheSpillFile) {
  TempDir dir;
  auto limits = no_linger(1000);
  limits.spill_directory = dir.path();
  RecordingQueue queue(limits);
  push_text(queue, Stream::out, 0, std::string(600, 'a'));  // memory
  const auto first = queue.reserve(Stream::out, 1.0, 4096);
  const auto second = queue.reserve(Stream::out, 2.0, 4096);
  ASSERT_TRUE(first.spill);
  ASSERT_TRUE(second.spill);
  EXPECT_GE(first.spill_fd, 0);
  EXPECT_GE(second.spill_offset, first.spill_offset + 4096);
  // The pump put part of the first chunk in the file itself (splice(2)); commit() writes the rest.
  const std::string part(1000, 'p');
  ASSERT_EQ(
      ::pwrite(first.spill_fd, part.data(), part.size(), static_cast<off_t>(first.spill_offset)),
      static_cast<ssize_t>(part.size()));
  auto buffer = filled_buffer(queue, Stream::out, 'q', 3000);
  queue.commit(first, buffer, 3000, 1000);
  EXPECT_NE(buffer.get(), nullptr);  // spilled: the pump keeps its buffer
  std::memset(buffer.get(), 'r', 2000);
  queue.commit(second, buffer, 2000, 0);
  EXPECT_EQ(queue.spilled_chunks(), 2u);
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(loaded_bytes(queue, batch[1]), part + std::string(2000, 'q'));
  EXPECT_EQ(loaded_bytes(queue, batch[2]), std::string(2000, 'r'));
  queue.release(batch);
  EXPECT_EQ(queue.queued_bytes(), 0u);
}

TEST(RecordingQueueSlot, WithoutSpillDirectoryReserveWaitsForRoomBeforeTakingThePlace) {
  RecordingQueue queue(no_linger(RecordingQueue::kBufferBytes));
  push_text(queue, Stream::out, 0, std::string(600, 'a'));
  std::atomic<bool> reserved{false};
  RecordingQueue::Slot slot;
  std::thread producer([&] {
    slot = queue.reserve(Stream::out, 0, 1000);
    reserved = true;
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(reserved);
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));  // the waiting producer holds no place: nothing blocks this
  ASSERT_EQ(batch.size(), 1u);
  queue.release(batch);
  producer.join();
  EXPECT_TRUE(reserved);
  auto buffer = filled_buffer(queue, Stream::out, 'b', 1000);
  queue.commit(slot, buffer, 1000, 0);
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(loaded_bytes(queue, batch[0]), std::string(1000, 'b'));
  queue.release(batch);
}

TEST(RecordingQueueSlot, ReservingAndPushingPumpsKeepEachStreamWholeAndInOrder) {
  TempDir dir;
  auto limits = no_linger(std::size_t{1} << 20);  // small: many places end up in the spill file
  limits.spill_directory = dir.path();
  RecordingQueue queue(limits);
  constexpr int kChunks = 400;
  // Chunk i of a stream: its number, then filler, `size` bytes in all.
  const auto chunk_text = [](int i, std::size_t size) {
    std::string text = std::to_string(i) + ":";
    text.resize(size, static_cast<char>('a' + i % 26));
    return text;
  };
  const auto size_of = [](int i) { return std::size_t{1000} + (i * 7919) % 60000; };
  std::thread reserving([&] {
    auto buffer = queue.take_buffer(Stream::out);
    for (int i = 0; i < kChunks; ++i) {
      const std::string text = chunk_text(i, size_of(i));
      const auto slot = queue.reserve(Stream::out, i, text.size());
      if (i % 5 == 0) {
        queue.cancel(slot);  // a full destination: given back, then taken again
        const auto again = queue.reserve(Stream::out, i, text.size());
        std::memcpy(buffer.get(), text.data(), text.size());
        queue.commit(again, buffer, text.size(), 0);
      } else {
        std::memcpy(buffer.get(), text.data(), text.size());
        queue.commit(slot, buffer, text.size(), 0);
      }
      if (!buffer) buffer = queue.take_buffer(Stream::out);
    }
    queue.push_eof(Stream::out, kChunks);
  });
  std::thread pushing([&] {
    for (int i = 0; i < kChunks; ++i) push_text(queue, Stream::in, i, chunk_text(i, size_of(i)));
    queue.push_eof(Stream::in, kChunks);
  });
  int next[3] = {0, 0, 0};
  int eofs = 0;
  std::vector<RecordedChunk> batch;
  while (eofs < 2 && queue.pop_batch(batch)) {
    for (auto& chunk : batch) {
      auto& n = next[static_cast<int>(chunk.stream)];
      if (chunk.eof) {
        EXPECT_EQ(n, kChunks);
        ++eofs;
        continue;
      }
      if (chunk.size == 0) continue;  // a place given back
      ASSERT_EQ(loaded_bytes(queue, chunk), chunk_text(n, size_of(n)));
      EXPECT_EQ(chunk.t, n);
      ++n;
    }
    queue.release(batch);
  }
  reserving.join();
  pushing.join();
  EXPECT_EQ(eofs, 2);
  EXPECT_GT(queue.spilled_chunks(), 0u);
  EXPECT_EQ(queue.queued_bytes(), 0u);
}

TEST(RecordingQueueSlot, CloseDropsUncommittedPlacesAndKeepsTheRest) {
  RecordingQueue queue(no_linger(16 << 20));
  const auto slot = queue.reserve(Stream::out, 0, RecordingQueue::kBufferBytes);
  push_text(queue, Stream::err, 0, "read before the end\n");
  queue.close();
  std::vector<RecordedChunk> batch;
  ASSERT_TRUE(queue.pop_batch(batch));
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(loaded_bytes(queue, batch[0]), "read before the end\n");
  queue.release(batch);
  EXPECT_EQ(queue.queued_bytes(), 0u);
  // The pump commits late: the queue is closed, the pump keeps its buffer.
  auto buffer = filled_buffer(queue, Stream::out, 'x', RecordingQueue::kBufferBytes);
  queue.commit(slot, buffer, RecordingQueue::kBufferBytes, 0);
  EXPECT_NE(buffer.get(), nullptr);
  EXPECT_FALSE(queue.reserve(Stream::out, 0, 10).active);
  EXPECT_FALSE(queue.pop_batch(batch));
}

}  // namespace
}  // namespace claude::recorder
