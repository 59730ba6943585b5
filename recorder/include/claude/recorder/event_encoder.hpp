// Event encoding for recording format v1 (docs/recording.md): one JSON object per line.
//
// What it is: the only place that turns recorded values into JSON text. It is written out here
// rather than taken from a JSON library because it runs on every forwarded line and must not
// copy it: nlohmann escapes only a `json` value (one more copy of the line, and a UTF-8 decode
// per byte), and simdjson 3.0 has no string writer. Strings go through claude::base's escaper
// (a table lookup per byte, the bytes between escapes appended as whole runs).
//
// How it fails: it does not. A line that is not valid UTF-8 is written as `line_b64` (base64 of
// the exact bytes) instead of `line`, so every byte survives and JSON stays valid.
//
// What it costs: one pass over the line to validate UTF-8 and one to escape (or to base64).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace claude::recorder {

enum class Stream : std::uint8_t { in, out, err };

[[nodiscard]] std::string_view stream_name(Stream stream) noexcept;

// The `{"t":T` that opens an event, formatted once for all the lines of one chunk (they share
// its read time; formatting a double costs about as much as escaping a short line). A plain
// `double` converts, for a single event.
class EventTime {
 public:
  EventTime(double t);
  [[nodiscard]] std::string_view text() const noexcept { return {text_, size_}; }

 private:
  char text_[40];
  std::size_t size_;
};

// {"t":T,"dir":D,"line":…|"line_b64":…[,"more":true][,"partial":true]}\n
void append_line_event(std::string& out, const EventTime& t, Stream stream, std::string_view bytes,
                       bool more, bool partial);
// {"t":T,"eof":D}\n
void append_eof_event(std::string& out, double t, Stream stream);
// {"t":T,"exit":CODE}\n
void append_exit_event(std::string& out, double t, int code);
// {"t":T,"signal":"SIGTERM"}\n
void append_signal_event(std::string& out, double t, std::string_view signal_name);

}  // namespace claude::recorder
