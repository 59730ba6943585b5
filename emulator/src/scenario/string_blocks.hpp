// The 64-byte blocks of a JSON string's body (the bytes between its quotes), scanned and decoded
// with the widest vector instructions the CPU has: the kernels under is_json_string_body and
// decode_json_string_body (escaped_string_line.hpp).
//
// How it fails: it does not. A block is scanned into bit masks; what they mean (a bad escape, a
// control byte) is the caller's to judge, and decode_block says when it could not decode.
//
// What it costs: per 64 bytes, one load and about ten compares with AVX-512 (AVX-512 BW, VBMI and
// VBMI2); with SSE/SSSE3 (AVX2 for runs of plain bytes) about four times that; portable code goes
// byte by byte. The CPU is asked once per process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace claude::emulator::detail {

// The instructions a scan uses. `fastest` is the best this CPU runs; the others pin one set, so
// that tests hold every set to the same answers (a set the CPU lacks falls to the next below).
enum class StringScan { fastest, avx512, sse, portable };

// `wanted`, or the best set below it that this CPU (and this build) runs.
StringScan usable_scan(StringScan wanted);

// The bytes of a 64-byte block that matter to a JSON string, one bit per byte.
struct BlockBits {
  std::uint64_t backslash = 0;
  std::uint64_t quote = 0;
  std::uint64_t control = 0;      // below 0x20
  std::uint64_t high = 0;         // 0x80 and above (not ASCII)
  std::uint64_t escape_code = 0;  // one of " \ / b f n r t u (add_escape_codes)
  std::uint64_t u = 0;            // 'u' (add_escape_codes)
};

// The backslash, quote, control and high bits of the 64 bytes at `p`; `scan` is usable_scan's.
BlockBits scan_block(const char* p, StringScan scan);

// Adds the escape code and 'u' bits of the 64 bytes at `p` (needed only where an escape is).
void add_escape_codes(const char* p, StringScan scan, BlockBits& bits);

// The index of the first 64-byte block from `from` that holds a '\', '"' or control byte, or the
// end of the last whole block; sets `*non_ascii` if a skipped byte is not ASCII.
std::size_t skip_plain(std::string_view body, std::size_t from, StringScan scan, bool* non_ascii);

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

// The byte a two-character escape stands for, by its code (0: not such an escape; 'u' is not).
char simple_escape(unsigned char code);

struct BlockDecode {
  enum class Outcome { decoded, invalid, unicode_escape };
  Outcome outcome = Outcome::invalid;
  std::size_t read = 0;     // 64, or 63 when the block's last byte starts an escape
  std::size_t written = 0;  // bytes stored at out
};

// Decodes the 64-byte block at `p` (its bits from scan_block), which no escape before it reaches
// into, to `out`, when its escapes are two-character ones (\" \\ \/ \b \f \n \r \t: a JSON line
// inside a JSON string, and such a string inside another): each escaping '\' is dropped and each
// escaped code replaced by the byte it stands for. A '\' in the last byte that starts an escape is
// left for the next block (read is 63). `invalid` when the block breaks a rule of
// is_json_string_body other than UTF-8's; a \uXXXX escape is left to the caller
// (`unicode_escape`). Stores up to 64 bytes at `out` whatever it writes.
BlockDecode decode_block(const char* p, const BlockBits& bits, StringScan scan, char* out);

}  // namespace claude::emulator::detail
