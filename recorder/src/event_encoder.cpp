#include "claude/recorder/event_encoder.hpp"

#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
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

// Bit 7 of byte k of the result is set exactly when byte k of `w` (little-endian order) is a
// control character, '"' or '\\'. No borrow crosses bytes: bytes are compared with their high
// bit set, and zero bytes are found with an add that cannot carry out of a byte.
std::uint64_t escape_flags(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull;
  constexpr std::uint64_t kHighs = 0x8080808080808080ull;
  constexpr std::uint64_t kLows = 0x7f7f7f7f7f7f7f7full;
  const auto zero_bytes = [](std::uint64_t x) { return ~(((x & kLows) + kLows) | x | kLows); };
  const std::uint64_t control = ~((w | kHighs) - kOnes * 0x20) & ~w & kHighs;
  return control | zero_bytes(w ^ (kOnes * '"')) | zero_bytes(w ^ (kOnes * '\\'));
}

std::uint64_t load_little_endian(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  return w;
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
  // Words are stored whole before the bytes after an escape are known to belong there, so the
  // output keeps kSlack spare bytes past everything still to be written.
  constexpr std::size_t kSlack = 8;
  const char* const src = text.data();
  const std::size_t size = text.size();
  // Sized for the common case (each escape adds one byte); grown only by a \u00XX escape.
  // Invariant: out.size() >= pos + 2 * (bytes of `text` not yet written) + 1 + kSlack.
  std::size_t pos = out.size();
  out.resize(pos + 2 * size + 2 + kSlack);
  char* dst = out.data();
  dst[pos++] = '"';
  // Writes the escape of `c`, which `rest` unwritten bytes of `text` follow.
  const auto write_escape = [&](unsigned char c, std::size_t rest) {
    const char letter = kEscape[c];
    if (letter != 'u') {
      dst[pos] = '\\';
      dst[pos + 1] = letter;
      pos += 2;
      return;
    }
    const std::size_t need = pos + 6 + 2 * rest + 1 + kSlack;
    if (need > out.size()) {
      out.resize(need);
      dst = out.data();
    }
    const char u[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
    std::memcpy(dst + pos, u, 6);
    pos += 6;
  };
  std::size_t i = 0;
  for (; size - i >= 8; i += 8) {
    std::memcpy(dst + pos, src + i, 8);
    std::uint64_t flags = escape_flags(load_little_endian(src + i));
    if (flags == 0) {
      pos += 8;
      continue;
    }
    // Each escape in the word: the clean bytes before it are already in place; write the escape,
    // then store the rest of the word after it (again whole, from a zero-padded copy).
    char word[16] = {};
    std::memcpy(word, src + i, 8);
    std::size_t start = 0;
    do {
      const auto k = static_cast<std::size_t>(std::countr_zero(flags)) / 8;
      flags &= flags - 1;
      pos += k - start;
      write_escape(static_cast<unsigned char>(word[k]), size - (i + k + 1));
      start = k + 1;
      std::memcpy(dst + pos, word + start, 8);
    } while (flags != 0);
    pos += 8 - start;
  }
  for (; i < size; ++i) {
    const auto c = static_cast<unsigned char>(src[i]);
    if (kEscape[c] == 0) {
      dst[pos++] = static_cast<char>(c);
    } else {
      write_escape(c, size - i - 1);
    }
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
