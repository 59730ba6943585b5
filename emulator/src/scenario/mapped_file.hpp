// A regular scenario or recording file mapped read-only into memory, so its lines are framed and
// parsed in place, and the string literals of `raw` and `stderr` steps stay there until replayed.
//
// The mapping is followed by at least kJsonPadding readable bytes (an anonymous reservation
// under the file's pages), so every line inside it can be parsed by simdjson without a copy,
// including a last line that ends on a page boundary. Pages are file-backed and clean: release()
// returns them to the page cache and a later read faults them back in.
//
// How it fails: map() returns an error text (mmap refused, empty file). A file truncated on disk
// after mapping would make reads past its new end fault, so still_whole() is checked before a
// step's bytes are decoded.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace claude::emulator {

class MappedFile {
 public:
  // Maps `size` bytes of the open regular file `fd` (the descriptor is duplicated and kept for
  // still_whole()).
  static std::variant<std::shared_ptr<const MappedFile>, std::string> map(int fd, std::size_t size);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  [[nodiscard]] std::string_view bytes() const { return {base_, size_}; }
  // Whether `text` lies inside the file's bytes (and so is followed by the padding).
  [[nodiscard]] bool contains(std::string_view text) const {
    return text.data() >= base_ && text.data() + text.size() <= base_ + size_;
  }
  // Whether the file on disk still holds all the mapped bytes (it was not truncated).
  [[nodiscard]] bool still_whole() const;
  // Drops the whole pages inside `text` from this process (they stay in the page cache).
  void release(std::string_view text) const;

 private:
  MappedFile(const char* base, std::size_t size, std::size_t reserved, int fd)
      : base_(base), size_(size), reserved_(reserved), fd_(fd) {}

  const char* base_;
  std::size_t size_;
  std::size_t reserved_;  // bytes of the reservation: the file's pages, then the padding
  int fd_;
};

}  // namespace claude::emulator
