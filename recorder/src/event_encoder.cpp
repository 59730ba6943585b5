#include "claude/recorder/event_encoder.hpp"

#include <array>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

namespace {

// Writes escaped text into `out` past `pos`, keeping the room that whole-word and whole-block
// stores need (see append_escaped).
struct EscapeOutput {
  // Words and blocks are stored whole before the bytes after an escape are known to belong
  // there, so the output keeps kSlack spare bytes past everything still to be written.
  static constexpr std::size_t kSlack = 16;

  std::string& out;
  char* dst;
  std::size_t pos;

  // Writes the escape of `c`, which `rest` unwritten bytes of the text follow.
  void escape(unsigned char c, std::size_t rest) {
    static constexpr char kHex[] = "0123456789abcdef";
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
  }
};

// Escapes the whole 8-byte words of text[i, end); returns where it stopped.
std::size_t escape_words(EscapeOutput& o, std::string_view text, std::size_t i, std::size_t end) {
  const char* const src = text.data();
  const std::size_t size = text.size();
  for (; end - i >= 8; i += 8) {
    std::memcpy(o.dst + o.pos, src + i, 8);
    std::uint64_t flags = escape_flags(load_little_endian(src + i));
    if (flags == 0) {
      o.pos += 8;
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
      o.pos += k - start;
      o.escape(static_cast<unsigned char>(word[k]), size - (i + k + 1));
      start = k + 1;
      std::memcpy(o.dst + o.pos, word + start, 8);
    } while (flags != 0);
    o.pos += 8 - start;
  }
  return i;
}

#if defined(__x86_64__)
// For each set of bytes of an 8-byte word that take a backslash before them: the pshufb indices
// that spread the word out with a gap before each of those bytes (0x80, which pshufb turns into
// 0, marks a gap).
struct SpreadTable {
  alignas(16) std::array<std::array<std::uint8_t, 16>, 256> index{};
};

constexpr SpreadTable make_spread_table() {
  SpreadTable table;
  for (unsigned mask = 0; mask < 256; ++mask) {
    auto& index = table.index[mask];
    std::size_t j = 0;
    for (std::uint8_t k = 0; k < 8; ++k) {
      if ((mask >> k) & 1u) index[j++] = 0x80;
      index[j++] = k;
    }
    while (j < 16) index[j++] = 0x80;
  }
  return table;
}

constexpr SpreadTable kSpread = make_spread_table();

// One 8-byte half (the low bytes of `v`), where `mask` flags the '"' and '\\' bytes: both
// escape as a backslash before the byte itself, so the half is spread out with one shuffle.
__attribute__((target("ssse3,popcnt"))) void store_spread_half(EscapeOutput& o, __m128i v,
                                                               unsigned mask) {
  const __m128i index =
      _mm_load_si128(reinterpret_cast<const __m128i*>(kSpread.index[mask].data()));
  const __m128i gaps = _mm_cmpeq_epi8(index, _mm_set1_epi8(static_cast<char>(0x80)));
  const __m128i spread =
      _mm_or_si128(_mm_shuffle_epi8(v, index), _mm_and_si128(gaps, _mm_set1_epi8('\\')));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(o.dst + o.pos), spread);
  o.pos += 8 + static_cast<std::size_t>(__builtin_popcount(mask));
}

// Escapes whole 16-byte blocks of `text` from `i` on; returns where it stopped. A block without
// control characters costs the same however many quotes and backslashes it holds, which matters
// because a recorded line is JSON: about one byte in five is a quote.
__attribute__((target("ssse3,popcnt"))) std::size_t escape_blocks_ssse3(EscapeOutput& o,
                                                                        std::string_view text,
                                                                        std::size_t i) {
  const char* const src = text.data();
  const std::size_t size = text.size();
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i last_control = _mm_set1_epi8(0x1f);
  for (; size - i >= 16; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, last_control), last_control);
    if (_mm_movemask_epi8(control) != 0) {
      // Rare in a JSON line (its strings escape them already): the word path writes \n, \u00XX.
      escape_words(o, text, i, i + 16);
      continue;
    }
    const auto mask = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash))));
    if (mask == 0) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(o.dst + o.pos), v);
      o.pos += 16;
      continue;
    }
    store_spread_half(o, v, mask & 0xffu);
    store_spread_half(o, _mm_srli_si128(v, 8), mask >> 8);
  }
  return i;
}
#endif

// `simd`: whether 16-byte blocks may use SSSE3 (when the CPU has it).
void append_escaped(std::string& out, std::string_view text, bool simd) {
  const std::size_t size = text.size();
  // Sized for the common case (each escape adds one byte); grown only by a \u00XX escape.
  // Invariant: out.size() >= pos + 2 * (bytes of `text` not yet written) + 1 + kSlack.
  EscapeOutput o{out, nullptr, out.size()};
  out.resize(o.pos + 2 * size + 2 + EscapeOutput::kSlack);
  o.dst = out.data();
  o.dst[o.pos++] = '"';
  std::size_t i = 0;
#if defined(__x86_64__)
  static const bool has_ssse3 = __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("popcnt");
  if (simd && has_ssse3) i = escape_blocks_ssse3(o, text, i);
#else
  (void)simd;
#endif
  i = escape_words(o, text, i, size);
  for (; i < size; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (kEscape[c] == 0) {
      o.dst[o.pos++] = static_cast<char>(c);
    } else {
      o.escape(c, size - i - 1);
    }
  }
  o.dst[o.pos++] = '"';
  out.resize(o.pos);
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  append_escaped(out, text, true);
}

void append_json_string_portable(std::string& out, std::string_view text) {
  append_escaped(out, text, false);
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
