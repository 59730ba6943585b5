// RecordingQueue: carries copies of forwarded chunks from claude-tee's pump threads to its
// recorder thread, so recording (splitting, redaction, encoding, writing) never runs on a
// forwarding thread.
//
// What it is: a bounded multi-producer, single-consumer FIFO of chunks and end-of-stream marks.
// A pump pushes a chunk after reading it and *before* forwarding it, so the order is causal
// across streams. A chunk of at least kHandOverBytes takes the pump's read buffer itself (the
// pump goes on with a recycled one); a smaller one is copied. The consumer takes all that is
// queued in one batch, and after a small batch lingers (1 ms) first: about one wake-up per
// linger period instead of one per line.
// Zero-copy (pipe to pipe with tee(2)): reserve() takes a chunk's place before the forward, under
// push()'s rules; commit() fills it or cancel() gives it up. The consumer only takes the committed
// prefix, so a pump must never block while it holds a place. A spill place's bytes go into the
// spill file (splice(2)); what did not get there commit() writes or keeps in memory.
//
// How it fails: it never drops a chunk while open. Past the memory bound (16 MiB) bytes go to an
// unlinked spill file, up to 1 GiB of backlog (rewound whenever the consumer catches up). Without
// a spill directory, past that bound, or when the file fails, push() waits for room
// (back-pressure: forwarding slows to the recorder's pace, nothing is lost). After close(),
// pushes are discarded without waiting, uncommitted places are dropped, and pop_batch() returns
// what is left, then false.
//
// What it costs: one mutex acquisition per push (reserve() and commit(): one each), one memcpy
// per small chunk, a futex wake only when the consumer sleeps idle; memory up to the bound plus a
// few recycled 256 KiB buffers; while the recorder lags, one pwrite(2) (or splice(2)) and one
// pread(2) per spilled chunk, and disk space for the backlog.
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
  std::unique_ptr<char[]> storage{};
  std::size_t size = 0;
  std::size_t charge = 0;    // bytes counted against the bound
  bool handed_over = false;  // `storage` is a pump's read buffer it may still forward from
  bool recyclable = false;   // `storage` has kBufferBytes: reused as a read buffer when released
  bool spilled = false;      // went through the spill file (holds a place in it until released)
  std::uint64_t spill_offset = 0;
  // The first spilled_bytes bytes wait in the spill file until RecordingQueue::load().
  std::size_t spilled_bytes = 0;
  bool pending = false;  // reserved, not committed yet

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

  // A place in the FIFO taken by reserve(), filled by commit() or given up by cancel().
  struct Slot {
    bool active = false;  // false when the queue was closed: commit() and cancel() do nothing
    Stream stream = Stream::out;
    std::uint64_t sequence = 0;
    std::size_t capacity = 0;
    bool spill = false;  // the bytes belong in the spill file (spill_fd) at spill_offset
    int spill_fd = -1;
    std::uint64_t spill_offset = 0;
  };
  // Takes the place of a chunk of at most `capacity` (<= kBufferBytes) bytes of `stream`, read at
  // `t`, at the end of the FIFO. Waits for room first, like push().
  [[nodiscard]] Slot reserve(Stream stream, double t, std::size_t capacity);
  // Fills the place with `size` bytes (0 < size <= capacity). For a spill place, bytes
  // [0, spilled_bytes) are already in the spill file at spill_offset; bytes [spilled_bytes, size)
  // are at the same positions in `buffer`. Takes `buffer` over (null afterwards; its bytes stay
  // valid until the caller takes its next buffer) when it keeps the bytes in memory and the chunk
  // is large, else copies or spills them and leaves `buffer` to the caller.
  void commit(const Slot& slot, std::unique_ptr<char[]>& buffer, std::size_t size,
              std::size_t spilled_bytes);
  // Gives the place up: nothing is recorded for it.
  void cancel(const Slot& slot);

  // Waits for queued chunks and moves them all into `batch` (cleared first), in push order, up to
  // the first reserved place not yet committed. Returns false when the queue is closed and empty.
  bool pop_batch(std::vector<RecordedChunk>& batch);
  // Reads a spilled chunk's bytes back (no-op for others). False when the spill file cannot be
  // read: the chunk's bytes are lost to the recording.
  bool load(RecordedChunk& chunk);
  // Gives the storage and room of a processed chunk back and wakes producers waiting for room.
  // The chunk keeps nothing, so releasing it again (with its batch) does nothing.
  void release(RecordedChunk& chunk);
  // The same for every chunk of a processed batch, under one lock; clears `batch`.
  void release(std::vector<RecordedChunk>& batch);

  // No more pushes are queued; the consumer drains what is queued, then stops.
  void close();

  [[nodiscard]] std::size_t queued_bytes() const;
  // Chunks that went through the spill file so far.
  [[nodiscard]] std::size_t spilled_chunks() const;

 private:
  void enqueue(RecordedChunk chunk, bool may_wait);
  void give_back(RecordedChunk& chunk);  // with mutex_ held
  bool try_spill(Stream stream, double t, const char* data, std::size_t size);
  // Whether a chunk charged `charge` goes to the spill file now; opens it on first use.
  bool should_spill(std::size_t charge, std::uint64_t size);
  bool wait_for_room(std::unique_lock<std::mutex>& lock, std::size_t charge);
  [[nodiscard]] std::size_t committed_prefix() const;
  RecordedChunk& reserved(const Slot& slot);
  void give_back_spill_tail(const Slot& slot, std::size_t used);

  const Limits limits_;
  mutable std::mutex mutex_;
  std::condition_variable consumer_wake_;
  std::condition_variable room_;
  std::vector<RecordedChunk> entries_;
  std::uint64_t first_sequence_ = 0;                      // of entries_.front()
  std::size_t pending_ = 0;                               // reserved places not yet committed
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
