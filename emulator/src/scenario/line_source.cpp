#include "line_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <variant>
#include <vector>

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

// Feeds the mapped file in slices of about kSliceBytes that end just after a '\n' (a longer line
// makes its slice longer), so no complete line straddles two feeds and each stays a view into
// the mapping; the lines of a slice are released once read, which keeps the load's resident
// memory at a slice. Stops between slices when the sink asks to.
void feed_mapped(const MappedFile& file, sdk::LineBuffer& buffer, const bool& go_on,
                 std::function<void(const sdk::LineEvent&)>& deliver) {
  constexpr std::size_t kSliceBytes = std::size_t{1} << 20;
  const std::string_view bytes = file.bytes();
  std::size_t at = 0;
  while (go_on && at < bytes.size()) {
    std::size_t end = std::min(bytes.size(), at + kSliceBytes);
    if (end < bytes.size()) {
      const std::string_view slice = bytes.substr(at, end - at);
      const auto last_newline = slice.rfind('\n');
      if (last_newline != std::string_view::npos) {
        end = at + last_newline + 1;
      } else {
        const auto next_newline = bytes.find('\n', end);
        end = next_newline == std::string_view::npos ? bytes.size() : next_newline + 1;
      }
    }
    const std::string_view slice = bytes.substr(at, end - at);
    buffer.feed(slice, deliver);
    file.release(slice);
    at = end;
  }
}

}  // namespace

std::optional<std::string> for_each_file_line(const std::filesystem::path& path,
                                              const LineSink& sink,
                                              std::shared_ptr<const MappedFile>* mapping) {
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
  std::function<void(const sdk::LineEvent&)> deliver = [&](const sdk::LineEvent& event) {
    if (go_on) go_on = sink(++line_no, event);
  };
  if (S_ISREG(status.st_mode) && status.st_size > 0) {
    auto mapped = MappedFile::map(file.get(), static_cast<std::size_t>(status.st_size));
    if (auto* view = std::get_if<std::shared_ptr<const MappedFile>>(&mapped)) {
      if (mapping != nullptr) *mapping = *view;
      feed_mapped(**view, buffer, go_on, deliver);
      if (go_on) buffer.finish(deliver);
      return std::nullopt;
    }
    // A file that cannot be mapped (a file system without mmap) is read like a pipe.
  }
  // Large files are read 1 MiB at a time so most lines pass without being copied into the line
  // buffer; small ones (most scenarios) get a small chunk, so start-up touches no extra pages.
  constexpr std::size_t kSmallChunk = std::size_t{1} << 16;
  constexpr std::size_t kLargeChunk = std::size_t{1} << 20;
  const std::size_t file_size = pipe ? 0 : static_cast<std::size_t>(status.st_size);
  std::vector<char> chunk(std::clamp(file_size + 1, kSmallChunk, kLargeChunk));
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
      if (pipe && total == 0) {
        return std::string("a FIFO or pipe with no writer and nothing in it (start the writer ") +
               "first, or use a regular file)";
      }
      break;
    }
    if (errno == EINTR) continue;
    if (pipe && errno == EAGAIN) {
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
