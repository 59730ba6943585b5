#include "claude/recorder/recording_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <thread>

namespace claude::recorder {
namespace {

// The `t` an encoded event starts with ({"t":12.345678,…}), as written.
std::string t_of(std::string_view events) {
  constexpr std::string_view kPrefix = "{\"t\":";
  if (!events.starts_with(kPrefix)) return "0";
  const auto end = events.find_first_of(",}", kPrefix.size());
  if (end == std::string_view::npos) return "0";
  return std::string(events.substr(kPrefix.size(), end - kPrefix.size()));
}

long write_to_file(int fd, const char* data, std::size_t size) {
  return ::write(fd, data, size);
}

int open_exclusive(const std::filesystem::path& path) {
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_APPEND, 0600);
}

std::string utc_stamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return buf;
}

}  // namespace

RecordingTarget resolve_recording_target(const std::optional<std::string>& value) {
  if (!value || value->empty()) return {"claude-recordings", true};
  std::filesystem::path path(*value);
  std::error_code ec;
  const bool is_dir = value->back() == '/' || std::filesystem::is_directory(path, ec);
  return {path, is_dir};
}

std::unique_ptr<RecordingWriter> RecordingWriter::create(const RecordingTarget& target,
                                                         WriteCall write) {
  if (!write) write = write_to_file;
  if (!target.is_directory) {
    const int fd = open_exclusive(target.path);
    if (fd < 0) {
      const int err = errno;
      throw RecordingError(target.path.string() +
                           ": cannot create recording: " + std::strerror(err) +
                           (err == EEXIST ? " (claude-tee never overwrites a recording)" : ""));
    }
    return std::unique_ptr<RecordingWriter>(new RecordingWriter(fd, target.path, write));
  }
  if (::mkdir(target.path.c_str(), 0700) != 0 && errno != EEXIST) {
    throw RecordingError(target.path.string() +
                         ": cannot create recording directory: " + std::strerror(errno));
  }
  const std::string stem = "claude-" + utc_stamp() + "-" + std::to_string(::getpid());
  for (int n = 0; n < 10000; ++n) {
    const std::string name = n == 0 ? stem + ".ndjson" : stem + "-" + std::to_string(n) + ".ndjson";
    const auto path = target.path / name;
    const int fd = open_exclusive(path);
    if (fd >= 0) return std::unique_ptr<RecordingWriter>(new RecordingWriter(fd, path, write));
    if (errno != EEXIST) {
      throw RecordingError(path.string() + ": cannot create recording: " + std::strerror(errno));
    }
  }
  throw RecordingError(target.path.string() + ": no free recording file name for " + stem);
}

RecordingWriter::~RecordingWriter() {
  ::close(fd_);
}

bool RecordingWriter::write_unwritten_locked() {
  std::size_t done = 0;
  while (done < unwritten_.size()) {
    const long n = write_(fd_, unwritten_.data() + done, unwritten_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      unwritten_.erase(0, done);
      std::lock_guard queue_lock(queue_mutex_);
      stuck_ = true;
      last_reason_ = std::strerror(err);
      unwritten_size_ = unwritten_.size();
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  unwritten_.clear();
  return true;
}

bool RecordingWriter::write_queued_locked() {
  while (true) {
    if (!write_unwritten_locked()) return false;
    std::lock_guard queue_lock(queue_mutex_);
    if (!pre_gap_.empty()) {
      unwritten_.swap(pre_gap_);
      pre_gap_.clear();
    } else if (gap_events_ > 0) {
      unwritten_ = "{\"t\":" + gap_t_ + ",\"gap\":{\"events\":" + std::to_string(gap_events_) +
                   ",\"bytes\":" + std::to_string(gap_bytes_) + ",\"reason\":\"" + gap_reason_ +
                   "\"}}\n";
      ++gaps_written_;
      gap_events_ = 0;
      gap_bytes_ = 0;
    } else if (gate_open_ && !pending_.empty()) {
      unwritten_.swap(pending_);
      pending_.clear();
    } else {
      stuck_ = false;
      unwritten_size_ = 0;
      return true;
    }
    unwritten_size_ = unwritten_.size();
  }
}

void RecordingWriter::write_header(std::string_view header_line) {
  std::lock_guard file_lock(file_mutex_);
  unwritten_.assign(header_line);
  {
    std::lock_guard queue_lock(queue_mutex_);
    gate_open_ = true;
  }
  write_queued_locked();
}

void RecordingWriter::append(std::string_view events) {
  std::lock_guard queue_lock(queue_mutex_);
  if (closed_) return;
  if (stuck_ &&
      (gap_events_ > 0 ||
       pending_.size() + pre_gap_.size() + unwritten_size_ + events.size() > kMaxUnwrittenBytes)) {
    if (gap_events_ == 0) {
      // What was accepted so far goes before the gap; nothing is accepted until it is written.
      pre_gap_.append(pending_);
      pending_.clear();
      gap_t_ = t_of(events);
      gap_reason_ = last_reason_;
    }
    const auto events_dropped =
        static_cast<std::size_t>(std::count(events.begin(), events.end(), '\n'));
    gap_events_ += events_dropped;
    gap_bytes_ += events.size();
    dropped_events_ += events_dropped;
    dropped_bytes_ += events.size();
    return;
  }
  pending_.append(events);
}

void RecordingWriter::flush() {
  std::lock_guard file_lock(file_mutex_);
  {
    std::lock_guard queue_lock(queue_mutex_);
    if (!gate_open_) return;
  }
  write_queued_locked();
}

void RecordingWriter::close_with(std::string_view final_events) {
  std::lock_guard file_lock(file_mutex_);
  {
    std::lock_guard queue_lock(queue_mutex_);
    if (closed_) return;
    pending_.append(final_events);  // after any gap: the exit event is never dropped
    closed_ = true;
    if (!gate_open_) return;
  }
  const auto give_up = std::chrono::steady_clock::now() + kCloseRetry;
  while (!write_queued_locked()) {
    if (std::chrono::steady_clock::now() >= give_up) {
      std::lock_guard queue_lock(queue_mutex_);
      never_written_ = unwritten_.size() + pre_gap_.size() + pending_.size();
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::optional<std::string> RecordingWriter::losses() const {
  std::lock_guard queue_lock(queue_mutex_);
  if (dropped_events_ == 0 && never_written_ == 0) return std::nullopt;
  std::string text = path_.string() + ":";
  if (dropped_events_ != 0) {
    text += " " + std::to_string(dropped_events_) + " events (" + std::to_string(dropped_bytes_) +
            " bytes) dropped while the file could not be written (" + gap_reason_ +
            "), marked by " + std::to_string(gaps_written_) + " gap event(s)";
  }
  if (never_written_ != 0) {
    if (dropped_events_ != 0) text += ';';
    text += " the last " + std::to_string(never_written_) +
            " bytes (the end of the session and its exit event) were never written (" +
            last_reason_ + ")";
  }
  return text;
}

}  // namespace claude::recorder
