#include "claude/base/line_buffer.hpp"

#include <cstring>

namespace claude::base {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

void LineBuffer::emit_line(std::string_view line, bool partial, EventSink sink) const {
  const std::size_t raw_size = line.size();
  if (options_.strip_cr && !line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (options_.strip_bom && line.starts_with(kUtf8Bom)) line.remove_prefix(kUtf8Bom.size());
  if (options_.skip_blank && is_blank(line)) return;
  sink(LineEvent{LineEvent::Kind::line, line, raw_size, partial});
}

void LineBuffer::feed_impl(std::string_view chunk, EventSink sink) {
  const std::size_t cap = options_.max_line_bytes;
  const char* const begin = chunk.data();
  std::size_t pos = 0;
  while (pos < chunk.size()) {
    const auto* newline =
        static_cast<const char*>(std::memchr(begin + pos, '\n', chunk.size() - pos));
    if (newline == nullptr) {
      const std::size_t tail = chunk.size() - pos;
      if (discarding_) {
        discarded_ += tail;
      } else if (pending_.size() + tail > cap) {
        // Over the cap before its newline arrived: stop buffering now, report at the newline.
        discarding_ = true;
        discarded_ = pending_.size() + tail;
        pending_.clear();
      } else {
        pending_.append(begin + pos, tail);
      }
      return;
    }
    const auto end = static_cast<std::size_t>(newline - begin);
    const std::size_t piece = end - pos;
    if (discarding_) {
      sink(LineEvent{LineEvent::Kind::oversized, {}, discarded_ + piece, false});
      discarding_ = false;
      discarded_ = 0;
    } else if (pending_.empty()) {
      if (piece > cap) {
        sink(LineEvent{LineEvent::Kind::oversized, {}, piece, false});
      } else {
        emit_line(chunk.substr(pos, piece), false, sink);
      }
    } else if (pending_.size() + piece > cap) {
      sink(LineEvent{LineEvent::Kind::oversized, {}, pending_.size() + piece, false});
      pending_.clear();
    } else {
      pending_.append(begin + pos, piece);
      emit_line(pending_, false, sink);
      pending_.clear();
    }
    pos = end + 1;
  }
}

void LineBuffer::finish_impl(EventSink sink) {
  if (discarding_) {
    sink(LineEvent{LineEvent::Kind::oversized, {}, discarded_, true});
  } else if (!pending_.empty()) {
    emit_line(pending_, true, sink);
  }
  discarding_ = false;
  discarded_ = 0;
  pending_.clear();
}

}  // namespace claude::base
