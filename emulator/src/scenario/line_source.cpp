#include "line_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <future>
#include <system_error>
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

// Feeds bytes [from, to) of the mapped file (`from` starts a line) in slices of about kSliceBytes
// that end just after a '\n' (a longer line makes its slice longer), so no complete line
// straddles two feeds and each stays a view into the mapping; the lines of a slice are released
// once read, which keeps the load's resident memory at a slice. Stops between slices when the
// sink asks to.
constexpr std::size_t kSliceBytes = std::size_t{1} << 20;

void feed_mapped(const MappedFile& file, std::size_t from, std::size_t to, sdk::LineBuffer& buffer,
                 const bool& go_on, std::function<void(const sdk::LineEvent&)>& deliver) {
  const std::string_view bytes = file.bytes().substr(0, to);
  std::size_t at = from;
  while (go_on && at < bytes.size()) {
    std::size_t end = std::min(bytes.size(), at + kSliceBytes);
    if (end < bytes.size()) {
      // memrchr: the slice's last '\n' may lie a long line back from its end.
      const void* last_newline = ::memrchr(bytes.data() + at, '\n', end - at);
      if (last_newline != nullptr) {
        end = static_cast<std::size_t>(static_cast<const char*>(last_newline) - bytes.data()) + 1;
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

std::optional<EscapedStringLine> match_if_mapped(const MappedFile& file,
                                                 const sdk::LineEvent& event) {
  if (event.kind != sdk::LineEvent::Kind::line || !file.contains(event.text)) return std::nullopt;
  return match_escaped_string_line(event.text);
}

// An event framed and matched ahead of the sink. `copy` holds the text of a line that is not a
// view into the mapping (the last line, without '\n'), since the LineBuffer's view would not
// outlive the call.
struct NotedEvent {
  sdk::LineEvent event;
  std::optional<EscapedStringLine> escaped;
  std::optional<std::string> copy;
};

// Frames and matches the lines from byte `from` (a line start) to the end of the file: the second
// half of a large file, on its own thread. A fresh LineBuffer at a line start frames exactly as
// one that read the bytes before it (its rules apply line by line).
std::vector<NotedEvent> frame_and_match(const MappedFile& file, std::size_t from) {
  std::vector<NotedEvent> events;
  sdk::LineBuffer buffer(file_options());
  const bool go_on = true;
  std::function<void(const sdk::LineEvent&)> note = [&](const sdk::LineEvent& event) {
    NotedEvent noted{event, match_if_mapped(file, event), std::nullopt};
    if (!file.contains(event.text)) noted.copy.emplace(event.text);
    events.push_back(std::move(noted));
  };
  feed_mapped(file, from, file.bytes().size(), buffer, go_on, note);
  buffer.finish(note);
  return events;
}

// Where a large mapped file is split: just after the first '\n' from its middle; 0 for no split.
std::size_t split_point(const MappedFile& file) {
  const std::string_view bytes = file.bytes();
  if (bytes.size() <= kParallelMatchBytes) return 0;
  const auto newline = bytes.find('\n', bytes.size() / 2);
  return newline == std::string_view::npos || newline + 1 >= bytes.size() ? 0 : newline + 1;
}

// Feeds the mapped file to `deliver`. With `match`, a large file's second half is framed and
// matched on a second thread while `deliver` reads the first, then its events go to `sink` in
// order (`line_no` and `go_on` shared with `deliver`).
void read_mapped(const MappedFile& file, bool match, sdk::LineBuffer& buffer, bool& go_on,
                 std::size_t& line_no, std::function<void(const sdk::LineEvent&)>& deliver,
                 const MatchedLineSink& sink) {
  const std::size_t split = match ? split_point(file) : 0;
  std::future<std::vector<NotedEvent>> second_half;
  if (split != 0) {
    try {
      second_half = std::async(std::launch::async, frame_and_match, std::cref(file), split);
    } catch (const std::system_error&) {
      // No thread to be had: the whole file is read on this one.
    }
  }
  if (!second_half.valid()) {
    feed_mapped(file, 0, file.bytes().size(), buffer, go_on, deliver);
    if (go_on) buffer.finish(deliver);
    return;
  }
  // The first half ends with a '\n', so the buffer holds nothing when it is done.
  feed_mapped(file, 0, split, buffer, go_on, deliver);
  std::vector<NotedEvent> events = second_half.get();
  // The second thread released its slices, but the sink reads the lines it does not take as
  // matched (a recording's, a large `send`): those pages are released again, a slice at a time.
  const std::string_view bytes = file.bytes();
  std::size_t released = split;
  for (NotedEvent& noted : events) {
    if (!go_on) break;
    if (noted.copy) noted.event.text = *noted.copy;
    go_on = sink(++line_no, noted.event, noted.escaped);
    if (!noted.copy) {
      const auto end = static_cast<std::size_t>(noted.event.text.data() - bytes.data()) +
                       noted.event.text.size();
      if (end - released >= kSliceBytes) {
        file.release(bytes.substr(released, end - released));
        released = end;
      }
    }
  }
  file.release(bytes.substr(released));
}

std::optional<std::string> read_lines(const std::filesystem::path& path,
                                      const MatchedLineSink& sink,
                                      std::shared_ptr<const MappedFile>* mapping, bool match) {
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
  const MappedFile* matched_in = nullptr;  // lines of a mapping are matched when asked
  std::function<void(const sdk::LineEvent&)> deliver = [&](const sdk::LineEvent& event) {
    if (!go_on) return;
    go_on = sink(++line_no, event,
                 matched_in != nullptr ? match_if_mapped(*matched_in, event) : std::nullopt);
  };
  if (S_ISREG(status.st_mode) && status.st_size > 0) {
    auto mapped = MappedFile::map(file.get(), static_cast<std::size_t>(status.st_size));
    if (auto* view = std::get_if<std::shared_ptr<const MappedFile>>(&mapped)) {
      if (mapping != nullptr) *mapping = *view;
      if (match) matched_in = view->get();
      read_mapped(**view, match, buffer, go_on, line_no, deliver, sink);
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

}  // namespace

std::optional<std::string> for_each_file_line(const std::filesystem::path& path,
                                              const LineSink& sink,
                                              std::shared_ptr<const MappedFile>* mapping) {
  return read_lines(
      path,
      [&](std::size_t line_no, const sdk::LineEvent& event,
          const std::optional<EscapedStringLine>&) { return sink(line_no, event); },
      mapping, false);
}

std::optional<std::string> for_each_matched_file_line(const std::filesystem::path& path,
                                                      const MatchedLineSink& sink,
                                                      std::shared_ptr<const MappedFile>* mapping) {
  return read_lines(path, sink, mapping, true);
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
