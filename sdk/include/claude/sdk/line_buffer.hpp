// LineBuffer: turns a byte stream delivered in chunks of any size into NDJSON lines.
//
// What it is: the one framing layer every component shares (the SDK reading the CLI's stdout,
// fake-claude reading the SDK's stdin, claude-tee splitting a copy of both streams). It takes
// bytes, never file descriptors, so tests and fuzzers drive it directly.
//
// Framing rules (docs/protocol.md §2.1, §2.2):
//  - A line ends at '\n' and only there. '\r' alone, U+2028 and U+2029 are ordinary bytes: JSON
//    may carry them raw inside strings, and splitting there is the bug §2.1 warns of.
//  - `strip_cr`: one '\r' before the '\n' is removed (CRLF producers).
//  - `strip_bom`: a UTF-8 byte order mark at the start of a line is removed, as the real CLI
//    does on its stdin.
//  - `skip_blank`: lines that are empty or hold only spaces, tabs and '\r' are not delivered
//    (§2.1).
//  - Nothing else is changed: no trimming, no UTF-8 validation, no decoding. A multi-byte
//    character split across chunks is reassembled because bytes are only ever appended.
//  - A line longer than `max_line_bytes` (the bytes before '\n', after nothing is stripped) is
//    reported once, with its full size, as `LineEvent::Kind::oversized`, and its bytes are dropped
//    up to the next '\n'; reading then continues with the next line.
//  - `finish()` ends the input: bytes after the last '\n' are delivered as one line flagged
//    `partial` (§2.1), or as an oversized event flagged `partial` if over the cap.
//
// How it fails: it does not; it never throws except std::bad_alloc.
//
// What it costs: lines that lie wholly inside one chunk are delivered as views into that chunk,
// with no copy. Only the unfinished tail of a chunk is copied, into a buffer that never holds more
// than `max_line_bytes` bytes: memory stays below the cap plus the chunk being fed. A view passed
// to the handler is valid only during the call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace claude::sdk {

struct LineBufferOptions {
  // 32 MiB: real CLIs emit single frames well above 1 MiB (docs/protocol.md §2.1).
  std::size_t max_line_bytes = 32u << 20;
  bool strip_cr = true;
  bool strip_bom = true;
  bool skip_blank = true;
};

struct LineEvent {
  enum class Kind : std::uint8_t {
    line,      // `text` holds the line, without its '\n'
    oversized  // the line was dropped; `size` is its length in bytes
  };
  Kind kind = Kind::line;
  std::string_view text;
  std::size_t size = 0;  // bytes of the line as received (before any stripping)
  bool partial = false;  // the input ended before this line's '\n'
};

class LineBuffer {
 public:
  explicit LineBuffer(LineBufferOptions options = {}) : options_(options) {}

  // Feeds one chunk; calls `handler(const LineEvent&)` for every event the chunk completes.
  template <class Handler>
  void feed(std::string_view chunk, Handler&& handler) {
    feed_impl(chunk, EventSink{&handler, &call<Handler>});
  }

  // Ends the input: delivers what remains after the last newline, then resets for reuse.
  template <class Handler>
  void finish(Handler&& handler) {
    finish_impl(EventSink{&handler, &call<Handler>});
  }

  // Bytes held for an unfinished line (0 while discarding an oversized one).
  [[nodiscard]] std::size_t buffered_bytes() const noexcept { return pending_.size(); }
  [[nodiscard]] const LineBufferOptions& options() const noexcept { return options_; }

 private:
  struct EventSink {
    void* handler;
    void (*invoke)(void*, const LineEvent&);
    void operator()(const LineEvent& e) const { invoke(handler, e); }
  };
  template <class Handler>
  static void call(void* handler, const LineEvent& e) {
    (*static_cast<std::remove_reference_t<Handler>*>(handler))(e);
  }

  void feed_impl(std::string_view chunk, EventSink sink);
  void finish_impl(EventSink sink);
  void emit_line(std::string_view line, bool partial, EventSink sink) const;

  LineBufferOptions options_;
  std::string pending_;        // unfinished line, at most max_line_bytes
  bool discarding_ = false;    // inside an oversized line, dropping bytes up to its '\n'
  std::size_t discarded_ = 0;  // bytes of that line seen so far
};

}  // namespace claude::sdk
