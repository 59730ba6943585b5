#include "back_half_reader.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "claude/emulator/json_text.hpp"
#include "file_blocks.hpp"

namespace claude::emulator::detail {
namespace {

// How far past the middle a '\n' is looked for: a file whose middle line is longer is read by
// one thread.
constexpr std::size_t kSplitSearchBytes = std::size_t{16} << 20;
constexpr std::size_t kSearchWindowBytes = std::size_t{64} << 10;

// The offset just past the first '\n' at or after `from`, when it is before `file_size`.
std::optional<std::uint64_t> next_line_start(int fd, std::uint64_t from, std::uint64_t file_size) {
  std::vector<char> window(kSearchWindowBytes);
  for (std::uint64_t at = from; at < file_size && at - from < kSplitSearchBytes;) {
    const ssize_t got = ::pread(fd, window.data(), window.size(), static_cast<off_t>(at));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return std::nullopt;
    const void* newline = std::memchr(window.data(), '\n', static_cast<std::size_t>(got));
    if (newline != nullptr) {
      const std::uint64_t start =
          at + static_cast<std::uint64_t>(static_cast<const char*>(newline) - window.data()) + 1;
      if (start < file_size) return start;
      return std::nullopt;
    }
    at += static_cast<std::uint64_t>(got);
  }
  return std::nullopt;
}

// Where the line whose text `event` is starts: the LineBuffer strips a byte order mark (3 bytes)
// before the text and a '\r' (1 byte) after it, and `size` counts the bytes as received.
std::uint64_t line_start(std::uint64_t text_offset, const sdk::LineEvent& event) {
  return event.size - event.text.size() >= 3 ? text_offset - 3 : text_offset;
}

}  // namespace

std::string_view AheadLine::text() const {
  if (copy.empty()) return {};
  return std::string_view(copy.data(), copy.size() - kJsonPadding);
}

std::unique_ptr<BackHalfReader> BackHalfReader::start(int fd, std::uint64_t file_size) {
  const auto begin = next_line_start(fd, file_size / 2, file_size);
  if (!begin) return nullptr;
  std::unique_ptr<BackHalfReader> reader(new BackHalfReader(fd, *begin, file_size));
  try {
    reader->thread_ = std::thread([r = reader.get()] { r->run(); });
  } catch (const std::system_error&) {
    return nullptr;  // no thread to be had: the caller reads the whole file itself
  }
  return reader;
}

BackHalfReader::~BackHalfReader() {
  stop_.store(true, std::memory_order_relaxed);
  if (thread_.joinable()) thread_.join();
}

BackHalfReader::Lines BackHalfReader::join() {
  if (thread_.joinable()) thread_.join();
  if (failure_) std::rethrow_exception(failure_);
  return std::move(result_);
}

void BackHalfReader::run() {
  try {
    sdk::LineBuffer buffer(file_line_options());
    Slice slice;
    bool go_on = true;
    std::size_t copied = 0;
    LineDelivery deliver = [&](const sdk::LineEvent& event) {
      if (!go_on) return;
      if (stop_.load(std::memory_order_relaxed)) {
        go_on = false;
        return;
      }
      AheadLine line;
      line.event = event;
      line.event.text = {};
      line.text_size = event.text.size();
      if (const auto offset = slice.offset_of(event)) {
        line.in_file = match_file_line(*offset, event.text);
        if (!line.in_file->escaped) {
          if (copied + event.text.size() > kCopyBudgetBytes) {
            result_.resume_at = line_start(*offset, event);
            go_on = false;
            return;
          }
          // A view into a block is followed by readable padding: copy it along.
          line.copy.assign(event.text.data(), event.text.size() + kJsonPadding);
        }
      } else if (event.kind == sdk::LineEvent::Kind::line) {
        line.copy.reserve(event.text.size() + kJsonPadding);
        line.copy.assign(event.text);
        line.copy.append(kJsonPadding, '\0');
      }
      copied += line.copy.size();
      result_.lines.push_back(std::move(line));
    };
    result_.error = read_file_blocks(fd_, begin_, std::nullopt, file_size_ - begin_, buffer, go_on,
                                     slice, deliver);
  } catch (...) {
    failure_ = std::current_exception();
  }
}

}  // namespace claude::emulator::detail
