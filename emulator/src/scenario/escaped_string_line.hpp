// Recognises the commonest line of a large scenario, one `raw` or `stderr` string such as
// {"raw":"{\"type\":…}\n"}, and validates its string without a JSON parser: no DOM, no copy.
// When the step is written, decode_json_string_body decodes the string, again without a parser.
//
// What it is for: a replay of tens of MiB is almost only such lines, and a full parse of each
// (simdjson stage 1 and 2, then the decoded string thrown away, since the string stays escaped in
// the file until its step is written) was most of fake-claude's start-up; a DOM parse to decode
// it was a quarter of fake-claude's CPU during the replay.
//
// How it fails: it does not; it answers "no" for any line it is not sure about (another shape,
// an escaped key, a bad string), and the caller then parses the line with parse_json_line, which
// gives the step or the error exactly as before. It accepts only lines that parse_json_line
// accepts as a JsonStringMember with the same key and literal.
//
// What it costs: one UTF-8 validation (simdjson::validate_utf8) when a byte is not ASCII, and one
// vector scan of the string's 64-byte blocks (string_blocks.hpp); only \uXXXX escapes are then
// checked byte by byte.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "string_blocks.hpp"

namespace claude::emulator::detail {

struct EscapedStringLine {
  std::string_view key;      // "raw" or "stderr" (static text, not a view into the line)
  std::string_view literal;  // the bytes between the string's quotes, escapes undecoded
};

// `line` (JSON whitespace allowed around every token) when it is an object with the single member
// "raw" or "stderr", its key written without escapes, whose value is a valid JSON string; nullopt
// otherwise.
std::optional<EscapedStringLine> match_escaped_string_line(std::string_view line);

// Whether `body` is the inside of a valid JSON string: valid UTF-8, no byte below 0x20, no
// unescaped '"', every escape one of \" \\ \/ \b \f \n \r \t \uXXXX, a high surrogate escape
// followed by a low surrogate escape, no lone low surrogate.
bool is_json_string_body(std::string_view body, StringScan scan = StringScan::fastest);

// The bytes `body` stands for when is_json_string_body(body) holds, nullopt otherwise: the same
// bytes simdjson decodes (escapes replaced, \uXXXX and surrogate pairs written as UTF-8), found
// without a JSON parser. Costs one pass over 64-byte blocks (string_blocks.hpp), byte by byte only
// where a \uXXXX escape is, and a UTF-8 validation when a byte is not ASCII.
std::optional<std::string> decode_json_string_body(std::string_view body,
                                                   StringScan scan = StringScan::fastest);

// The same into `out`, whose memory is reused: only the bytes past its current size are zeroed
// before the decode writes over them (a string that held an earlier step's bytes needs almost
// none). False, with `out` holding no particular bytes, when the body is not valid.
bool decode_json_string_body_into(std::string_view body, std::string& out,
                                  StringScan scan = StringScan::fastest);

}  // namespace claude::emulator::detail
