#include "line_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace claude::emulator::detail {
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

// What kind of file cannot be read as a scenario: devices and sockets never end (/dev/zero,
// a terminal) or cannot be opened at all.
const char* unreadable_kind(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return nullptr;
}

std::string error_text(std::string_view what) {
  return std::string(what) + ": " + std::strerror(errno);
}

// Not zero-filled, so a small file touches only the pages its bytes fill.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

sdk::LineBufferOptions file_line_options() {
  sdk::LineBufferOptions options;
  options.max_line_bytes = kMaxFileLineBytes;
  options.skip_blank = false;
  return options;
}

}  // namespace

std::optional<std::string> for_each_file_line(const std::filesystem::path& path,
                                              const LineSink& sink) {
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
  const auto chunk = std::make_unique_for_overwrite<char[]>(kChunkBytes);

  sdk::LineBuffer buffer(file_line_options());
  std::size_t line_no = 0;
  bool go_on = true;
  auto deliver = [&](const sdk::LineEvent& event) {
    if (go_on) go_on = sink(++line_no, event);
  };
  std::size_t total = 0;
  while (go_on) {
    const ssize_t got = ::read(file.get(), chunk.get(), kChunkBytes);
    if (got > 0) {
      total += static_cast<std::size_t>(got);
      buffer.feed(std::string_view(chunk.get(), static_cast<std::size_t>(got)), deliver);
      continue;
    }
    if (got == 0) {
      // A FIFO nobody has opened for writing reads as empty at once, instead of blocking.
      if (pipe && total == 0) {
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

void for_each_text_line(std::string_view text, const LineSink& sink) {
  sdk::LineBuffer buffer(file_line_options());
  std::size_t line_no = 0;
  bool go_on = true;
  auto deliver = [&](const sdk::LineEvent& event) {
    if (go_on) go_on = sink(++line_no, event);
  };
  buffer.feed(text, deliver);
  if (go_on) buffer.finish(deliver);
}

}  // namespace claude::emulator::detail
