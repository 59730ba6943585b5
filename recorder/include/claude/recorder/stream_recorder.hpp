// StreamRecorder: turns the copy of one forwarded stream into encoded recording events (split
// into lines, redacted, escaped), ready to be appended to the file.
//
// What it is: the pure core of the recorder, bytes and timestamps in, NDJSON text out, tested
// without processes. One instance per stream; not thread-safe.
//
// How it fails: it does not; no byte is dropped (long lines become `more` pieces, invalid UTF-8
// becomes `line_b64`).
//
// What it costs: see LineSplitter, Redactor and event_encoder.hpp; no allocation for lines
// without secrets once the output string has grown.
#pragma once

#include <string>
#include <string_view>

#include "claude/recorder/event_encoder.hpp"
#include "claude/recorder/line_splitter.hpp"
#include "claude/recorder/redactor.hpp"

namespace claude::recorder {

class StreamRecorder {
 public:
  StreamRecorder(Stream stream, const Redactor& redactor,
                 std::size_t piece_bytes = LineSplitter::kDefaultPieceBytes)
      : stream_(stream), redactor_(&redactor), splitter_(piece_bytes) {}

  // Appends the events completed by `chunk`, all stamped `t`.
  void on_chunk(std::string_view chunk, double t, std::string& out);
  // Appends the partial last line, if any, and the stream's eof event.
  void on_eof(double t, std::string& out);

 private:
  void encode(const LinePiece& piece, const EventTime& t, std::string& out);

  // The chunk being fed, when one scan showed no line inside it needs redacting.
  std::string_view clean_chunk_;
  Stream stream_;
  const Redactor* redactor_;
  LineSplitter splitter_;
  std::string scratch_;
};

}  // namespace claude::recorder
