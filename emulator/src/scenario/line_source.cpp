#include "line_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "claude/emulator/json_text.hpp"

namespace claude::emulator::detail {
namespace {

sdk::LineBufferOptions file_options() {
  sdk::LineBufferOptions options;
  options.max_line_bytes = kMaxFileLineBytes;
  options.skip_blank = false;
  return options;
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_;
};

std::string error_text(std::string_view what) {
  return std::string(what) + ": " + std::strerror(errno);
}

// What kind of file cannot be read as a scenario: devices and sockets never end (/dev/zero,
// a terminal) or cannot be opened at all.
const char* unreadable_kind(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return nullptr;
}

// Where the slice of a block being fed lies; begin == nullptr between slices.
struct Slice {
  const char* begin = nullptr;
  const char* end = nullptr;
  std::uint64_t offset = 0;  // in the file, of `begin`

  // The offset in the file of `event`'s text when it is a complete line inside the slice.
  [[nodiscard]] std::optional<std::uint64_t> offset_of(const sdk::LineEvent& event) const {
    if (begin == nullptr || event.kind != sdk::LineEvent::Kind::line) return std::nullopt;
    const auto at = reinterpret_cast<std::uintptr_t>(event.text.data());
    const auto first = reinterpret_cast<std::uintptr_t>(begin);
    if (at < first || at + event.text.size() > reinterpret_cast<std::uintptr_t>(end)) {
      return std::nullopt;  // a line the LineBuffer put together from pieces: its own copy
    }
    return offset + (at - first);
  }
};

// Blocks of a regular file: a small file gets a block of its size (start-up touches no more
// pages than it needs: each first touch is a page fault, dear on a VM), a large one 1 MiB; a block
// is doubled while a line does not fit, up to kMaxBlockBytes (twice claude-tee's largest piece).
// Pipes are read in chunks of kPipeChunkBytes.
constexpr std::size_t kSmallBlockBytes = std::size_t{4} << 10;
constexpr std::size_t kPipeChunkBytes = std::size_t{64} << 10;
constexpr std::size_t kBlockBytes = std::size_t{1} << 20;
constexpr std::size_t kMaxBlockBytes = std::size_t{16} << 20;

// Reads the regular file `fd` from its start and feeds `buffer` slices of each block that end just
// after a '\n', so that every complete line is a view into the block, followed by at least
// kJsonPadding bytes of it, while `slice` says where it lies. A line longer than the largest
// block is fed in pieces (the LineBuffer copies it). Returns an error text when a read fails.
std::optional<std::string> read_regular(int fd, std::size_t file_size, sdk::LineBuffer& buffer,
                                        const bool& go_on, Slice& slice,
                                        std::function<void(const sdk::LineEvent&)>& deliver) {
  std::size_t capacity = std::clamp(file_size + 1, kSmallBlockBytes - kJsonPadding, kBlockBytes);
  std::vector<char> block(capacity + kJsonPadding);
  std::uint64_t block_offset = 0;  // in the file, of block[0]
  std::size_t filled = 0;
  bool at_end = false;
  while (go_on) {
    while (!at_end && filled < capacity) {
      const ssize_t got = ::read(fd, block.data() + filled, capacity - filled);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return error_text("read error");
      if (got == 0) at_end = true;
      filled += static_cast<std::size_t>(got);
    }
    std::size_t end = filled;
    if (!at_end) {
      const void* last_newline = ::memrchr(block.data(), '\n', filled);
      if (last_newline == nullptr && capacity < kMaxBlockBytes) {
        capacity *= 2;
        block.resize(capacity + kJsonPadding);
        continue;
      }
      if (last_newline != nullptr) {
        end = static_cast<std::size_t>(static_cast<const char*>(last_newline) - block.data()) + 1;
      }
    }
    slice = Slice{block.data(), block.data() + end, block_offset};
    buffer.feed(std::string_view(block.data(), end), deliver);
    slice = Slice{};
    std::memmove(block.data(), block.data() + end, filled - end);
    block_offset += end;
    filled -= end;
    if (at_end && filled == 0) break;
  }
  if (go_on) buffer.finish(deliver);
  return std::nullopt;
}

std::optional<std::string> read_lines(const std::filesystem::path& path,
                                      const MatchedLineSink& sink,
                                      std::shared_ptr<const PositionedFile>* kept) {
  // O_NONBLOCK: opening a FIFO without a writer would block forever otherwise.
  const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (file.get() < 0) return error_text("cannot open");
  struct stat status {};
  if (::fstat(file.get(), &status) != 0) return error_text("cannot stat");
  if (const char* kind = unreadable_kind(status.st_mode)) {
    return std::string("not a regular file (") + kind +
           "): scenarios and recordings are read from files or pipes";
  }
  const bool pipe = S_ISFIFO(status.st_mode);
  if (!pipe) ::fcntl(file.get(), F_SETFL, ::fcntl(file.get(), F_GETFL) & ~O_NONBLOCK);

  sdk::LineBuffer buffer(file_options());
  std::size_t line_no = 0;
  bool go_on = true;
  Slice slice;
  // Lines are matched, and their place told, only when a step may read them back from the file.
  bool positioned = false;
  std::function<void(const sdk::LineEvent&)> deliver = [&](const sdk::LineEvent& event) {
    if (!go_on) return;
    const auto offset = positioned ? slice.offset_of(event) : std::nullopt;
    if (!offset) {
      go_on = sink(++line_no, event, nullptr);
      return;
    }
    const FileLine line{*offset, match_escaped_string_line(event.text)};
    go_on = sink(++line_no, event, &line);
  };
  if (!pipe) {
    if (kept != nullptr) {
      *kept = PositionedFile::keep(file.get());
      positioned = *kept != nullptr;  // without a spare descriptor, steps keep decoded copies
    }
    return read_regular(file.get(), static_cast<std::size_t>(status.st_size), buffer, go_on, slice,
                        deliver);
  }
  std::vector<char> chunk(kPipeChunkBytes);
  std::size_t total = 0;
  while (go_on) {
    const ssize_t got = ::read(file.get(), chunk.data(), chunk.size());
    if (got > 0) {
      total += static_cast<std::size_t>(got);
      buffer.feed(std::string_view(chunk.data(), static_cast<std::size_t>(got)), deliver);
      continue;
    }
    if (got == 0) {
      // A FIFO nobody has opened for writing reads as empty at once, instead of blocking.
      if (total == 0) {
        return std::string("a FIFO or pipe with no writer and nothing in it (start the writer ") +
               "first, or use a regular file)";
      }
      break;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN) {
      // A writer is attached: wait for its next bytes, but not forever.
      pollfd ready{file.get(), POLLIN, 0};
      const int n = ::poll(&ready, 1, kPipeIdleTimeoutMs);
      if (n == 0) {
        return "no data from the FIFO or pipe for " + std::to_string(kPipeIdleTimeoutMs / 1000) +
               " s (its writer is still attached)";
      }
      if (n < 0 && errno != EINTR) return error_text("read error");
      continue;
    }
    return error_text("read error");
  }
  if (go_on) buffer.finish(deliver);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> for_each_file_line(const std::filesystem::path& path,
                                              const LineSink& sink) {
  return read_lines(
      path,
      [&](std::size_t line_no, const sdk::LineEvent& event, const FileLine*) {
        return sink(line_no, event);
      },
      nullptr);
}

std::optional<std::string> for_each_matched_file_line(const std::filesystem::path& path,
                                                      const MatchedLineSink& sink,
                                                      std::shared_ptr<const PositionedFile>* file) {
  return read_lines(path, sink, file);
}

void for_each_text_line(std::string_view text, const LineSink& sink) {
  sdk::LineBuffer buffer(file_options());
  std::size_t line_no = 0;
  bool go_on = true;
  auto deliver = [&](const sdk::LineEvent& event) {
    if (go_on) go_on = sink(++line_no, event);
  };
  buffer.feed(text, deliver);
  if (go_on) buffer.finish(deliver);
}

}  // namespace claude::emulator::detail
