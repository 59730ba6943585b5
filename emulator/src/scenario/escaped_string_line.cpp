#include "escaped_string_line.hpp"

#include <simdjson.h>

#include <cstddef>
#include <cstdint>

namespace claude::emulator::detail {
namespace {

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

// Decodes the escape whose '\' is at `*at` into `*out` and moves both past it; false when it is
// not one is_json_string_body accepts (an unknown code, bad hex digits, a surrogate that is not
// a high-low pair, a '\' that ends the body).
inline bool decode_escape(std::string_view body, std::size_t* at, char** out) {
  const std::size_t i = *at;
  if (i + 1 >= body.size()) return false;
  const auto code = static_cast<unsigned char>(body[i + 1]);
  if (const char simple = simple_escape(code); simple != 0) {
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

// Decodes the byte or escape at `*at` into `*out` and moves both past it; false when the body
// breaks a rule of is_json_string_body there (UTF-8 is checked by the caller, once).
inline bool decode_one(std::string_view body, std::size_t* at, char** out, bool* non_ascii) {
  const auto c = static_cast<unsigned char>(body[*at]);
  if (c == '\\') return decode_escape(body, at, out);
  if (c == '"' || c < 0x20) return false;
  if (c >= 0x80) *non_ascii = true;
  *(*out)++ = static_cast<char>(c);
  ++*at;
  return true;
}

}  // namespace

bool is_json_string_body(std::string_view body, StringScan scan) {
  bool non_ascii = false;
  if (!check_string_body(body, usable_scan(scan), check_unicode_escape, &non_ascii)) return false;
  return !non_ascii || simdjson::validate_utf8(body.data(), body.size());
}

std::optional<std::string> decode_json_string_body(std::string_view body, StringScan wanted) {
  std::string decoded;
  if (!decode_json_string_body_into(body, decoded, wanted)) return std::nullopt;
  return decoded;
}

bool decode_json_string_body_into(std::string_view body, std::string& decoded, StringScan wanted) {
  const StringScan scan = usable_scan(wanted);
  // Nothing decodes to more bytes than its escaped form, so the output never passes the input
  // (and decode_run's stores, up to 64 bytes ahead, stay inside it).
  if (decoded.capacity() < body.size()) decoded.clear();  // a reallocation copies nothing then
  if (decoded.size() < body.size()) decoded.resize(body.size());
  char* out = decoded.data();
  std::size_t at = 0;
  bool non_ascii = false;
  for (;;) {
    const RunEnd end = decode_run(body, scan, at, out, non_ascii);
    if (end == RunEnd::invalid) return false;
    if (end == RunEnd::tail) break;
    // A block with a \uXXXX escape, byte by byte up to the first place at or past its end that no
    // escape spans.
    for (const std::size_t block_end = at + 64; at < block_end;) {
      if (!decode_one(body, &at, &out, &non_ascii)) return false;
    }
  }
  while (at < body.size()) {
    if (!decode_one(body, &at, &out, &non_ascii)) return false;
  }
  if (non_ascii && !simdjson::validate_utf8(body.data(), body.size())) return false;
  decoded.resize(static_cast<std::size_t>(out - decoded.data()));
  return true;
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
