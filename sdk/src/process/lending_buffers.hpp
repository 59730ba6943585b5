// The read buffers a SubprocessTransport lends stdout lines from (SubprocessOptions::lend_lines):
// a line is a view into the buffer it was read into, held by a shared_ptr, so the reading thread
// does not copy it; the thread that keeps the message copies it when it takes it.
//
// How it fails: it does not; when every buffer is still held by a lent line, there is none to
// read into, and the caller reads into its own buffer and copies lines as before.
//
// What it costs: up to kMaxBuffers buffers of `bytes` bytes plus padding, made on first need and
// kept; finding a free one looks at each buffer's use count.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace claude::sdk::process {

class LendingBuffers {
 public:
  static constexpr std::size_t kMaxBuffers = 4;

  // `bytes` to read into; each buffer has `padding` more, readable, so a parser may read past a
  // line at the end of a read.
  LendingBuffers(std::size_t bytes, std::size_t padding) : bytes_(bytes), padding_(padding) {
    buffers_.reserve(kMaxBuffers);  // never moved: what free_buffer() returns stays valid
  }

  // A buffer that no lent line holds any more; nullptr when all kMaxBuffers are held. Reading into
  // it is safe: the last holder's release happened before this returns. The pointer stays valid
  // as long as this object.
  [[nodiscard]] const std::shared_ptr<char[]>* free_buffer();

  [[nodiscard]] std::size_t bytes() const { return bytes_; }

 private:
  std::size_t bytes_;
  std::size_t padding_;
  std::vector<std::shared_ptr<char[]>> buffers_;
};

}  // namespace claude::sdk::process
