#include "file_blocks.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "claude/emulator/json_text.hpp"

namespace claude::emulator::detail {
namespace {

// A small file gets a block of its size (start-up touches no more pages than it needs: each first
// touch is a page fault, dear on a VM), a large one 1 MiB; a block is doubled while a line does
// not fit, up to kMaxBlockBytes (twice claude-tee's largest piece).
constexpr std::size_t kSmallBlockBytes = std::size_t{4} << 10;
constexpr std::size_t kBlockBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxBlockBytes = std::size_t{16} << 20;

}  // namespace

std::optional<std::uint64_t> Slice::offset_of(const sdk::LineEvent& event) const {
  if (begin == nullptr || event.kind != sdk::LineEvent::Kind::line) return std::nullopt;
  const auto at = reinterpret_cast<std::uintptr_t>(event.text.data());
  const auto first = reinterpret_cast<std::uintptr_t>(begin);
  if (at < first || at + event.text.size() > reinterpret_cast<std::uintptr_t>(end)) {
    return std::nullopt;  // a line the LineBuffer put together from pieces: its own copy
  }
  return offset + (at - first);
}

bool read_exactly(int fd, char* out, std::size_t size, std::uint64_t offset) {
  for (std::size_t done = 0; done < size;) {
    const ssize_t got = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      if (got == 0) errno = EIO;
      return false;
    }
    done += static_cast<std::size_t>(got);
  }
  return true;
}

std::string error_text(std::string_view what) {
  return std::string(what) + ": " + std::strerror(errno);
}

std::optional<std::string> read_file_blocks(int fd, std::uint64_t begin,
                                            std::optional<std::uint64_t> end, std::size_t size_hint,
                                            sdk::LineBuffer& buffer, const bool& go_on,
                                            Slice& slice, LineDelivery& deliver) {
  std::size_t capacity = std::clamp(size_hint + 1, kSmallBlockBytes - kJsonPadding, kBlockBytes);
  std::vector<char> block(capacity + kJsonPadding);
  std::uint64_t block_offset = begin;  // in the file, of block[0]
  std::size_t filled = 0;
  bool at_end = false;
  while (go_on) {
    while (!at_end && filled < capacity) {
      const std::uint64_t at = block_offset + filled;
      std::size_t wanted = capacity - filled;
      if (end) wanted = static_cast<std::size_t>(std::min<std::uint64_t>(wanted, *end - at));
      const ssize_t got =
          wanted == 0 ? 0 : ::pread(fd, block.data() + filled, wanted, static_cast<off_t>(at));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return error_text("read error");
      if (got == 0) at_end = true;
      filled += static_cast<std::size_t>(got);
    }
    std::size_t fed = filled;
    if (!at_end) {
      const void* last_newline = ::memrchr(block.data(), '\n', filled);
      if (last_newline == nullptr && capacity < kMaxBlockBytes) {
        capacity *= 2;
        block.resize(capacity + kJsonPadding);
        continue;
      }
      if (last_newline != nullptr) {
        fed = static_cast<std::size_t>(static_cast<const char*>(last_newline) - block.data()) + 1;
      }
    }
    slice = Slice{block.data(), block.data() + fed, block_offset};
    buffer.feed(std::string_view(block.data(), fed), deliver);
    slice = Slice{};
    std::memmove(block.data(), block.data() + fed, filled - fed);
    block_offset += fed;
    filled -= fed;
    if (at_end && filled == 0) break;
  }
  if (go_on && !end) buffer.finish(deliver);
  return std::nullopt;
}

}  // namespace claude::emulator::detail
