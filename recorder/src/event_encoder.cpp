#include "claude/recorder/event_encoder.hpp"

#include <charconv>
#include <cstring>

#include "claude/base/base64.hpp"
#include "claude/base/json_escape.hpp"
#include "claude/base/utf8.hpp"

namespace claude::recorder {
std::string_view stream_name(Stream stream) noexcept {
  static constexpr std::string_view kNames[] = {"in", "out", "err"};
  const auto i = static_cast<std::size_t>(stream);
  return i < std::size(kNames) ? kNames[i] : "?";
}

EventTime::EventTime(double t) {
  static constexpr std::string_view kOpen = "{\"t\":";
  std::memcpy(text_, kOpen.data(), kOpen.size());
  char* const begin = text_ + kOpen.size();
  auto res = std::to_chars(begin, text_ + sizeof text_, t, std::chars_format::fixed, 6);
  // Only a time beyond 10^27 s has too many digits for fixed notation: the shortest form (at most
  // 24 characters) keeps it a JSON number.
  if (res.ec != std::errc()) res = std::to_chars(begin, text_ + sizeof text_, t);
  size_ = static_cast<std::size_t>(res.ptr - text_);
}

void append_line_event(std::string& out, const EventTime& t, Stream stream, std::string_view bytes,
                       bool more, bool partial) {
  out += t.text();
  out += ",\"dir\":\"";
  out += stream_name(stream);
  if (base::is_valid_utf8(bytes)) {
    out += "\",\"line\":";
    base::append_json_string(out, bytes);
  } else {
    out += "\",\"line_b64\":\"";
    base::base64_append(out, bytes);
    out.push_back('"');
  }
  if (more) out += ",\"more\":true";
  if (partial) out += ",\"partial\":true";
  out += "}\n";
}

void append_eof_event(std::string& out, double t, Stream stream) {
  out += EventTime(t).text();
  out += ",\"eof\":\"";
  out += stream_name(stream);
  out += "\"}\n";
}

void append_exit_event(std::string& out, double t, int code) {
  out += EventTime(t).text();
  out += ",\"exit\":";
  out += std::to_string(code);
  out += "}\n";
}

void append_signal_event(std::string& out, double t, std::string_view signal_name) {
  out += EventTime(t).text();
  out += ",\"signal\":";
  base::append_json_string(out, signal_name);
  out += "}\n";
}

}  // namespace claude::recorder
