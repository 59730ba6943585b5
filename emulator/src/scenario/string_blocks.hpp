// The 64-byte blocks of a JSON string's body (the bytes between its quotes), scanned and decoded
// with the widest vector instructions the CPU has: the kernels under is_json_string_body and
// decode_json_string_body (escaped_string_line.hpp).
//
// How it fails: it does not; it says where a body breaks a rule, and the caller decides.
//
// What it costs: per 64 bytes, one load and a few compares with AVX-512 (BW, VBMI and VBMI2), in
// one loop with no call per block; with SSE/SSSE3 (AVX2 for runs of plain bytes) about four times
// the instructions, through a call per block; portable code goes byte by byte. The CPU is asked
// once per process.
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

// The byte a two-character escape stands for, by its code (0: not such an escape; 'u' is not).
char simple_escape(unsigned char code);

// Checks the \uXXXX escape whose 'u' is at `u` of `body`; `paired_low` carries the 'u' of the low
// half a high surrogate announced from one call to the next (npos when none).
using UnicodeEscapeCheck = bool (*)(std::string_view body, std::size_t u, std::size_t& paired_low);

// Whether `body` keeps every rule of is_json_string_body but UTF-8's: no control byte, no
// unescaped '"', every escape one of \" \\ \/ \b \f \n \r \t \uXXXX (each \u escape judged by
// `check_unicode`, in order), no '\' unpaired at the end. Sets `*non_ascii` when a byte is not
// ASCII (the caller then validates UTF-8).
bool check_string_body(std::string_view body, StringScan scan, UnicodeEscapeCheck check_unicode,
                       bool* non_ascii);

// Why decode_run stopped.
enum class RunEnd {
  tail,            // fewer than 64 bytes are left from `at`
  unicode_escape,  // the 64 bytes at `at` hold a \uXXXX escape (left to the caller)
  invalid,         // the 64 bytes at `at` break a rule of check_string_body
};

// Decodes `body` from `at`, which no escape before it reaches into, to `out`, 64 bytes at a time,
// while its escapes are two-character ones (\" \\ \/ \b \f \n \r \t: a JSON line inside a JSON
// string, and such a string inside another): each escaping '\' dropped and each escaped code
// replaced by the byte it stands for. Moves `at` and `out` past what it decoded, and stops where
// RunEnd says, always at a place no escape spans. Stores up to 64 bytes past `out` as it goes:
// `out` must have as many bytes of room as `body` has from `at`. Sets `non_ascii` as above.
RunEnd decode_run(std::string_view body, StringScan scan, std::size_t& at, char*& out,
                  bool& non_ascii);

}  // namespace claude::emulator::detail
