#include "claude/recorder/recording_queue.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

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
    auto& free = free_buffers_[s];
    if (!free.empty()) {
      auto buffer = std::move(free.back());
      free.pop_back();
      return buffer;
    }
  }
  return std::unique_ptr<char[]>(new char[kBufferBytes]);
}

bool RecordingQueue::try_spill(Stream stream, double t, const char* data, std::size_t size) {
  std::uint64_t offset = 0;
  {
    std::lock_guard lock(mutex_);
    if (closed_ || spill_broken_ || limits_.spill_directory.empty()) return false;
    const std::size_t charge = size >= kHandOverBytes ? kBufferBytes : size + kChunkOverhead;
    if (queued_bytes_ == 0 || queued_bytes_ + charge <= limits_.memory_bytes) return false;
    if (spill_end_ + size > limits_.spill_bytes) return false;
    if (spill_fd_ < 0) {
      spill_fd_ = open_spill_file(limits_.spill_directory);
      if (spill_fd_ < 0) {
        spill_broken_ = true;
        return false;
      }
    }
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
  RecordedChunk chunk;
  chunk.stream = stream;
  chunk.t = t;
  chunk.size = size;
  chunk.charge = kChunkOverhead;
  chunk.spilled = true;
  chunk.spill_offset = offset;
  enqueue(std::move(chunk), false);
  return true;
}

void RecordingQueue::push(Stream stream, double t, std::unique_ptr<char[]>& buffer,
                          std::size_t size) {
  if (try_spill(stream, t, buffer.get(), size)) return;
  RecordedChunk chunk;
  chunk.stream = stream;
  chunk.t = t;
  chunk.size = size;
  if (size >= kHandOverBytes) {
    {
      std::lock_guard lock(mutex_);
      forwarding_[index_of(stream)] = buffer.get();
    }
    chunk.storage = std::move(buffer);
    chunk.charge = kBufferBytes;
    chunk.handed_over = true;
  } else {
    chunk.storage.reset(new char[size == 0 ? 1 : size]);
    std::memcpy(chunk.storage.get(), buffer.get(), size);
    chunk.charge = size + kChunkOverhead;
  }
  enqueue(std::move(chunk), true);
}

void RecordingQueue::push_eof(Stream stream, double t) {
  RecordedChunk chunk;
  chunk.stream = stream;
  chunk.t = t;
  chunk.eof = true;
  chunk.charge = kChunkOverhead;
  enqueue(std::move(chunk), true);
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
    if (may_wait && queued_bytes_ > 0 && queued_bytes_ + chunk.charge > limits_.memory_bytes) {
      ++producers_waiting_;
      room_.wait(lock, [&] {
        return closed_ || queued_bytes_ == 0 ||
               queued_bytes_ + chunk.charge <= limits_.memory_bytes;
      });
      --producers_waiting_;
      if (closed_) return;
    }
    queued_bytes_ += chunk.charge;
    if (chunk.spilled) ++spilled_chunks_;
    entries_.push_back(std::move(chunk));
    wake = consumer_idle_;
    consumer_idle_ = false;
  }
  if (wake) consumer_wake_.notify_one();
}

bool RecordingQueue::pop_batch(std::vector<RecordedChunk>& batch) {
  batch.clear();
  std::unique_lock lock(mutex_);
  if (last_batch_small_ && !closed_) {
    // Producers do not wake a lingering consumer; close() does.
    consumer_wake_.wait_for(lock, limits_.linger, [&] { return closed_; });
  }
  if (entries_.empty() && !closed_) {
    consumer_idle_ = true;
    consumer_wake_.wait(lock, [&] { return !entries_.empty() || closed_; });
    consumer_idle_ = false;
  }
  if (entries_.empty()) return false;
  std::size_t bytes = 0;
  for (const auto& chunk : entries_) bytes += chunk.size;
  last_batch_small_ = bytes < kHandOverBytes;
  batch.swap(entries_);
  return true;
}

bool RecordingQueue::load(RecordedChunk& chunk) {
  if (!chunk.spilled || chunk.storage) return true;
  if (chunk.size <= kBufferBytes) {
    // A recycled read buffer (a pump's chunk is one read): a fresh allocation per chunk would
    // cost page faults on every load.
    std::lock_guard lock(mutex_);
    auto& free = free_buffers_[index_of(chunk.stream)];
    if (!free.empty()) {
      chunk.storage = std::move(free.back());
      free.pop_back();
    }
  }
  if (!chunk.storage) chunk.storage.reset(new char[std::max(chunk.size, kBufferBytes)]);
  std::size_t done = 0;
  while (done < chunk.size) {
    const ssize_t n = ::pread(spill_fd_, chunk.storage.get() + done, chunk.size - done,
                              static_cast<off_t>(chunk.spill_offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      chunk.size = 0;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void RecordingQueue::release(std::vector<RecordedChunk>& batch) {
  bool wake = false;
  {
    std::lock_guard lock(mutex_);
    for (auto& chunk : batch) {
      queued_bytes_ -= chunk.charge;
      if (chunk.spilled && --spills_outstanding_ == 0) spill_end_ = 0;
      auto& free = free_buffers_[index_of(chunk.stream)];
      if (chunk.spilled) {
        // Loaded into a buffer of kBufferBytes unless larger: recycled like a read buffer.
        if (chunk.storage && chunk.size <= kBufferBytes && free.size() < kKeptBuffers) {
          free.push_back(std::move(chunk.storage));
        }
      } else if (chunk.handed_over) {
        const std::size_t s = index_of(chunk.stream);
        if (chunk.storage.get() == forwarding_[s]) {
          // Its pump may still be writing these bytes: not freed, given back at take_buffer.
          released_while_forwarding_[s] = std::move(chunk.storage);
        } else if (free.size() < kKeptBuffers) {
          free.push_back(std::move(chunk.storage));
        }
      }
    }
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
