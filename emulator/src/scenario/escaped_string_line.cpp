#include "escaped_string_line.hpp"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

// x86-64 scans with SSE2, and AVX2 where the CPU has it; other targets (or a build with
// CLAUDE_HARNESS_PORTABLE_SCAN, to test that code on x86) with portable code.
#if defined(__x86_64__) && !defined(CLAUDE_HARNESS_PORTABLE_SCAN)
#define CLAUDE_HARNESS_X86_SCAN 1
#include <immintrin.h>
#endif

namespace claude::emulator::detail {
namespace {

// The bytes of a 64-byte block that matter to a JSON string, one bit per byte.
struct BlockBits {
  std::uint64_t backslash = 0;
  std::uint64_t quote = 0;
  std::uint64_t control = 0;      // below 0x20
  std::uint64_t escape_code = 0;  // one of " \ / b f n r t u
  std::uint64_t u = 0;            // 'u'
  std::uint64_t high = 0;         // bytes of 0x80 and above (not ASCII)
};

#if !defined(CLAUDE_HARNESS_X86_SCAN)
bool is_escape_code(unsigned char c) {
  switch (c) {
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
    case 'u':
      return true;
    default:
      return false;
  }
}
#endif

#if defined(CLAUDE_HARNESS_X86_SCAN)
std::uint64_t bits16(__m128i mask) {
  return static_cast<std::uint32_t>(_mm_movemask_epi8(mask));
}

__m128i equal(__m128i v, char c) {
  return _mm_cmpeq_epi8(v, _mm_set1_epi8(c));
}

// The bytes of `v` below 0x20.
__m128i control_bytes(__m128i v) {
  return _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
}

// The bytes of `v` a JSON string must not hold as they are: '\', '"' and control bytes.
__m128i special_bytes(__m128i v) {
  return _mm_or_si128(_mm_or_si128(equal(v, '\\'), equal(v, '"')), control_bytes(v));
}

// The '\', '"' and control bits of the 16 bytes at `p` into `bits`, shifted to `at`.
void scan16(const char* p, unsigned at, BlockBits& bits) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  bits.backslash |= bits16(equal(v, '\\')) << at;
  bits.quote |= bits16(equal(v, '"')) << at;
  bits.control |= bits16(control_bytes(v)) << at;
  bits.high |= bits16(v) << at;
}

// The escape code and 'u' bits of the 16 bytes at `p`.
void codes16(const char* p, unsigned at, BlockBits& bits) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i u = equal(v, 'u');
  const __m128i codes =
      _mm_or_si128(_mm_or_si128(_mm_or_si128(equal(v, '"'), equal(v, '\\')),
                                _mm_or_si128(equal(v, '/'), equal(v, 'b'))),
                   _mm_or_si128(_mm_or_si128(equal(v, 'f'), equal(v, 'n')),
                                _mm_or_si128(_mm_or_si128(equal(v, 'r'), equal(v, 't')), u)));
  bits.escape_code |= bits16(codes) << at;
  bits.u |= bits16(u) << at;
}
#endif

// Whether any of the 64 bytes at `p` is '\', '"' or a control byte: most of a long string is
// not, and such a block needs no bits. `high` collects the bytes' top bits (non-ASCII text).
#if defined(CLAUDE_HARNESS_X86_SCAN)
__attribute__((target("avx2"))) bool any_special_avx2(const char* p, __m256i& high) {
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i last_control = _mm256_set1_epi8(0x1F);
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  const __m256i special_a =
      _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(a, backslash), _mm256_cmpeq_epi8(a, quote)),
                      _mm256_cmpeq_epi8(_mm256_min_epu8(a, last_control), a));
  const __m256i special_b =
      _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(b, backslash), _mm256_cmpeq_epi8(b, quote)),
                      _mm256_cmpeq_epi8(_mm256_min_epu8(b, last_control), b));
  high = _mm256_or_si256(high, _mm256_or_si256(a, b));
  return _mm256_movemask_epi8(_mm256_or_si256(special_a, special_b)) != 0;
}

// The body from `from` on, in 64-byte blocks up to the first with a special byte: the index of
// that block (or of the last whole block's end); `*non_ascii` is set if a skipped byte is.
__attribute__((target("avx2"))) std::size_t skip_plain_avx2(std::string_view body, std::size_t from,
                                                            bool* non_ascii) {
  __m256i high = _mm256_setzero_si256();
  while (from + 64 <= body.size() && !any_special_avx2(body.data() + from, high)) from += 64;
  if (_mm256_movemask_epi8(high) != 0) *non_ascii = true;
  return from;
}
#endif

bool any_special(const char* p, bool* non_ascii) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  __m128i any = _mm_setzero_si128();
  __m128i high = _mm_setzero_si128();
  for (unsigned at = 0; at < 64; at += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    high = _mm_or_si128(high, v);
    any = _mm_or_si128(any, special_bytes(v));
  }
  if (_mm_movemask_epi8(high) != 0) *non_ascii = true;
  return _mm_movemask_epi8(any) != 0;
#else
  for (unsigned i = 0; i < 64; ++i) {
    if (static_cast<unsigned char>(p[i]) >= 0x80) *non_ascii = true;
  }
  return true;
#endif
}

// The index of the first 64-byte block from `from` (a block start) that holds a special byte, or
// the end of the last whole block; sets `*non_ascii` if a skipped byte is not ASCII.
std::size_t skip_plain(std::string_view body, std::size_t from, bool* non_ascii) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return skip_plain_avx2(body, from, non_ascii);
#endif
  while (from + 64 <= body.size() && !any_special(body.data() + from, non_ascii)) from += 64;
  return from;
}

// The backslash, quote and control bits of the 64 bytes at `p`.
BlockBits scan_block(const char* p) {
  BlockBits bits;
#if defined(CLAUDE_HARNESS_X86_SCAN)
  for (unsigned at = 0; at < 64; at += 16) scan16(p + at, at, bits);
#else
  for (unsigned i = 0; i < 64; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    bits.backslash |= std::uint64_t{c == '\\'} << i;
    bits.quote |= std::uint64_t{c == '"'} << i;
    bits.control |= std::uint64_t{c < 0x20} << i;
    bits.high |= std::uint64_t{c >= 0x80} << i;
  }
#endif
  return bits;
}

// Adds the escape code and 'u' bits of the 64 bytes at `p` (needed only where an escape is).
void add_escape_codes(const char* p, BlockBits& bits) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  for (unsigned at = 0; at < 64; at += 16) codes16(p + at, at, bits);
#else
  for (unsigned i = 0; i < 64; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    bits.escape_code |= std::uint64_t{is_escape_code(c)} << i;
    bits.u |= std::uint64_t{c == 'u'} << i;
  }
#endif
}

// Which bytes are escaped (follow an escaping '\') across consecutive 64-byte blocks: in a run of
// backslashes every other one escapes the next byte, counted from the run's start, which may lie
// in an earlier block (simdjson's json_escape_scanner, by subtraction instead of a loop).
class EscapeScanner {
 public:
  // The escaped bytes of the next block, given its backslashes.
  std::uint64_t escaped(std::uint64_t backslash) {
    if (backslash == 0) {
      const std::uint64_t escaped = next_is_escaped_;
      next_is_escaped_ = 0;
      return escaped;
    }
    constexpr std::uint64_t kOddBits = 0xAAAAAAAAAAAAAAAAULL;
    // Backslashes that may start an escape: not themselves escaped by the previous block.
    const std::uint64_t potential_escape = backslash & ~next_is_escaped_;
    // Subtracting the runs from the odd bits turns each run of backslashes into alternate bits
    // counted from its start, and sets the bit of the byte after a run that escapes it.
    const std::uint64_t escape_and_terminal_code =
        (((potential_escape << 1) | kOddBits) - potential_escape) ^ kOddBits;
    const std::uint64_t escaped = escape_and_terminal_code ^ (backslash | next_is_escaped_);
    const std::uint64_t escape = escape_and_terminal_code & backslash;
    next_is_escaped_ = escape >> 63;
    return escaped;
  }
  // Whether the byte after the last block is escaped (a '\' ends the text unpaired).
  [[nodiscard]] bool pending() const { return next_is_escaped_ != 0; }

 private:
  std::uint64_t next_is_escaped_ = 0;
};

// The code unit of the four hex digits at `at`, or nullopt.
std::optional<std::uint32_t> hex_unit(std::string_view text, std::size_t at) {
  if (at + 4 > text.size()) return std::nullopt;
  std::uint32_t unit = 0;
  for (std::size_t i = at; i < at + 4; ++i) {
    const char c = text[i];
    std::uint32_t digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<std::uint32_t>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<std::uint32_t>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<std::uint32_t>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
    unit = unit << 4 | digit;
  }
  return unit;
}

bool is_high_surrogate(std::uint32_t unit) {
  return unit >= 0xD800 && unit <= 0xDBFF;
}

bool is_low_surrogate(std::uint32_t unit) {
  return unit >= 0xDC00 && unit <= 0xDFFF;
}

// Checks the \u escape whose 'u' is at `u`: four hex digits, and a surrogate only as a pair,
// high then low. `paired_low` is the 'u' of the low half a high one announced (else npos).
bool check_unicode_escape(std::string_view body, std::size_t u, std::size_t& paired_low) {
  const auto unit = hex_unit(body, u + 1);
  if (!unit) return false;
  if (is_low_surrogate(*unit)) {
    if (u != paired_low) return false;  // a low surrogate without its high half
    paired_low = std::string_view::npos;
    return true;
  }
  if (!is_high_surrogate(*unit)) return true;
  if (u + 11 > body.size() || body[u + 5] != '\\' || body[u + 6] != 'u') return false;
  const auto low = hex_unit(body, u + 7);
  if (!low || !is_low_surrogate(*low)) return false;
  paired_low = u + 6;
  return true;
}

bool is_json_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::size_t skip_space(std::string_view text, std::size_t at) {
  while (at < text.size() && is_json_space(text[at])) ++at;
  return at;
}

// Writes code point `cp` as UTF-8 at `out`; returns the end.
char* put_utf8(std::uint32_t cp, char* out) {
  if (cp < 0x80) {
    *out++ = static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out++ = static_cast<char>(0xC0 | (cp >> 6));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out++ = static_cast<char>(0xE0 | (cp >> 12));
    *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out++ = static_cast<char>(0xF0 | (cp >> 18));
    *out++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

// The byte a two-character escape stands for, by its code (0: not such an escape; 'u' is not).
constexpr std::array<char, 256> kSimpleEscapes = [] {
  std::array<char, 256> table{};
  table['"'] = '"';
  table['\\'] = '\\';
  table['/'] = '/';
  table['b'] = '\b';
  table['f'] = '\f';
  table['n'] = '\n';
  table['r'] = '\r';
  table['t'] = '\t';
  return table;
}();

// Decodes the escape whose '\' is at `*at` into `*out` and moves both past it; false when it is
// not one is_json_string_body accepts (an unknown code, bad hex digits, a surrogate that is not
// a high-low pair, a '\' that ends the body).
inline bool decode_escape(std::string_view body, std::size_t* at, char** out) {
  const std::size_t i = *at;
  if (i + 1 >= body.size()) return false;
  const auto code = static_cast<unsigned char>(body[i + 1]);
  if (const char simple = kSimpleEscapes[code]; simple != 0) {
    *(*out)++ = simple;
    *at = i + 2;
    return true;
  }
  // The validation's own rule for \uXXXX: a surrogate only as a high-low pair.
  std::size_t low_u = std::string_view::npos;
  if (code != 'u' || !check_unicode_escape(body, i + 1, low_u)) return false;
  std::uint32_t cp = *hex_unit(body, i + 2);
  std::size_t next = i + 6;
  if (low_u != std::string_view::npos) {
    cp = 0x10000 + ((cp - 0xD800) << 10) + (*hex_unit(body, low_u + 1) - 0xDC00);
    next = low_u + 5;
  }
  *out = put_utf8(cp, *out);
  *at = next;
  return true;
}

#if defined(CLAUDE_HARNESS_X86_SCAN)
// For each set of kept bytes of an 8-byte half (bit i: byte i stays), the pshufb indices that
// move them to the front in order; 0x80 (a zero byte) fills the rest.
constexpr std::array<std::uint64_t, 256> kLeftPack = [] {
  std::array<std::uint64_t, 256> table{};
  for (unsigned keep = 0; keep < 256; ++keep) {
    std::uint64_t indices = 0x8080808080808080ULL;
    unsigned slot = 0;
    for (unsigned i = 0; i < 8; ++i) {
      if ((keep >> i & 1U) == 0) continue;
      indices &= ~(std::uint64_t{0xFF} << (8 * slot));
      indices |= std::uint64_t{i} << (8 * slot);
      ++slot;
    }
    table[keep] = indices;
  }
  return table;
}();

// Decodes the 16 bytes `v` into `out` when every '\' among them starts a two-character escape
// that ends among them, other than \\ and \uXXXX (\" \/ \b \f \n \r \t: the escapes of a JSON
// line inside a JSON string), and no other '"' and no control byte is there. Returns the bytes
// written (up to 16 are stored), or -1 when the block is not like that.
__attribute__((target("ssse3,popcnt"))) int decode_simple_escapes(__m128i v, char* out) {
  const __m128i backslash = equal(v, '\\');
  const auto starts = static_cast<unsigned>(_mm_movemask_epi8(backslash));
  // Each '\' escapes the byte after it, which must be a simple code in this block: a run of
  // backslashes (a code '\') and a '\' in the last byte (a code in the next block) fail that test
  // below, and go the byte-wise way.
  const __m128i code_at = _mm_slli_si128(backslash, 1);
  const unsigned codes = starts << 1;
  const __m128i quote = equal(v, '"');
  const __m128i b = equal(v, 'b');
  const __m128i f = equal(v, 'f');
  const __m128i n = equal(v, 'n');
  const __m128i r = equal(v, 'r');
  const __m128i t = equal(v, 't');
  const __m128i simple =
      _mm_or_si128(_mm_or_si128(_mm_or_si128(quote, equal(v, '/')), _mm_or_si128(b, f)),
                   _mm_or_si128(_mm_or_si128(n, r), t));
  if ((static_cast<unsigned>(_mm_movemask_epi8(simple)) & codes) != codes) return -1;
  if ((static_cast<unsigned>(_mm_movemask_epi8(quote)) & ~codes) != 0) return -1;
  if (_mm_movemask_epi8(control_bytes(v)) != 0) return -1;
  // The letters of \b \f \n \r \t become their control bytes.
  __m128i decoded = v;
  const auto replace = [&](__m128i letter, char byte) {
    const __m128i at = _mm_and_si128(letter, code_at);
    decoded = _mm_or_si128(_mm_andnot_si128(at, decoded), _mm_and_si128(at, _mm_set1_epi8(byte)));
  };
  replace(b, '\b');
  replace(f, '\f');
  replace(n, '\n');
  replace(r, '\r');
  replace(t, '\t');
  // Every byte but the backslashes stays, moved to the front of its half, half after half.
  const unsigned keep = ~starts & 0xFFFFU;
  const unsigned low = keep & 0xFFU;
  const unsigned high = keep >> 8;
  const auto indices = [](unsigned half) {
    return _mm_cvtsi64_si128(static_cast<long long>(kLeftPack[half]));
  };
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi8(decoded, indices(low)));
  const int low_bytes = __builtin_popcount(low);
  const __m128i high_indices = _mm_add_epi8(indices(high), _mm_set1_epi8(8));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + low_bytes),
                   _mm_shuffle_epi8(decoded, high_indices));
  return low_bytes + __builtin_popcount(high);
}
#endif

}  // namespace

bool is_json_string_body(std::string_view body) {
  EscapeScanner scanner;
  std::size_t paired_low = std::string_view::npos;
  bool non_ascii = false;
  // The last block is copied into a padded one: the body is not followed by readable bytes.
  char tail[64];
  std::size_t block = 0;
  while (block < body.size()) {
    if (!scanner.pending()) {
      block = skip_plain(body, block, &non_ascii);
      if (block >= body.size()) break;
    }
    const char* p = body.data() + block;
    const std::size_t size = std::min<std::size_t>(64, body.size() - block);
    if (size < 64) {
      std::memset(tail, 'a', sizeof tail);
      std::memcpy(tail, p, size);
      p = tail;
    }
    BlockBits bits = scan_block(p);
    if (bits.high != 0) non_ascii = true;
    const std::uint64_t escaped = scanner.escaped(bits.backslash);
    if ((bits.quote & ~escaped) != 0 || bits.control != 0) return false;
    if (escaped != 0) {
      add_escape_codes(p, bits);
      if ((escaped & ~bits.escape_code) != 0) return false;
      for (std::uint64_t u = escaped & bits.u; u != 0; u &= u - 1) {
        const std::size_t at = block + static_cast<std::size_t>(__builtin_ctzll(u));
        if (!check_unicode_escape(body, at, paired_low)) return false;
      }
    }
    block += 64;
  }
  // A '\' that escapes the closing quote: the string does not end there.
  if (scanner.pending()) return false;
  return !non_ascii || simdjson::validate_utf8(body.data(), body.size());
}

std::optional<std::string> decode_json_string_body(std::string_view body) {
  // Nothing decodes to more bytes than its escaped form, so the output never passes the input.
  std::string decoded(body.size(), '\0');
  char* out = decoded.data();
  std::size_t at = 0;
  bool non_ascii = false;
#if defined(CLAUDE_HARNESS_X86_SCAN)
  // 16 bytes at a time: plain ones are copied whole, a block of an embedded JSON line's escapes
  // is decoded whole (decode_simple_escapes), and any other block is copied up to its first '\',
  // '"' or control byte, where only an escape may be.
  static const bool ssse3 = __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("popcnt");
  __m128i high = _mm_setzero_si128();
  while (body.size() - at >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(body.data() + at));
    high = _mm_or_si128(high, v);
    const auto stops = static_cast<unsigned>(_mm_movemask_epi8(special_bytes(v)));
    if (stops == 0) {
      // Past 16 plain bytes a long run is likely (a message's text): skip it 64 bytes at a time
      // and copy it in one go.
      const std::size_t run_end = skip_plain(body, at + 16, &non_ascii);
      std::memcpy(out, body.data() + at, run_end - at);
      out += run_end - at;
      at = run_end;
      continue;
    }
    if (ssse3) {
      if (const int written = decode_simple_escapes(v, out); written >= 0) {
        at += 16;
        out += written;
        continue;
      }
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), v);
    const auto plain = static_cast<std::size_t>(__builtin_ctz(stops));
    out += plain;
    at += plain;
    if (body[at] != '\\' || !decode_escape(body, &at, &out)) return std::nullopt;
  }
  non_ascii = non_ascii || _mm_movemask_epi8(high) != 0;
#endif
  while (at < body.size()) {
    const auto c = static_cast<unsigned char>(body[at]);
    if (c == '\\') {
      if (!decode_escape(body, &at, &out)) return std::nullopt;
      continue;
    }
    if (c == '"' || c < 0x20) return std::nullopt;
    non_ascii = non_ascii || c >= 0x80;
    *out++ = static_cast<char>(c);
    ++at;
  }
  if (non_ascii && !simdjson::validate_utf8(body.data(), body.size())) return std::nullopt;
  decoded.resize(static_cast<std::size_t>(out - decoded.data()));
  return decoded;
}

std::optional<EscapedStringLine> match_escaped_string_line(std::string_view line) {
  std::size_t at = skip_space(line, 0);
  if (at >= line.size() || line[at] != '{') return std::nullopt;
  at = skip_space(line, at + 1);
  std::string_view key;
  for (const std::string_view candidate : {std::string_view("raw"), std::string_view("stderr")}) {
    if (line.size() - at >= candidate.size() + 2 && line[at] == '"' &&
        line.substr(at + 1, candidate.size()) == candidate &&
        line[at + 1 + candidate.size()] == '"') {
      key = candidate;  // not a view into the line: its page may be released
      break;
    }
  }
  if (key.empty()) return std::nullopt;
  at = skip_space(line, at + key.size() + 2);
  if (at >= line.size() || line[at] != ':') return std::nullopt;
  at = skip_space(line, at + 1);
  if (at >= line.size() || line[at] != '"') return std::nullopt;
  const std::size_t open = at;
  // The closing quote is the last one, before the closing brace and trailing whitespace.
  std::size_t end = line.size();
  while (end > open && is_json_space(line[end - 1])) --end;
  if (end <= open || line[end - 1] != '}') return std::nullopt;
  --end;
  while (end > open && is_json_space(line[end - 1])) --end;
  if (end <= open + 1 || line[end - 1] != '"') return std::nullopt;
  const std::string_view literal = line.substr(open + 1, end - 1 - (open + 1));
  if (!is_json_string_body(literal)) return std::nullopt;
  return EscapedStringLine{key, literal};
}

}  // namespace claude::emulator::detail
