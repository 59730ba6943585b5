// RecordingWriter: the recording file — created once, never overwritten, appended to by the
// recorder thread in causal order, every batch of events written as soon as it is produced.
//
// What it is: a descriptor opened O_CREAT|O_EXCL, mode 0600, and a gate: events queued before the
// header is written (claude-tee forwards at once; the header waits for the CLI's version) are
// written right after it. One write(2) per batch and no user-space buffering, so a SIGKILLed
// process leaves every event it had flushed; no fsync (a machine crash may lose the tail).
//
// How it fails: `create` throws RecordingError naming the path and errno text. A failing write
// afterwards (a full disk) does not end the session: unwritten bytes stay first in line (a line
// cut by a short write is finished later, never torn) and every flush retries. Up to
// kMaxUnwrittenBytes of events wait in memory; later ones are dropped whole and counted, and
// once a write succeeds a gap event takes their place:
//   {"t":T,"gap":{"events":N,"bytes":B,"reason":"No space left on device"}}
// (T: the first dropped event's time). close_with() retries for kCloseRetry. `losses()`
// describes every byte that did not reach the file, for claude-tee's closing stderr line.
//
// What it costs: one mutex per append and one write(2) per flush; while the disk is full, one
// failing write(2) per flush and up to kMaxUnwrittenBytes of memory.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace claude::recorder {

class RecordingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where `CLAUDE_TEE_OUT` (or its absence) says to write: a value ending in '/' or naming an
// existing directory is a directory; no value means `./claude-recordings/`.
struct RecordingTarget {
  std::filesystem::path path;
  bool is_directory = false;
};
[[nodiscard]] RecordingTarget resolve_recording_target(const std::optional<std::string>& value);

class RecordingWriter {
 public:
  // Events kept in memory while the file cannot be written; more are dropped (a gap event).
  static constexpr std::size_t kMaxUnwrittenBytes = std::size_t{16} << 20;
  // How long close_with() keeps retrying a file that cannot be written.
  static constexpr std::chrono::milliseconds kCloseRetry{5000};

  // write(2) by default; tests pass one that fails like a full disk.
  using WriteCall = std::function<long(int fd, const char* data, std::size_t size)>;

  // Creates the file (a directory target is created with mode 0700 when missing, and gets a
  // file named claude-<UTC time>-<pid>[-<n>].ndjson).
  [[nodiscard]] static std::unique_ptr<RecordingWriter> create(const RecordingTarget& target,
                                                               WriteCall write = {});

  RecordingWriter(const RecordingWriter&) = delete;
  RecordingWriter& operator=(const RecordingWriter&) = delete;
  ~RecordingWriter();

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

  // Writes the header line (with its '\n'), opens the gate and flushes what was queued.
  void write_header(std::string_view header_line);
  // Queues complete encoded events.
  void append(std::string_view events);
  // Writes everything queued so far (no-op while the gate is closed).
  void flush();
  // Appends the final events, flushes, and ignores anything appended afterwards.
  void close_with(std::string_view final_events);

  // What did not reach the file, if anything: "path: N events (B bytes) dropped while the file
  // could not be written (reason), marked by K gap events; M bytes never written (reason)".
  [[nodiscard]] std::optional<std::string> losses() const;

 private:
  RecordingWriter(int fd, std::filesystem::path path, WriteCall write)
      : fd_(fd), path_(std::move(path)), write_(std::move(write)) {}
  // Writes the unwritten bytes; false (and stuck_) when the file refuses them.
  bool write_unwritten_locked();
  // Writes everything queued, in order: the unwritten bytes, events held before a gap, the gap
  // event, then pending events. False while the file refuses bytes.
  bool write_queued_locked();

  int fd_;
  std::filesystem::path path_;
  WriteCall write_;
  mutable std::mutex queue_mutex_;  // guards pending_, gate_open_, closed_, stuck_, the counts
  std::mutex file_mutex_;           // orders write(2) calls
  std::string pending_;
  std::string pre_gap_;    // events accepted before the open gap, written before its event
  std::string unwritten_;  // taken from the queue, not yet written (file_mutex_)
  bool gate_open_ = false;
  bool closed_ = false;
  bool stuck_ = false;  // the last write failed; appends count against kMaxUnwrittenBytes
  std::size_t unwritten_size_ = 0;  // unwritten_.size(), readable under queue_mutex_
  std::string last_reason_;
  // Dropped since the last gap event was written (or for the next one).
  std::size_t gap_events_ = 0;
  std::size_t gap_bytes_ = 0;
  std::string gap_t_;  // the `t` of the first dropped event, as written
  std::string gap_reason_;
  // Totals, for losses().
  std::size_t dropped_events_ = 0;
  std::size_t dropped_bytes_ = 0;
  std::size_t gaps_written_ = 0;
  std::size_t never_written_ = 0;
};

}  // namespace claude::recorder
