// While the loader reads the front half of a large scenario file, a second thread reads, frames
// and matches its back half (file_blocks.hpp, match_escaped_string_line), so that loading tens of
// MiB uses two cores: reading 64 MiB from the page cache and validating its strings took about
// 25 ms on one core of the CI VM, all of it before fake-claude can answer `initialize`.
//
// What it keeps, for each line of the back half in file order: the line's framing event, its
// place in the file, and for a `raw` or `stderr` line the place of its string (no bytes: the step
// reads them back when it is written). Any other line is kept as a copy, up to kCopyBudgetBytes;
// at the line past the budget the thread stops, and the caller reads on from that line itself (a
// back half of small lines gains little from a second thread and would only cost memory).
//
// How it fails: a read error ends the thread's lines; the caller reports it after them, where a
// read of the whole file in order would have reported it. When no thread can be started, start()
// returns nullptr and the caller reads the whole file. join() rethrows std::bad_alloc.
//
// What it costs: one thread, its blocks (1 MiB), and about 100 bytes per line it keeps.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "claude/sdk/line_buffer.hpp"
#include "line_source.hpp"

namespace claude::emulator::detail {

// One line of the back half.
struct AheadLine {
  sdk::LineEvent event;       // `text` is empty here; it is `copy` without its padding
  std::size_t text_size = 0;  // of the line's text, also when it is not copied
  // A complete line inside a block: where it lies, and its string when it is a raw/stderr line.
  std::optional<FileLine> in_file;
  std::string copy;  // any other line: its text followed by kJsonPadding bytes
  [[nodiscard]] std::string_view text() const;
};

class BackHalfReader {
 public:
  // Copies of lines other than raw/stderr lines, beyond which the thread stops.
  static constexpr std::size_t kCopyBudgetBytes = std::size_t{4} << 20;

  // Starts the thread on the lines that follow the first '\n' at or past the middle of the
  // regular file `fd` of `file_size` bytes; nullptr when there is no such line or no thread.
  static std::unique_ptr<BackHalfReader> start(int fd, std::uint64_t file_size);
  ~BackHalfReader();  // stops the thread and waits for it
  BackHalfReader(const BackHalfReader&) = delete;
  BackHalfReader& operator=(const BackHalfReader&) = delete;

  // Where the back half starts: the caller reads the file up to here.
  [[nodiscard]] std::uint64_t begin() const { return begin_; }

  struct Lines {
    std::vector<AheadLine> lines;
    // Set when the thread stopped at the budget: the start of the first line it did not keep.
    std::optional<std::uint64_t> resume_at;
    std::optional<std::string> error;  // a read error after `lines`
  };
  // Waits for the thread and takes its lines.
  Lines join();

 private:
  BackHalfReader(int fd, std::uint64_t begin, std::uint64_t file_size)
      : fd_(fd), begin_(begin), file_size_(file_size) {}
  void run();

  int fd_;
  std::uint64_t begin_;
  std::uint64_t file_size_;
  std::atomic<bool> stop_{false};
  Lines result_;
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace claude::emulator::detail
