// LineSplitter: cuts claude-tee's copy of a stream into lines without ever dropping a byte.
//
// What it is: the recorder's framing. It differs from claude::base::LineBuffer in one way that
// matters for a recorder: a line longer than `piece_bytes` is not reported as oversized and
// discarded but delivered in consecutive pieces, each flagged `more` except the last, so the
// recording holds every byte. Nothing is stripped: '\r', a BOM and blank lines are kept.
//
// How it fails: it does not; only std::bad_alloc can escape.
//
// What it costs: a line that lies inside one chunk is delivered as a view into that chunk, with
// no copy. The unfinished tail of a chunk is copied into a buffer that holds at most
// `piece_bytes` plus one chunk. A view passed to the handler is valid only during the call.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace claude::recorder {

struct LinePiece {
  std::string_view bytes;  // without the terminating '\n'
  bool more = false;       // the line continues in the next piece
  bool partial = false;    // the stream ended before this line's '\n'
};

class LineSplitter {
 public:
  // 8 MiB: large enough that real frames (a few MiB at most) stay whole, small enough that a
  // runaway line costs bounded memory.
  static constexpr std::size_t kDefaultPieceBytes = 8u << 20;

  explicit LineSplitter(std::size_t piece_bytes = kDefaultPieceBytes)
      : piece_bytes_(piece_bytes == 0 ? 1 : piece_bytes) {}

  // Feeds one chunk; calls `handler(const LinePiece&)` for each piece the chunk completes.
  template <class Handler>
  void feed(std::string_view chunk, Handler&& handler) {
    while (!chunk.empty()) {
      const void* nl = std::memchr(chunk.data(), '\n', chunk.size());
      if (nl == nullptr) {
        pending_.append(chunk);
        emit_full_pieces(handler);
        return;
      }
      const auto len = static_cast<std::size_t>(static_cast<const char*>(nl) - chunk.data());
      if (pending_.empty()) {
        emit_line(chunk.substr(0, len), false, handler);
      } else {
        pending_.append(chunk.substr(0, len));
        emit_line(pending_, false, handler);
        pending_.clear();
      }
      chunk.remove_prefix(len + 1);
    }
  }

  // Ends the stream: delivers bytes after the last '\n' as a partial line, then resets.
  template <class Handler>
  void finish(Handler&& handler) {
    if (!pending_.empty()) emit_line(pending_, true, handler);
    pending_.clear();
  }

  [[nodiscard]] std::size_t buffered_bytes() const noexcept { return pending_.size(); }

 private:
  // Delivers full pieces while more than one piece is left; returns the rest (never empty when
  // `bytes` is not), so the piece that ends a line is never empty.
  template <class Handler>
  std::string_view emit_pieces(std::string_view bytes, Handler& handler) {
    while (bytes.size() > piece_bytes_) {
      handler(LinePiece{bytes.substr(0, piece_bytes_), true, false});
      bytes.remove_prefix(piece_bytes_);
    }
    return bytes;
  }

  template <class Handler>
  void emit_line(std::string_view line, bool partial, Handler& handler) {
    handler(LinePiece{emit_pieces(line, handler), false, partial});
  }

  template <class Handler>
  void emit_full_pieces(Handler& handler) {
    pending_.erase(0, pending_.size() - emit_pieces(pending_, handler).size());
  }

  std::size_t piece_bytes_;
  std::string pending_;
};

}  // namespace claude::recorder
