// RecordingWriter: the recording file — created once, never overwritten, appended to by several
// pump threads, every batch of events written as soon as it is produced.
//
// What it is: a file descriptor opened with O_CREAT|O_EXCL and mode 0600, a buffer of encoded
// events, and a gate: events queued before the header is written wait in memory (claude-tee
// starts forwarding at once, while the header still waits for the real CLI's version) and are
// written right after it. Events reach the kernel with one write(2) per batch and no user-space
// buffering, so a SIGKILLed process leaves every event it had flushed; no fsync is done (a
// machine crash may lose the tail).
//
// Ordering: events are written in the order they are appended. claude-tee appends from its one
// recorder thread, which takes chunks in the causal order of its RecordingQueue.
//
// How it fails: `create` throws RecordingError naming the path and errno text (existing file,
// missing permission, …). A failing write afterwards (disk full) is remembered in `error()`
// and stops further writes; forwarding never depends on the recording.
//
// What it costs: one mutex per append and one write(2) per flush.
#pragma once

#include <filesystem>
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
  // Creates the file (a directory target is created with mode 0700 when missing, and gets a
  // file named claude-<UTC time>-<pid>[-<n>].ndjson).
  [[nodiscard]] static std::unique_ptr<RecordingWriter> create(const RecordingTarget& target);

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

  // The first write error, if any ("path: reason").
  [[nodiscard]] std::optional<std::string> error() const;

 private:
  RecordingWriter(int fd, std::filesystem::path path) : fd_(fd), path_(std::move(path)) {}
  void write_locked(std::string_view bytes);

  int fd_;
  std::filesystem::path path_;
  mutable std::mutex queue_mutex_;  // guards pending_, gate_open_, closed_
  std::mutex file_mutex_;           // orders write(2) calls
  std::string pending_;
  std::string writing_;
  bool gate_open_ = false;
  bool closed_ = false;
  std::optional<std::string> error_;  // guarded by file_mutex_ for writes, queue_mutex_ for reads
};

}  // namespace claude::recorder
