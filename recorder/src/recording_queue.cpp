#include "claude/recorder/recording_queue.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace claude::recorder {
namespace {

// Recycled read buffers kept per stream; more are freed (a burst that filled the queue).
constexpr std::size_t kKeptBuffers = 4;
// What a copied chunk costs besides its bytes (allocation and bookkeeping).
constexpr std::size_t kChunkOverhead = 64;

std::size_t index_of(Stream stream) {
  return static_cast<std::size_t>(stream);
}

// An anonymous file in `directory` (O_TMPFILE, else a named one unlinked at once), mode 0600.
int open_spill_file(const std::filesystem::path& directory) {
  int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  std::string name = (directory / ".claude-tee-spill-XXXXXX").string();
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd >= 0) ::unlink(name.c_str());
  return fd;
}

bool pwrite_all(int fd, const char* data, std::size_t size, std::uint64_t offset) {
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, data, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

// A recycled buffer from `free`, or null.
std::unique_ptr<char[]> pop_free(std::vector<std::unique_ptr<char[]>>& free) {
  if (free.empty()) return nullptr;
  auto buffer = std::move(free.back());
  free.pop_back();
  return buffer;
}

// Gives `chunk` bytes [0, size) of `buffer`: a large chunk takes the buffer over (its pump may
// still be forwarding from it), a small one gets a copy.
void keep_bytes(RecordedChunk& chunk, std::unique_ptr<char[]>& buffer, std::size_t size) {
  if (size >= RecordingQueue::kHandOverBytes) {
    chunk.storage = std::move(buffer);
    chunk.charge = RecordingQueue::kBufferBytes;
    chunk.handed_over = true;
    chunk.recyclable = true;
  } else {
    chunk.storage.reset(new char[size == 0 ? 1 : size]);
    std::memcpy(chunk.storage.get(), buffer.get(), size);
    chunk.charge = size + kChunkOverhead;
  }
}

}  // namespace

RecordingQueue::RecordingQueue(Limits limits) : limits_(std::move(limits)) {}

RecordingQueue::~RecordingQueue() {
  if (spill_fd_ >= 0) ::close(spill_fd_);
}

std::unique_ptr<char[]> RecordingQueue::take_buffer(Stream stream) {
  {
    std::lock_guard lock(mutex_);
    const std::size_t s = index_of(stream);
    forwarding_[s] = nullptr;  // the pump is done with its previous buffer
    if (released_while_forwarding_[s]) return std::move(released_while_forwarding_[s]);
    if (auto buffer = pop_free(free_buffers_[s])) return buffer;
  }
  return std::unique_ptr<char[]>(new char[kBufferBytes]);
}

bool RecordingQueue::should_spill(std::size_t charge, std::uint64_t size) {
  if (closed_ || spill_broken_ || limits_.spill_directory.empty()) return false;
  if (queued_bytes_ == 0 || queued_bytes_ + charge <= limits_.memory_bytes) return false;
  if (spill_end_ + size > limits_.spill_bytes) return false;
  if (spill_fd_ < 0) {
    spill_fd_ = open_spill_file(limits_.spill_directory);
    if (spill_fd_ < 0) {
      spill_broken_ = true;
      return false;
    }
  }
  return true;
}

bool RecordingQueue::wait_for_room(std::unique_lock<std::mutex>& lock, std::size_t charge) {
  if (queued_bytes_ > 0 && queued_bytes_ + charge > limits_.memory_bytes) {
    ++producers_waiting_;
    room_.wait(lock, [&] {
      return closed_ || queued_bytes_ == 0 || queued_bytes_ + charge <= limits_.memory_bytes;
    });
    --producers_waiting_;
  }
  return !closed_;
}

bool RecordingQueue::try_spill(Stream stream, double t, const char* data, std::size_t size) {
  std::uint64_t offset = 0;
  {
    std::lock_guard lock(mutex_);
    const std::size_t charge = size >= kHandOverBytes ? kBufferBytes : size + kChunkOverhead;
    if (!should_spill(charge, size)) return false;
    offset = spill_end_;
    spill_end_ += size;
    ++spills_outstanding_;
  }
  if (!pwrite_all(spill_fd_, data, size, offset)) {
    std::lock_guard lock(mutex_);
    spill_broken_ = true;
    if (--spills_outstanding_ == 0) spill_end_ = 0;
    return false;
  }
  enqueue(RecordedChunk{.stream = stream,
                        .t = t,
                        .size = size,
                        .charge = kChunkOverhead,
                        .spilled = true,
                        .spill_offset = offset,
                        .spilled_bytes = size},
          false);
  return true;
}

void RecordingQueue::push(Stream stream, double t, std::unique_ptr<char[]>& buffer,
                          std::size_t size) {
  if (try_spill(stream, t, buffer.get(), size)) return;
  RecordedChunk chunk{.stream = stream, .t = t, .size = size};
  keep_bytes(chunk, buffer, size);
  if (chunk.handed_over) {
    std::lock_guard lock(mutex_);
    forwarding_[index_of(stream)] = chunk.storage.get();
  }
  enqueue(std::move(chunk), true);
}

void RecordingQueue::push_eof(Stream stream, double t) {
  enqueue(RecordedChunk{.stream = stream, .t = t, .eof = true, .charge = kChunkOverhead}, true);
}

void RecordingQueue::enqueue(RecordedChunk chunk, bool may_wait) {
  bool wake = false;
  {
    std::unique_lock lock(mutex_);
    if (closed_) {
      if (chunk.spilled && --spills_outstanding_ == 0) spill_end_ = 0;
      if (chunk.handed_over) {
        released_while_forwarding_[index_of(chunk.stream)] = std::move(chunk.storage);
      }
      return;
    }
    if (may_wait && !wait_for_room(lock, chunk.charge)) return;
    queued_bytes_ += chunk.charge;
    if (chunk.spilled) ++spilled_chunks_;
    entries_.push_back(std::move(chunk));
    wake = std::exchange(consumer_idle_, false);
  }
  if (wake) consumer_wake_.notify_one();
}

RecordingQueue::Slot RecordingQueue::reserve(Stream stream, double t, std::size_t capacity) {
  Slot slot;
  slot.stream = stream;
  slot.capacity = capacity;
  std::unique_lock lock(mutex_);
  if (closed_) return slot;
  RecordedChunk chunk{.stream = stream, .t = t, .pending = true};
  if (should_spill(kBufferBytes, capacity)) {
    slot.spill = true;
    slot.spill_fd = spill_fd_;
    slot.spill_offset = spill_end_;
    spill_end_ += capacity;
    ++spills_outstanding_;
    chunk.spilled = true;
    chunk.spill_offset = slot.spill_offset;
    chunk.charge = kChunkOverhead;
  } else {
    if (!wait_for_room(lock, kBufferBytes)) return slot;
    chunk.charge = kBufferBytes;
  }
  queued_bytes_ += chunk.charge;
  slot.sequence = first_sequence_ + entries_.size();
  slot.active = true;
  entries_.push_back(std::move(chunk));
  ++pending_;
  return slot;
}

RecordedChunk& RecordingQueue::reserved(const Slot& slot) {
  return entries_[static_cast<std::size_t>(slot.sequence - first_sequence_)];
}

void RecordingQueue::give_back_spill_tail(const Slot& slot, std::size_t used) {
  // Only the last place taken in the file can shrink; an earlier one leaves a hole until the
  // file is rewound.
  if (spill_end_ == slot.spill_offset + slot.capacity) spill_end_ = slot.spill_offset + used;
}

void RecordingQueue::commit(const Slot& slot, std::unique_ptr<char[]>& buffer, std::size_t size,
                            std::size_t spilled_bytes) {
  if (!slot.active) return;
  if (slot.spill && spilled_bytes < size &&
      pwrite_all(slot.spill_fd, buffer.get() + spilled_bytes, size - spilled_bytes,
                 slot.spill_offset + spilled_bytes)) {
    spilled_bytes = size;
  }
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;  // the place was dropped (or is about to be) by pop_batch()
    RecordedChunk& chunk = reserved(slot);
    chunk.pending = false;
    --pending_;
    chunk.size = size;
    if (slot.spill) {
      give_back_spill_tail(slot, size);
      ++spilled_chunks_;
      chunk.spilled_bytes = spilled_bytes;
      if (spilled_bytes < size) spill_broken_ = true;
    }
    if (!slot.spill || spilled_bytes < size) {
      const std::size_t reserved_charge = chunk.charge;
      keep_bytes(chunk, buffer, size);
      if (chunk.handed_over) forwarding_[index_of(slot.stream)] = chunk.storage.get();
      queued_bytes_ = queued_bytes_ - reserved_charge + chunk.charge;
    }
    wake = std::exchange(consumer_idle_, false);
  }
  if (wake) consumer_wake_.notify_one();
}

void RecordingQueue::cancel(const Slot& slot) {
  if (!slot.active) return;
  bool wake = false;
  bool room = false;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    RecordedChunk& chunk = reserved(slot);
    chunk.pending = false;
    --pending_;
    chunk.size = 0;
    if (slot.spill) give_back_spill_tail(slot, 0);
    queued_bytes_ = queued_bytes_ - chunk.charge + kChunkOverhead;
    chunk.charge = kChunkOverhead;
    wake = std::exchange(consumer_idle_, false);
    room = producers_waiting_ > 0;
  }
  if (wake) consumer_wake_.notify_one();
  if (room) room_.notify_all();
}

std::size_t RecordingQueue::committed_prefix() const {
  if (pending_ == 0) return entries_.size();
  std::size_t n = 0;
  while (n < entries_.size() && !entries_[n].pending) ++n;
  return n;
}

bool RecordingQueue::pop_batch(std::vector<RecordedChunk>& batch) {
  batch.clear();
  std::unique_lock lock(mutex_);
  if (last_batch_small_ && !closed_) {
    // Producers do not wake a lingering consumer; close() does.
    consumer_wake_.wait_for(lock, limits_.linger, [&] { return closed_; });
  }
  while (committed_prefix() == 0 && !closed_) {
    // Idle again after each wake-up: a push behind a reserved place does not end the wait.
    consumer_idle_ = true;
    consumer_wake_.wait(lock);
  }
  consumer_idle_ = false;
  if (closed_ && pending_ > 0) {
    // Their pumps find the queue closed and keep their bytes.
    std::erase_if(entries_, [&](const RecordedChunk& chunk) {
      if (!chunk.pending) return false;
      queued_bytes_ -= chunk.charge;
      if (chunk.spilled && --spills_outstanding_ == 0) spill_end_ = 0;
      return true;
    });
    pending_ = 0;
  }
  const std::size_t count = committed_prefix();
  if (count == 0) return false;
  if (count == entries_.size()) {
    batch.swap(entries_);
  } else {
    const auto end = entries_.begin() + static_cast<std::ptrdiff_t>(count);
    batch.assign(std::make_move_iterator(entries_.begin()), std::make_move_iterator(end));
    entries_.erase(entries_.begin(), end);
  }
  first_sequence_ += count;
  std::size_t bytes = 0;
  for (const auto& chunk : batch) bytes += chunk.size;
  last_batch_small_ = bytes < kHandOverBytes;
  return true;
}

bool RecordingQueue::load(RecordedChunk& chunk) {
  if (chunk.spilled_bytes == 0) return true;
  if (!chunk.storage && chunk.size <= kBufferBytes) {
    // A recycled read buffer (a pump's chunk is one read): a fresh allocation per chunk would
    // cost page faults on every load.
    std::lock_guard lock(mutex_);
    chunk.storage = pop_free(free_buffers_[index_of(chunk.stream)]);
    chunk.recyclable = chunk.storage != nullptr;
  }
  if (!chunk.storage) {
    chunk.storage.reset(new char[std::max(chunk.size, kBufferBytes)]);
    chunk.recyclable = chunk.size <= kBufferBytes;
  }
  std::size_t done = 0;
  while (done < chunk.spilled_bytes) {
    const ssize_t n = ::pread(spill_fd_, chunk.storage.get() + done, chunk.spilled_bytes - done,
                              static_cast<off_t>(chunk.spill_offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      chunk.size = 0;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  chunk.spilled_bytes = 0;
  return true;
}

void RecordingQueue::give_back(RecordedChunk& chunk) {
  queued_bytes_ -= chunk.charge;
  chunk.charge = 0;
  if (chunk.spilled && --spills_outstanding_ == 0) spill_end_ = 0;
  chunk.spilled = false;
  if (!chunk.storage || !chunk.recyclable) return;
  const std::size_t s = index_of(chunk.stream);
  if (chunk.handed_over && chunk.storage.get() == forwarding_[s]) {
    // Its pump may still be writing these bytes: not freed, given back at take_buffer.
    released_while_forwarding_[s] = std::move(chunk.storage);
  } else if (free_buffers_[s].size() < kKeptBuffers) {
    free_buffers_[s].push_back(std::move(chunk.storage));
  }
}

void RecordingQueue::release(RecordedChunk& chunk) {
  bool wake = false;
  std::unique_ptr<char[]> unkept;  // freed after the lock, like a batch's
  {
    std::lock_guard lock(mutex_);
    give_back(chunk);
    unkept = std::move(chunk.storage);
    wake = producers_waiting_ > 0;
  }
  if (wake) room_.notify_all();
}

void RecordingQueue::release(std::vector<RecordedChunk>& batch) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    for (auto& chunk : batch) give_back(chunk);
    wake = producers_waiting_ > 0;
  }
  batch.clear();
  if (wake) room_.notify_all();
}

void RecordingQueue::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  consumer_wake_.notify_all();
  room_.notify_all();
}

std::size_t RecordingQueue::spilled_chunks() const {
  std::lock_guard lock(mutex_);
  return spilled_chunks_;
}

std::size_t RecordingQueue::queued_bytes() const {
  std::lock_guard lock(mutex_);
  return queued_bytes_;
}

}  // namespace claude::recorder
