#include "line_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <thread>
#include <vector>

#include "back_half_reader.hpp"
#include "claude/emulator/json_text.hpp"
#include "file_blocks.hpp"

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

// Pipes are read in chunks of this size.
constexpr std::size_t kPipeChunkBytes = std::size_t{64} << 10;

// Reads the front half of a large file, then hands the sink the lines a BackHalfReader read
// meanwhile, then reads on from where that reader stopped, if it did.
std::optional<std::string> read_split(int fd, std::uint64_t file_size, BackHalfReader& back,
                                      sdk::LineBuffer& buffer, bool& go_on, Slice& slice,
                                      LineDelivery& deliver, std::size_t& line_no,
                                      const MatchedLineSink& sink,
                                      const std::function<bool()>& takes_strings_alone) {
  if (auto error =
          read_file_blocks(fd, 0, back.begin(), back.begin(), buffer, go_on, slice, deliver)) {
    return error;
  }
  if (!go_on) return std::nullopt;
  // Bytes left over mean the file was cut short while it loaded: its front ends mid-line.
  if (buffer.buffered_bytes() > 0) buffer.finish(deliver);
  BackHalfReader::Lines ahead = back.join();
  std::vector<char> reread;
  for (const AheadLine& line : ahead.lines) {
    if (!go_on) return std::nullopt;
    sdk::LineEvent event = line.event;
    event.text = line.text();
    if (line.in_file && line.in_file->escaped && !takes_strings_alone()) {
      // The sink wants this line's text after all (a raw line before the header).
      reread.assign(line.text_size + kJsonPadding, '\0');
      if (!read_exactly(fd, reread.data(), line.text_size, line.in_file->offset)) {
        return error_text("read error");
      }
      event.text = std::string_view(reread.data(), line.text_size);
    }
    go_on = sink(++line_no, event, line.in_file ? &*line.in_file : nullptr);
  }
  if (ahead.error) return ahead.error;
  if (!go_on || !ahead.resume_at) return std::nullopt;
  return read_file_blocks(fd, *ahead.resume_at, std::nullopt, file_size - *ahead.resume_at, buffer,
                          go_on, slice, deliver);
}

std::optional<std::string> read_lines(const std::filesystem::path& path,
                                      const MatchedLineSink& sink,
                                      std::shared_ptr<const PositionedFile>* kept,
                                      const std::function<bool()>& takes_strings_alone) {
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

  sdk::LineBuffer buffer(file_line_options());
  std::size_t line_no = 0;
  bool go_on = true;
  Slice slice;
  // Lines are matched, and their place told, only when a step may read them back from the file.
  bool positioned = false;
  LineDelivery deliver = [&](const sdk::LineEvent& event) {
    if (!go_on) return;
    const auto offset = positioned ? slice.offset_of(event) : std::nullopt;
    if (!offset) {
      go_on = sink(++line_no, event, nullptr);
      return;
    }
    const FileLine line = match_file_line(*offset, event.text);
    go_on = sink(++line_no, event, &line);
  };
  if (!pipe) {
    if (kept != nullptr) {
      *kept = PositionedFile::keep(file.get());
      positioned = *kept != nullptr;  // without a spare descriptor, steps keep decoded copies
    }
    const auto file_size = static_cast<std::uint64_t>(status.st_size);
    if (positioned && takes_strings_alone && file_size >= kSplitFileBytes &&
        std::thread::hardware_concurrency() >= 2) {
      if (auto back = BackHalfReader::start(file.get(), file_size)) {
        return read_split(file.get(), file_size, *back, buffer, go_on, slice, deliver, line_no,
                          sink, takes_strings_alone);
      }
    }
    return read_file_blocks(file.get(), 0, std::nullopt, static_cast<std::size_t>(file_size),
                            buffer, go_on, slice, deliver);
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
      nullptr, nullptr);
}

std::optional<std::string> for_each_matched_file_line(
    const std::filesystem::path& path, const MatchedLineSink& sink,
    std::shared_ptr<const PositionedFile>* file, const std::function<bool()>& takes_strings_alone) {
  return read_lines(path, sink, file, takes_strings_alone);
}

FileLine match_file_line(std::uint64_t offset, std::string_view text) {
  FileLine line{offset, std::nullopt};
  if (const auto match = match_escaped_string_line(text)) {
    line.escaped = FileString{
        match->key, offset + static_cast<std::uint64_t>(match->literal.data() - text.data()),
        match->literal.size()};
  }
  return line;
}

sdk::LineBufferOptions file_line_options() {
  sdk::LineBufferOptions options;
  options.max_line_bytes = kMaxFileLineBytes;
  options.skip_blank = false;
  return options;
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
