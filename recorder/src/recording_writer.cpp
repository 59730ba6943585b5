#include "claude/recorder/recording_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

namespace claude::recorder {
namespace {

std::string errno_text(int err) {
  return std::strerror(err);
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

std::unique_ptr<RecordingWriter> RecordingWriter::create(const RecordingTarget& target) {
  if (!target.is_directory) {
    const int fd = open_exclusive(target.path);
    if (fd < 0) {
      const int err = errno;
      throw RecordingError(target.path.string() + ": cannot create recording: " + errno_text(err) +
                           (err == EEXIST ? " (claude-tee never overwrites a recording)" : ""));
    }
    return std::unique_ptr<RecordingWriter>(new RecordingWriter(fd, target.path));
  }
  if (::mkdir(target.path.c_str(), 0700) != 0 && errno != EEXIST) {
    throw RecordingError(target.path.string() +
                         ": cannot create recording directory: " + errno_text(errno));
  }
  const std::string stem = "claude-" + utc_stamp() + "-" + std::to_string(::getpid());
  for (int n = 0; n < 10000; ++n) {
    const std::string name = n == 0 ? stem + ".ndjson" : stem + "-" + std::to_string(n) + ".ndjson";
    const auto path = target.path / name;
    const int fd = open_exclusive(path);
    if (fd >= 0) return std::unique_ptr<RecordingWriter>(new RecordingWriter(fd, path));
    if (errno != EEXIST) {
      throw RecordingError(path.string() + ": cannot create recording: " + errno_text(errno));
    }
  }
  throw RecordingError(target.path.string() + ": no free recording file name for " + stem);
}

RecordingWriter::~RecordingWriter() {
  ::close(fd_);
}

void RecordingWriter::write_locked(std::string_view bytes) {
  if (error_) return;
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string reason = path_.string() + ": write failed: " + errno_text(errno);
      std::lock_guard queue_lock(queue_mutex_);
      error_ = reason;
      return;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void RecordingWriter::write_header(std::string_view header_line) {
  std::lock_guard file_lock(file_mutex_);
  write_locked(header_line);
  {
    std::lock_guard queue_lock(queue_mutex_);
    gate_open_ = true;
    writing_.swap(pending_);
  }
  write_locked(writing_);
  writing_.clear();
}

void RecordingWriter::append(std::string_view events) {
  std::lock_guard queue_lock(queue_mutex_);
  if (!closed_) pending_.append(events);
}

void RecordingWriter::flush() {
  std::lock_guard file_lock(file_mutex_);
  {
    std::lock_guard queue_lock(queue_mutex_);
    if (!gate_open_ || pending_.empty()) return;
    writing_.swap(pending_);
  }
  write_locked(writing_);
  writing_.clear();
}

void RecordingWriter::close_with(std::string_view final_events) {
  std::lock_guard file_lock(file_mutex_);
  {
    std::lock_guard queue_lock(queue_mutex_);
    if (closed_) return;
    pending_.append(final_events);
    closed_ = true;
    if (!gate_open_) return;
    writing_.swap(pending_);
  }
  write_locked(writing_);
  writing_.clear();
}

std::optional<std::string> RecordingWriter::error() const {
  std::lock_guard queue_lock(queue_mutex_);
  return error_;
}

}  // namespace claude::recorder
