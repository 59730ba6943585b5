#include "string_blocks.hpp"

#include <array>
#include <cstring>

// x86-64 scans with vector instructions chosen at run time; other targets (or a build with
// CLAUDE_HARNESS_PORTABLE_SCAN) with portable code only.
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
  std::uint64_t high = 0;         // 0x80 and above (not ASCII)
  std::uint64_t escape_code = 0;  // one of " \ / b f n r t u (add_escape_codes)
  std::uint64_t u = 0;            // 'u' (add_escape_codes)
};

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

struct BlockDecode {
  enum class Outcome { decoded, invalid, unicode_escape };
  Outcome outcome = Outcome::invalid;
  std::size_t read = 0;     // 64, or 63 when the block's last byte starts an escape
  std::size_t written = 0;  // bytes stored at out
};

// The byte each two-character escape code stands for; 0 for any other byte.
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

bool is_escape_code(unsigned char c) {
  return kSimpleEscapes[c] != 0 || c == 'u';
}

BlockBits scan_block_portable(const char* p) {
  BlockBits bits;
  for (unsigned i = 0; i < 64; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    bits.backslash |= std::uint64_t{c == '\\'} << i;
    bits.quote |= std::uint64_t{c == '"'} << i;
    bits.control |= std::uint64_t{c < 0x20} << i;
    bits.high |= std::uint64_t{c >= 0x80} << i;
  }
  return bits;
}

void add_escape_codes_portable(const char* p, BlockBits& bits) {
  for (unsigned i = 0; i < 64; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    bits.escape_code |= std::uint64_t{is_escape_code(c)} << i;
    bits.u |= std::uint64_t{c == 'u'} << i;
  }
}

std::size_t skip_plain_portable(std::string_view body, std::size_t from, bool* non_ascii) {
  for (; from + 64 <= body.size(); from += 64) {
    const BlockBits bits = scan_block_portable(body.data() + from);
    if ((bits.backslash | bits.quote | bits.control) != 0) break;
    if (bits.high != 0) *non_ascii = true;
  }
  return from;
}

// The checks every kernel makes before it decodes a block; the escaped bytes when it may.
struct EscapeCheck {
  BlockDecode::Outcome outcome;
  std::uint64_t escaped;
};

EscapeCheck check_escapes(const BlockBits& bits, std::uint64_t escaped) {
  if ((bits.quote & ~escaped) != 0 || bits.control != 0) return {BlockDecode::Outcome::invalid, 0};
  if ((escaped & ~bits.escape_code) != 0) return {BlockDecode::Outcome::invalid, 0};
  if ((escaped & bits.u) != 0) return {BlockDecode::Outcome::unicode_escape, 0};
  return {BlockDecode::Outcome::decoded, escaped};
}

// The escapes of a block at `block` of `body` whose escape code bits are known: each a valid
// code, each \u escape as `check_unicode` says (paired_low carried from block to block).
bool escapes_valid(const BlockBits& bits, std::uint64_t escaped, std::string_view body,
                   std::size_t block, UnicodeEscapeCheck check_unicode, std::size_t& paired_low) {
  if ((escaped & ~bits.escape_code) != 0) return false;
  for (std::uint64_t u = escaped & bits.u; u != 0; u &= u - 1) {
    const std::size_t at = block + static_cast<std::size_t>(__builtin_ctzll(u));
    if (!check_unicode(body, at, paired_low)) return false;
  }
  return true;
}

BlockDecode decode_block_portable(const char* p, BlockBits bits, char* out) {
  add_escape_codes_portable(p, bits);
  const auto check = check_escapes(bits, EscapeScanner().escaped(bits.backslash));
  if (check.outcome != BlockDecode::Outcome::decoded) return {check.outcome};
  const std::uint64_t starts = bits.backslash & ~check.escaped;
  BlockDecode done{BlockDecode::Outcome::decoded, starts >> 63 != 0 ? 63U : 64U, 0};
  for (unsigned i = 0; i < 64; ++i) {
    if ((starts >> i & 1U) != 0) continue;
    const auto c = static_cast<unsigned char>(p[i]);
    out[done.written++] = (check.escaped >> i & 1U) != 0 ? kSimpleEscapes[c] : static_cast<char>(c);
  }
  return done;
}

#if defined(CLAUDE_HARNESS_X86_SCAN)
// ---- SSE2 scans, SSSE3 decode, AVX2 runs of plain bytes ----

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

BlockBits scan_block_sse(const char* p) {
  BlockBits bits;
  for (unsigned at = 0; at < 64; at += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    bits.backslash |= bits16(equal(v, '\\')) << at;
    bits.quote |= bits16(equal(v, '"')) << at;
    bits.control |= bits16(control_bytes(v)) << at;
    bits.high |= bits16(v) << at;
  }
  return bits;
}

void add_escape_codes_sse(const char* p, BlockBits& bits) {
  for (unsigned at = 0; at < 64; at += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    const __m128i u = equal(v, 'u');
    const __m128i codes =
        _mm_or_si128(_mm_or_si128(_mm_or_si128(equal(v, '"'), equal(v, '\\')),
                                  _mm_or_si128(equal(v, '/'), equal(v, 'b'))),
                     _mm_or_si128(_mm_or_si128(equal(v, 'f'), equal(v, 'n')),
                                  _mm_or_si128(_mm_or_si128(equal(v, 'r'), equal(v, 't')), u)));
    bits.escape_code |= bits16(codes) << at;
    bits.u |= bits16(u) << at;
  }
}

// Whether any of the 64 bytes at `p` is '\', '"' or a control byte; ORs them into `high` (its top
// bits then tell whether a byte is not ASCII).
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

__attribute__((target("avx2"))) std::size_t skip_plain_avx2(std::string_view body, std::size_t from,
                                                            bool* non_ascii) {
  __m256i high = _mm256_setzero_si256();
  while (from + 64 <= body.size() && !any_special_avx2(body.data() + from, high)) from += 64;
  if (_mm256_movemask_epi8(high) != 0) *non_ascii = true;
  return from;
}

std::size_t skip_plain_sse(std::string_view body, std::size_t from, bool* non_ascii) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return skip_plain_avx2(body, from, non_ascii);
  for (; from + 64 <= body.size(); from += 64) {
    const BlockBits bits = scan_block_sse(body.data() + from);
    if ((bits.backslash | bits.quote | bits.control) != 0) break;
    if (bits.high != 0) *non_ascii = true;
  }
  return from;
}

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

// Writes the bytes of `v` whose bit is set in `keep` to `out`, in order; returns how many.
// Stores 16 bytes whatever `keep` is.
__attribute__((target("ssse3,popcnt"))) unsigned left_pack(__m128i v, unsigned keep, char* out) {
  const unsigned low = keep & 0xFFU;
  const unsigned high = keep >> 8 & 0xFFU;
  const auto indices = [](unsigned half) {
    return _mm_cvtsi64_si128(static_cast<long long>(kLeftPack[half]));
  };
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_shuffle_epi8(v, indices(low)));
  const auto low_bytes = static_cast<unsigned>(__builtin_popcount(low));
  const __m128i high_indices = _mm_add_epi8(indices(high), _mm_set1_epi8(8));
  _mm_storel_epi64(reinterpret_cast<__m128i*>(out + low_bytes), _mm_shuffle_epi8(v, high_indices));
  return low_bytes + static_cast<unsigned>(__builtin_popcount(high));
}

// A 16-byte mask with byte i set when bit i of `bits` is.
__attribute__((target("ssse3"))) __m128i byte_mask(unsigned bits) {
  const __m128i bit_of_byte =
      _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
  const __m128i low_then_high = _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1);
  const __m128i spread = _mm_shuffle_epi8(_mm_set1_epi16(static_cast<short>(bits)), low_then_high);
  return _mm_cmpeq_epi8(_mm_and_si128(spread, bit_of_byte), bit_of_byte);
}

// The 16 bytes `v` with each escaped letter of \b \f \n \r \t (bit set in `escaped`) turned
// into its control byte; the other escaped codes (" \ /) stand for themselves.
__attribute__((target("ssse3"))) __m128i replace_escape_letters(__m128i v, unsigned escaped) {
  const __m128i code_at = byte_mask(escaped);
  const auto replace = [&](char letter, char byte) {
    const __m128i at = _mm_and_si128(equal(v, letter), code_at);
    v = _mm_or_si128(_mm_andnot_si128(at, v), _mm_and_si128(at, _mm_set1_epi8(byte)));
  };
  replace('b', '\b');
  replace('f', '\f');
  replace('n', '\n');
  replace('r', '\r');
  replace('t', '\t');
  return v;
}

__attribute__((target("ssse3,popcnt"))) BlockDecode decode_block_sse(const char* p, BlockBits bits,
                                                                     char* out) {
  add_escape_codes_sse(p, bits);
  const auto check = check_escapes(bits, EscapeScanner().escaped(bits.backslash));
  if (check.outcome != BlockDecode::Outcome::decoded) return {check.outcome};
  const std::uint64_t starts = bits.backslash & ~check.escaped;
  BlockDecode done{BlockDecode::Outcome::decoded, starts >> 63 != 0 ? 63U : 64U, 0};
  for (unsigned at = 0; at < 64; at += 16) {
    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    const auto dropped = static_cast<unsigned>(starts >> at & 0xFFFFU);
    // An escape's code may sit in the 16 bytes after its '\'.
    const auto codes = static_cast<unsigned>(check.escaped >> at & 0xFFFFU);
    if ((dropped | codes) == 0) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + done.written), v);
      done.written += 16;
      continue;
    }
    if (codes != 0) v = replace_escape_letters(v, codes);
    done.written += left_pack(v, ~dropped & 0xFFFFU, out + done.written);
  }
  return done;
}

// ---- AVX-512 (BW, VBMI, VBMI2): whole runs of blocks in one function, no call per block ----

#define CLAUDE_HARNESS_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")))

// kSimpleEscapes for the 128 ASCII bytes, with 'u' marked too, as two vectors for vpermi2b.
struct alignas(64) EscapeTable {
  std::array<char, 128> bytes;
};
constexpr EscapeTable kEscapeTable = [] {
  EscapeTable table{};
  for (unsigned c = 0; c < 128; ++c) table.bytes[c] = kSimpleEscapes[c];
  table.bytes['u'] = 'u';
  return table;
}();

struct Avx512Constants {
  __m512i backslash;
  __m512i quote;
  __m512i space;
  __m512i u;
  __m512i table_low;  // kEscapeTable, looked up by a byte's low 7 bits (vpermi2b)
  __m512i table_high;
};

CLAUDE_HARNESS_AVX512 Avx512Constants avx512_constants() {
  return {_mm512_set1_epi8('\\'),
          _mm512_set1_epi8('"'),
          _mm512_set1_epi8(0x20),
          _mm512_set1_epi8('u'),
          _mm512_load_si512(kEscapeTable.bytes.data()),
          _mm512_load_si512(kEscapeTable.bytes.data() + 64)};
}

// kEscapeTable looked up for each byte of `v` (the byte an escaped code stands for, or 0).
CLAUDE_HARNESS_AVX512 __m512i escape_lookup_avx512(__m512i v, const Avx512Constants& k) {
  return _mm512_permutex2var_epi8(k.table_low, v, k.table_high);
}

// The escape code bits of `v`, from its `lookup`: non-zero entries, no byte of 0x80 or above.
CLAUDE_HARNESS_AVX512 std::uint64_t escape_codes_avx512(__m512i v, __m512i lookup) {
  return _mm512_test_epi8_mask(lookup, lookup) & ~_mm512_movepi8_mask(v);
}

CLAUDE_HARNESS_AVX512 bool check_body_avx512(std::string_view body,
                                             UnicodeEscapeCheck check_unicode, bool* non_ascii) {
  const Avx512Constants k = avx512_constants();
  EscapeScanner scanner;
  std::size_t paired_low = std::string_view::npos;
  __m512i high = _mm512_setzero_si512();
  for (std::size_t block = 0; block < body.size(); block += 64) {
    const std::size_t left = body.size() - block;
    // The last block is loaded under a mask (no byte past the body is read) over plain 'a's.
    const __m512i v =
        left >= 64 ? _mm512_loadu_si512(body.data() + block)
                   : _mm512_mask_loadu_epi8(_mm512_set1_epi8('a'), (std::uint64_t{1} << left) - 1,
                                            body.data() + block);
    high = _mm512_or_si512(high, v);
    const std::uint64_t backslash = _mm512_cmpeq_epi8_mask(v, k.backslash);
    const std::uint64_t quote = _mm512_cmpeq_epi8_mask(v, k.quote);
    const std::uint64_t control = _mm512_cmplt_epu8_mask(v, k.space);
    if ((backslash | quote | control) == 0 && !scanner.pending()) continue;
    const std::uint64_t escaped = scanner.escaped(backslash);
    if ((quote & ~escaped) != 0 || control != 0) return false;
    if (escaped == 0) continue;
    BlockBits bits;
    bits.escape_code = escape_codes_avx512(v, escape_lookup_avx512(v, k));
    bits.u = _mm512_cmpeq_epi8_mask(v, k.u);
    if (!escapes_valid(bits, escaped, body, block, check_unicode, paired_low)) return false;
  }
  if (_mm512_movepi8_mask(high) != 0) *non_ascii = true;
  return !scanner.pending();
}

CLAUDE_HARNESS_AVX512 RunEnd decode_run_avx512(std::string_view body, std::size_t& at, char*& out,
                                               bool& non_ascii) {
  const Avx512Constants k = avx512_constants();
  __m512i high = _mm512_setzero_si512();
  RunEnd end = RunEnd::tail;
  while (body.size() - at >= 64) {
    const __m512i v = _mm512_loadu_si512(body.data() + at);
    const std::uint64_t backslash = _mm512_cmpeq_epi8_mask(v, k.backslash);
    const std::uint64_t quote = _mm512_cmpeq_epi8_mask(v, k.quote);
    const std::uint64_t control = _mm512_cmplt_epu8_mask(v, k.space);
    if ((backslash | quote | control) == 0) {
      high = _mm512_or_si512(high, v);
      _mm512_storeu_si512(out, v);
      out += 64;
      at += 64;
      continue;
    }
    const __m512i lookup = escape_lookup_avx512(v, k);
    BlockBits bits;
    bits.backslash = backslash;
    bits.quote = quote;
    bits.control = control;
    bits.escape_code = escape_codes_avx512(v, lookup);
    bits.u = _mm512_cmpeq_epi8_mask(v, k.u);
    // The block starts where no escape reaches into it, so its escapes are its own.
    const auto check = check_escapes(bits, EscapeScanner().escaped(backslash));
    if (check.outcome != BlockDecode::Outcome::decoded) {
      end =
          check.outcome == BlockDecode::Outcome::invalid ? RunEnd::invalid : RunEnd::unicode_escape;
      break;
    }
    high = _mm512_or_si512(high, v);
    // Each escaping '\' dropped, each escaped code replaced by the byte it stands for; a '\' in
    // the last byte that starts an escape is left for the next block.
    const std::uint64_t escaped = check.escaped;
    const std::uint64_t starts = backslash & ~escaped;
    const __m512i decoded = _mm512_mask_blend_epi8(escaped, v, lookup);
    _mm512_storeu_si512(out, _mm512_maskz_compress_epi8(~starts, decoded));
    out += __builtin_popcountll(~starts);
    at += starts >> 63 != 0 ? 63 : 64;
  }
  if (_mm512_movepi8_mask(high) != 0) non_ascii = true;
  return end;
}

#endif

// ---- every scan: the block loops, each block through the kernel's functions ----

// The backslash, quote, control and high bits of the 64 bytes at `p`.
BlockBits scan_block(const char* p, StringScan scan) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  if (scan == StringScan::sse) return scan_block_sse(p);
#endif
  (void)scan;
  return scan_block_portable(p);
}

// Adds the escape code and 'u' bits of the 64 bytes at `p` (needed only where an escape is).
void add_escape_codes(const char* p, StringScan scan, BlockBits& bits) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  if (scan == StringScan::sse) return add_escape_codes_sse(p, bits);
#endif
  (void)scan;
  add_escape_codes_portable(p, bits);
}

// The index of the first 64-byte block from `from` that holds a '\', '"' or control byte, or the
// end of the last whole block; sets `*non_ascii` if a skipped byte is not ASCII.
std::size_t skip_plain(std::string_view body, std::size_t from, StringScan scan, bool* non_ascii) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  if (scan == StringScan::sse) return skip_plain_sse(body, from, non_ascii);
#endif
  (void)scan;
  return skip_plain_portable(body, from, non_ascii);
}

// Decodes the 64-byte block at `p` (its bits from scan_block), which no escape before it reaches
// into, to `out`, when its escapes are two-character ones (\" \\ \/ \b \f \n \r \t: a JSON line
// inside a JSON string, and such a string inside another): each escaping '\' is dropped and each
// escaped code replaced by the byte it stands for. A '\' in the last byte that starts an escape is
// left for the next block (read is 63). `invalid` when the block breaks a rule of
// is_json_string_body other than UTF-8's; a \uXXXX escape is left to the caller
// (`unicode_escape`). Stores up to 64 bytes at `out` whatever it writes.
BlockDecode decode_block(const char* p, const BlockBits& bits, StringScan scan, char* out) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  if (scan == StringScan::sse) return decode_block_sse(p, bits, out);
#endif
  (void)scan;
  return decode_block_portable(p, bits, out);
}

bool check_body_blocks(std::string_view body, StringScan scan, UnicodeEscapeCheck check_unicode,
                       bool* non_ascii) {
  EscapeScanner scanner;
  std::size_t paired_low = std::string_view::npos;
  // The last block is copied into a padded one: the body is not followed by readable bytes.
  char tail[64];
  std::size_t block = 0;
  while (block < body.size()) {
    const char* p = body.data() + block;
    const std::size_t size = std::min<std::size_t>(64, body.size() - block);
    if (size < 64) {
      std::memset(tail, 'a', sizeof tail);
      std::memcpy(tail, p, size);
      p = tail;
    }
    BlockBits bits = scan_block(p, scan);
    if (bits.high != 0) *non_ascii = true;
    if ((bits.backslash | bits.quote | bits.control) == 0 && !scanner.pending()) {
      // A plain block likely starts a run (a message's text): skip the rest of it in one call.
      block = skip_plain(body, block + 64, scan, non_ascii);
      continue;
    }
    const std::uint64_t escaped = scanner.escaped(bits.backslash);
    if ((bits.quote & ~escaped) != 0 || bits.control != 0) return false;
    if (escaped != 0) {
      add_escape_codes(p, scan, bits);
      if (!escapes_valid(bits, escaped, body, block, check_unicode, paired_low)) return false;
    }
    block += 64;
  }
  // A '\' that escapes the closing quote: the string does not end there.
  return !scanner.pending();
}

RunEnd decode_run_blocks(std::string_view body, StringScan scan, std::size_t& at, char*& out,
                         bool& non_ascii) {
  while (body.size() - at >= 64) {
    const char* p = body.data() + at;
    const BlockBits bits = scan_block(p, scan);
    if (bits.high != 0) non_ascii = true;
    if ((bits.backslash | bits.quote | bits.control) == 0) {
      const std::size_t run_end = skip_plain(body, at + 64, scan, &non_ascii);
      std::memcpy(out, p, run_end - at);
      out += run_end - at;
      at = run_end;
      continue;
    }
    const BlockDecode block = decode_block(p, bits, scan, out);
    if (block.outcome == BlockDecode::Outcome::invalid) return RunEnd::invalid;
    if (block.outcome == BlockDecode::Outcome::unicode_escape) return RunEnd::unicode_escape;
    at += block.read;
    out += block.written;
  }
  return RunEnd::tail;
}

}  // namespace

StringScan usable_scan(StringScan wanted) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  static const bool avx512 =
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi") &&
      __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("popcnt");
  static const bool sse = __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("popcnt");
  if ((wanted == StringScan::fastest || wanted == StringScan::avx512) && avx512) {
    return StringScan::avx512;
  }
  if (wanted != StringScan::portable && sse) return StringScan::sse;
#else
  (void)wanted;
#endif
  return StringScan::portable;
}

char simple_escape(unsigned char code) {
  return kSimpleEscapes[code];
}

bool check_string_body(std::string_view body, StringScan scan, UnicodeEscapeCheck check_unicode,
                       bool* non_ascii) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  if (scan == StringScan::avx512) return check_body_avx512(body, check_unicode, non_ascii);
#endif
  return check_body_blocks(body, scan, check_unicode, non_ascii);
}

RunEnd decode_run(std::string_view body, StringScan scan, std::size_t& at, char*& out,
                  bool& non_ascii) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  if (scan == StringScan::avx512) return decode_run_avx512(body, at, out, non_ascii);
#endif
  return decode_run_blocks(body, scan, at, out, non_ascii);
}

}  // namespace claude::emulator::detail
