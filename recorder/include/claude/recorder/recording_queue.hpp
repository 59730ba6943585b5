// RecordingQueue: carries the copies of forwarded chunks from claude-tee's pump threads to its
// recorder thread, so that recording (line splitting, redaction, encoding, the file write) never
// runs on a forwarding thread.
//
// What it is: a bounded multi-producer, single-consumer FIFO of chunks (stream, read time, bytes)
// and end-of-stream marks. A pump pushes a chunk right after reading it and *before* forwarding
// it, so the FIFO order is causal across streams: an answer is pushed after the request that
// caused it. A chunk of at least kHandOverBytes takes the pump's read buffer itself (no copy) and
// the pump continues with a recycled one (take_buffer); a smaller chunk is copied. The consumer
// takes everything queued in one batch; after a batch of less than kHandOverBytes it lingers
// (1 ms by default) before taking the next one, so a chatty session costs about one wake-up per
// linger period instead of one per line.
//
// How it fails: it never drops a chunk while open. When the queued bytes reach the memory bound
// (16 MiB), a chunk's bytes go to an unlinked spill file in the spill directory instead (written
// by the pump, read back by the consumer), up to the spill bound (1 GiB of backlog; the file is
// rewound whenever the consumer catches up). Without a spill directory, when the spill bound is
// reached or the spill file cannot be created or written, push() waits until the consumer has
// released enough (back-pressure: forwarding slows down to the recorder's pace instead of losing
// recording data). After close(), push() discards and never waits, and pop_batch() returns what
// is left, then false.
//
// What it costs: one mutex acquisition per push, one memcpy for small chunks, a futex wake only
// when the consumer sleeps idle; memory up to the bound plus a few recycled 256 KiB buffers;
// while the recorder lags, one pwrite(2) and one pread(2) per spilled chunk and disk space for
// the backlog.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include "claude/recorder/event_encoder.hpp"

namespace claude::recorder {

struct RecordedChunk {
  Stream stream = Stream::out;
  double t = 0;      // seconds, taken when the read returned
  bool eof = false;  // an end-of-stream mark (no bytes)
  std::unique_ptr<char[]> storage;
  std::size_t size = 0;
  std::size_t charge = 0;  // bytes counted against the bound
  bool handed_over = false;
  bool spilled = false;  // the bytes wait in the spill file until RecordingQueue::load()
  std::uint64_t spill_offset = 0;

  [[nodiscard]] std::string_view bytes() const noexcept { return {storage.get(), size}; }
};

class RecordingQueue {
 public:
  static constexpr std::size_t kBufferBytes = std::size_t{256} << 10;  // one read(2)
  static constexpr std::size_t kHandOverBytes = std::size_t{16} << 10;
  static constexpr std::size_t kDefaultBoundBytes = std::size_t{16} << 20;
  static constexpr std::uint64_t kDefaultSpillBytes = std::uint64_t{1} << 30;

  struct Limits {
    std::size_t memory_bytes = kDefaultBoundBytes;
    std::filesystem::path spill_directory;  // empty: no spilling, back-pressure at the bound
    std::uint64_t spill_bytes = kDefaultSpillBytes;
    std::chrono::microseconds linger{1000};
  };

  RecordingQueue() : RecordingQueue(Limits{}) {}
  explicit RecordingQueue(Limits limits);
  ~RecordingQueue();

  RecordingQueue(const RecordingQueue&) = delete;
  RecordingQueue& operator=(const RecordingQueue&) = delete;

  // A read buffer of kBufferBytes for the pump of `stream` (recycled when one is free). Only that
  // pump takes its stream's buffers, and only once it is done with the previous one.
  [[nodiscard]] std::unique_ptr<char[]> take_buffer(Stream stream);

  // Queues bytes [0, size) of `buffer`, read at `t`. A large chunk moves `buffer` into the queue
  // (it is null afterwards; its bytes stay valid until the caller takes its next buffer); a small
  // one is copied. Waits while the queue is full.
  void push(Stream stream, double t, std::unique_ptr<char[]>& buffer, std::size_t size);
  // Queues the end-of-stream mark of `stream`.
  void push_eof(Stream stream, double t);

  // Waits for queued chunks and moves them all into `batch` (cleared first), in push order.
  // Returns false when the queue is closed and empty.
  bool pop_batch(std::vector<RecordedChunk>& batch);
  // Reads a spilled chunk's bytes back (no-op for others). False when the spill file cannot be
  // read: the chunk's bytes are lost to the recording.
  bool load(RecordedChunk& chunk);
  // Gives the storage of a processed batch back and wakes producers waiting for room.
  void release(std::vector<RecordedChunk>& batch);

  // No more pushes are queued; the consumer drains what is queued, then stops.
  void close();

  [[nodiscard]] std::size_t queued_bytes() const;
  // Chunks that went through the spill file so far.
  [[nodiscard]] std::size_t spilled_chunks() const;

 private:
  void enqueue(RecordedChunk chunk, bool may_wait);
  bool try_spill(Stream stream, double t, const char* data, std::size_t size);

  const Limits limits_;
  mutable std::mutex mutex_;
  std::condition_variable consumer_wake_;
  std::condition_variable room_;
  std::vector<RecordedChunk> entries_;
  std::vector<std::unique_ptr<char[]>> free_buffers_[3];  // per Stream
  // The buffer each pump handed over last and may still be forwarding from, until it takes its
  // next one; if the consumer releases it before that, it waits here instead of being freed.
  const char* forwarding_[3] = {nullptr, nullptr, nullptr};
  std::unique_ptr<char[]> released_while_forwarding_[3];
  std::size_t queued_bytes_ = 0;
  int producers_waiting_ = 0;
  int spill_fd_ = -1;
  bool spill_broken_ = false;    // creating or writing the spill file failed: no more spilling
  std::uint64_t spill_end_ = 0;  // next free offset
  std::size_t spills_outstanding_ = 0;  // reserved and not yet released
  std::size_t spilled_chunks_ = 0;
  bool consumer_idle_ = false;
  bool last_batch_small_ = false;
  bool closed_ = false;
};

}  // namespace claude::recorder
