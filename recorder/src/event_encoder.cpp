#include "claude/recorder/event_encoder.hpp"

#include <array>
#include <charconv>
#include <cstring>

#include "claude/recorder/base64.hpp"
#include "claude/recorder/utf8.hpp"

namespace claude::recorder {
namespace {

// For each byte: 0 when it is copied as is, the letter of its two-byte escape (\" \\ \n \r \t),
// or 'u' for \u00XX.
constexpr std::array<char, 256> make_escape_table() {
  std::array<char, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[static_cast<std::size_t>(c)] = 'u';
  table['"'] = '"';
  table['\\'] = '\\';
  table['\n'] = 'n';
  table['\r'] = 'r';
  table['\t'] = 't';
  return table;
}

constexpr auto kEscape = make_escape_table();

void append_time(std::string& out, double t) {
  out += EventTime(t).text();
}

}  // namespace

std::string_view stream_name(Stream stream) noexcept {
  switch (stream) {
    case Stream::in:
      return "in";
    case Stream::out:
      return "out";
    case Stream::err:
      return "err";
  }
  return "?";
}

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  // Room for the common case, one escape in a few bytes (a recorded line is JSON: about one
  // byte in five is a quote); the bytes between escapes go in as whole runs.
  out.reserve(out.size() + text.size() + text.size() / 4 + 2);
  out.push_back('"');
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const char letter = kEscape[c];
    if (letter == 0) continue;
    out.append(text.data() + run, i - run);
    run = i + 1;
    if (letter == 'u') {
      const char escape[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      out.append(escape, sizeof escape);
    } else {
      const char escape[] = {'\\', letter};
      out.append(escape, sizeof escape);
    }
  }
  out.append(text.data() + run, text.size() - run);
  out.push_back('"');
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

void append_line_event(std::string& out, double t, Stream stream, std::string_view bytes, bool more,
                       bool partial) {
  append_line_event(out, EventTime(t), stream, bytes, more, partial);
}

void append_line_event(std::string& out, const EventTime& t, Stream stream, std::string_view bytes,
                       bool more, bool partial) {
  out += t.text();
  out += ",\"dir\":\"";
  out += stream_name(stream);
  if (is_valid_utf8(bytes)) {
    out += "\",\"line\":";
    append_json_string(out, bytes);
  } else {
    out += "\",\"line_b64\":\"";
    base64_append(out, bytes);
    out.push_back('"');
  }
  if (more) out += ",\"more\":true";
  if (partial) out += ",\"partial\":true";
  out += "}\n";
}

void append_eof_event(std::string& out, double t, Stream stream) {
  append_time(out, t);
  out += ",\"eof\":\"";
  out += stream_name(stream);
  out += "\"}\n";
}

void append_exit_event(std::string& out, double t, int code) {
  append_time(out, t);
  out += ",\"exit\":";
  out += std::to_string(code);
  out += "}\n";
}

void append_signal_event(std::string& out, double t, std::string_view signal_name) {
  append_time(out, t);
  out += ",\"signal\":";
  append_json_string(out, signal_name);
  out += "}\n";
}

}  // namespace claude::recorder
