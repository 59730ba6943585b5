#include "process/lending_buffers.hpp"

#include <atomic>

namespace claude::sdk::process {

const std::shared_ptr<char[]>* LendingBuffers::free_buffer() {
  for (const auto& buffer : buffers_) {
    if (buffer.use_count() == 1) {
      // use_count() is a relaxed load; the fence orders the holder's last reads of the buffer
      // (before its release decrement) before our writes into it.
      std::atomic_thread_fence(std::memory_order_acquire);
      return &buffer;
    }
  }
  if (buffers_.size() == kMaxBuffers) return nullptr;
  buffers_.emplace_back(new char[bytes_ + padding_]);
  return &buffers_.back();
}

}  // namespace claude::sdk::process
