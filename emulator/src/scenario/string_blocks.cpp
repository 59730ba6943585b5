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

// ---- AVX-512 (BW, VBMI, VBMI2) ----

#define CLAUDE_HARNESS_AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2")))

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

// Each byte of `v` looked up in kEscapeTable by its low 7 bits (a byte of 0x80 or above gets the
// entry of its low bits: mask it out with the `high` bits).
CLAUDE_HARNESS_AVX512 __m512i escape_lookup(__m512i v) {
  const __m512i low = _mm512_load_si512(kEscapeTable.bytes.data());
  const __m512i upper = _mm512_load_si512(kEscapeTable.bytes.data() + 64);
  return _mm512_permutex2var_epi8(low, v, upper);
}

CLAUDE_HARNESS_AVX512 std::uint64_t special_bits(__m512i v) {
  return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\')) |
         _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"')) |
         _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
}

CLAUDE_HARNESS_AVX512 BlockBits scan_block_avx512(const char* p) {
  const __m512i v = _mm512_loadu_si512(p);
  BlockBits bits;
  bits.backslash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
  bits.quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
  bits.control = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
  bits.high = _mm512_movepi8_mask(v);
  return bits;
}

CLAUDE_HARNESS_AVX512 void add_escape_codes_avx512(const char* p, BlockBits& bits) {
  const __m512i v = _mm512_loadu_si512(p);
  const __m512i lookup = escape_lookup(v);
  bits.escape_code = _mm512_test_epi8_mask(lookup, lookup) & ~bits.high;
  bits.u = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('u'));
}

CLAUDE_HARNESS_AVX512 std::size_t skip_plain_avx512(std::string_view body, std::size_t from,
                                                    bool* non_ascii) {
  __m512i high = _mm512_setzero_si512();
  for (; from + 64 <= body.size(); from += 64) {
    const __m512i v = _mm512_loadu_si512(body.data() + from);
    if (special_bits(v) != 0) break;
    high = _mm512_or_si512(high, v);
  }
  if (_mm512_movepi8_mask(high) != 0) *non_ascii = true;
  return from;
}

CLAUDE_HARNESS_AVX512 BlockDecode decode_block_avx512(const char* p, BlockBits bits, char* out) {
  const __m512i v = _mm512_loadu_si512(p);
  const __m512i lookup = escape_lookup(v);
  bits.escape_code = _mm512_test_epi8_mask(lookup, lookup) & ~bits.high;
  bits.u = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('u'));
  const auto check = check_escapes(bits, EscapeScanner().escaped(bits.backslash));
  if (check.outcome != BlockDecode::Outcome::decoded) return {check.outcome};
  const std::uint64_t starts = bits.backslash & ~check.escaped;
  const __m512i decoded = _mm512_mask_blend_epi8(check.escaped, v, lookup);
  _mm512_storeu_si512(out, _mm512_maskz_compress_epi8(~starts, decoded));
  return {BlockDecode::Outcome::decoded, starts >> 63 != 0 ? 63U : 64U,
          static_cast<std::size_t>(__builtin_popcountll(~starts))};
}
#endif

}  // namespace

StringScan usable_scan(StringScan wanted) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  static const bool avx512 = __builtin_cpu_supports("avx512bw") &&
                             __builtin_cpu_supports("avx512vbmi") &&
                             __builtin_cpu_supports("avx512vbmi2");
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

BlockBits scan_block(const char* p, StringScan scan) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  if (scan == StringScan::avx512) return scan_block_avx512(p);
  if (scan == StringScan::sse) return scan_block_sse(p);
#endif
  (void)scan;
  return scan_block_portable(p);
}

void add_escape_codes(const char* p, StringScan scan, BlockBits& bits) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  if (scan == StringScan::avx512) return add_escape_codes_avx512(p, bits);
  if (scan == StringScan::sse) return add_escape_codes_sse(p, bits);
#endif
  (void)scan;
  add_escape_codes_portable(p, bits);
}

std::size_t skip_plain(std::string_view body, std::size_t from, StringScan scan, bool* non_ascii) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  if (scan == StringScan::avx512) return skip_plain_avx512(body, from, non_ascii);
  if (scan == StringScan::sse) return skip_plain_sse(body, from, non_ascii);
#endif
  (void)scan;
  return skip_plain_portable(body, from, non_ascii);
}

char simple_escape(unsigned char code) {
  return kSimpleEscapes[code];
}

BlockDecode decode_block(const char* p, const BlockBits& bits, StringScan scan, char* out) {
#if defined(CLAUDE_HARNESS_X86_SCAN)
  if (scan == StringScan::avx512) return decode_block_avx512(p, bits, out);
  if (scan == StringScan::sse) return decode_block_sse(p, bits, out);
#endif
  (void)scan;
  return decode_block_portable(p, bits, out);
}

}  // namespace claude::emulator::detail
