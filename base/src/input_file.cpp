#include "claude/base/input_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace claude::base {
namespace {

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

// Devices and sockets never end (/dev/zero, a terminal) or cannot be read as a file at all.
const char* unreadable_kind(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return nullptr;
}

std::string error_text(std::string_view what) {
  return std::string(what) + ": " + std::strerror(errno);
}

std::string too_large(std::uint64_t limit) {
  return "larger than the " + std::to_string(limit >> 20) +
         " MiB limit for input files (docs/exit-codes.md)";
}

// Not zero-filled, so a small file touches only the pages its bytes fill.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

}  // namespace

std::optional<std::string> for_each_input_chunk(const std::filesystem::path& path,
                                                const ChunkSink& sink, const InputLimits& limits) {
  // O_NONBLOCK: opening a FIFO without a writer would block forever otherwise.
  const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (file.get() < 0) return error_text("cannot open");
  struct stat status {};
  if (::fstat(file.get(), &status) != 0) return error_text("cannot stat");
  if (const char* kind = unreadable_kind(status.st_mode)) {
    return std::string("not a regular file (") + kind + "): inputs are read from files or pipes";
  }
  const bool pipe = S_ISFIFO(status.st_mode);
  if (S_ISREG(status.st_mode) && static_cast<std::uint64_t>(status.st_size) > limits.max_bytes) {
    return too_large(limits.max_bytes);
  }
  if (!pipe) ::fcntl(file.get(), F_SETFL, ::fcntl(file.get(), F_GETFL) & ~O_NONBLOCK);
  const auto chunk = std::make_unique_for_overwrite<char[]>(kChunkBytes);
  std::uint64_t total = 0;
  for (;;) {
    const ssize_t got = ::read(file.get(), chunk.get(), kChunkBytes);
    if (got > 0) {
      total += static_cast<std::uint64_t>(got);
      // A file that grows while it is read, or a pipe, meets the same limit.
      if (total > limits.max_bytes) return too_large(limits.max_bytes);
      if (!sink(std::string_view(chunk.get(), static_cast<std::size_t>(got)))) return std::nullopt;
      continue;
    }
    if (got == 0) {
      // A FIFO nobody has opened for writing reads as empty at once, instead of blocking.
      if (pipe && total == 0) {
        return std::string("a FIFO or pipe with no writer and nothing in it (start the writer ") +
               "first, or use a regular file)";
      }
      return std::nullopt;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN) {
      // A writer is attached: wait for its next bytes, but not forever.
      pollfd ready{file.get(), POLLIN, 0};
      const int n = ::poll(&ready, 1, limits.pipe_idle_timeout_ms);
      if (n == 0) {
        return "no data from the FIFO or pipe for " +
               std::to_string(limits.pipe_idle_timeout_ms / 1000) +
               " s (its writer is still attached)";
      }
      if (n < 0 && errno != EINTR) return error_text("read error");
      continue;
    }
    return error_text("read error");
  }
}

std::optional<std::string> read_input_file(const std::filesystem::path& path, std::string& error,
                                           const InputLimits& limits) {
  std::string text;
  auto failed = for_each_input_chunk(
      path,
      [&](std::string_view chunk) {
        text.append(chunk);
        return true;
      },
      limits);
  if (failed) {
    error = std::move(*failed);
    return std::nullopt;
  }
  return text;
}

}  // namespace claude::base
