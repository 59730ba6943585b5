// ProgressLine: a live status line ("37/90 · 1 failed · 12.4 s") redrawn in place on a terminal.
//
// Everything else the run prints goes through print_above(), which erases the line, prints and
// redraws it, so the two never interleave. Disabled (not a TTY, --quiet, TERM=dumb) it prints
// nothing of its own and print_above() is a plain locked write: CI logs stay line-oriented.
//
// How it fails: never throws; write errors stay in the stream's state.
//
// What it costs: one thread that sleeps between redraws while enabled; nothing when disabled.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>

namespace claude::conformance {

// True when `fd` is a terminal that can redraw a line (not TERM=dumb).
bool is_interactive_terminal(int fd);

class ProgressLine {
 public:
  // `total` 0: an open-ended run ("harness fuzz 1234 · 2 findings · 60.1 s"); `failed_word`
  // names what advance(true) counts.
  ProgressLine(std::ostream& out, std::string label, std::size_t total, bool enabled,
               std::string failed_word = "failed");
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine();  // erases the line

  // One item finished; `failed` counts it among the failures shown.
  void advance(bool failed);
  // Prints `text` (complete lines) above the progress line.
  void print_above(std::string_view text);

  // The line as it would be drawn now, without terminal control codes (for tests and logs).
  std::string status() const;

 private:
  std::string status_locked() const;
  void redraw_locked();
  void tick();

  std::ostream& out_;
  std::string label_;
  std::string failed_word_;
  std::size_t total_;
  bool enabled_;
  std::size_t done_ = 0;
  std::size_t failed_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  mutable std::mutex mutex_;
  std::condition_variable stop_requested_;
  bool stopping_ = false;
  std::thread ticker_;
};

}  // namespace claude::conformance
