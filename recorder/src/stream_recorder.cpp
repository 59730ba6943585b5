#include "claude/recorder/stream_recorder.hpp"

#include <functional>

namespace claude::recorder {

void StreamRecorder::encode(const LinePiece& piece, const EventTime& t, std::string& out) {
  std::string_view bytes = piece.bytes;
  const std::less_equal<const char*> le;
  const bool inside_clean_chunk =
      !clean_chunk_.empty() && le(clean_chunk_.data(), bytes.data()) &&
      le(bytes.data() + bytes.size(), clean_chunk_.data() + clean_chunk_.size());
  if (!inside_clean_chunk && redactor_->redact(bytes, scratch_)) bytes = scratch_;
  append_line_event(out, t, stream_, bytes, piece.more, piece.partial);
}

void StreamRecorder::on_chunk(std::string_view chunk, double t, std::string& out) {
  clean_chunk_ = redactor_->may_match_any_line(chunk) ? std::string_view() : chunk;
  const EventTime time(t);
  splitter_.feed(chunk, [&](const LinePiece& piece) { encode(piece, time, out); });
  clean_chunk_ = {};
}

void StreamRecorder::on_eof(double t, std::string& out) {
  const EventTime time(t);
  splitter_.finish([&](const LinePiece& piece) { encode(piece, time, out); });
  append_eof_event(out, t, stream_);
}

}  // namespace claude::recorder
