#include "claude/recorder/event_encoder.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "claude/recorder/base64.hpp"
#include "claude/recorder/utf8.hpp"

namespace claude::recorder {
namespace {

constexpr std::array<bool, 256> make_escape_table() {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[static_cast<std::size_t>(c)] = true;
  table['"'] = true;
  table['\\'] = true;
  return table;
}

constexpr auto kNeedsEscape = make_escape_table();

// True when any of the 8 bytes is a control character, '"' or '\\' (exact; SWAR tests from
// "Bit Twiddling Hacks": a byte below n, a byte equal to zero after xor).
bool word_needs_escape(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  constexpr std::uint64_t kHighs = 0x8080808080808080ull;
  const auto below = [&](std::uint64_t x, std::uint64_t n) {
    return (x - kOnes * n) & ~x & kHighs;
  };
  return (below(w, 0x20) | below(w ^ (kOnes * '"'), 1) | below(w ^ (kOnes * '\\'), 1)) != 0;
}

void append_time(std::string& out, double t) {
  out += "{\"t\":";
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, t, std::chars_format::fixed, 6);
  out.append(buf, res.ptr);
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
  // Sized for the common case (each escape adds one byte); grown only by a \u00XX escape.
  std::size_t pos = out.size();
  out.resize(pos + 2 * text.size() + 2);
  char* dst = out.data();
  dst[pos++] = '"';
  std::size_t i = 0;
  while (i < text.size()) {
    if (text.size() - i >= 8) {
      std::uint64_t w;
      std::memcpy(&w, text.data() + i, 8);
      if (!word_needs_escape(w)) {
        std::memcpy(dst + pos, &w, 8);
        pos += 8;
        i += 8;
        continue;
      }
    }
    const auto c = static_cast<unsigned char>(text[i++]);
    if (!kNeedsEscape[c]) {
      dst[pos++] = static_cast<char>(c);
      continue;
    }
    char esc = 0;
    switch (c) {
      case '"':
        esc = '"';
        break;
      case '\\':
        esc = '\\';
        break;
      case '\n':
        esc = 'n';
        break;
      case '\r':
        esc = 'r';
        break;
      case '\t':
        esc = 't';
        break;
      default:
        break;
    }
    if (esc != 0) {
      dst[pos++] = '\\';
      dst[pos++] = esc;
      continue;
    }
    // Room for this escape's 4 extra bytes while keeping 2 per remaining byte and the quote.
    const std::size_t need = pos + 6 + 2 * (text.size() - i) + 1;
    if (need > out.size()) {
      out.resize(need);
      dst = out.data();
    }
    const char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
    std::memcpy(dst + pos, u, 6);
    pos += 6;
  }
  dst[pos++] = '"';
  out.resize(pos);
}

void append_line_event(std::string& out, double t, Stream stream, std::string_view bytes, bool more,
                       bool partial) {
  append_time(out, t);
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
