// Bounded JSON parsing for every text the emulator and its tools read: scenario and recording
// lines, SDK lines on stdin, model scripts and request bodies.
//
// What it is: simdjson (DOM, capped at kMaxJsonDepth) converted to `Json`, with nlohmann's parser
// behind a nesting cap as the reference: any text simdjson refuses, and the rare `-0` it would
// type differently, is parsed again by nlohmann, so values (number kinds, key order, a repeated
// key's last value in its first place) and error messages are exactly nlohmann's. The cap
// matters because `ordered_json` copies nested members recursively when an object grows, so a
// line nested 100,000 levels deep would exhaust the stack; such text is refused before it is
// parsed.
//
// How it fails: `parse_json` throws Json::parse_error (for bad JSON and for nesting beyond
// kMaxJsonDepth, with a message saying so); `parse_json_or_discarded` returns a discarded value.
//
// What it costs: valid text is read at simdjson speed, plus one copy of each string into `Json`.
// Text followed by kJsonPadding readable bytes (a block read from a file) may be parsed in place;
// other text is first copied into the parser's padded buffer. `parse_json_line` can leave a
// large string undecoded (see below). Invalid text is read twice (simdjson, then nlohmann with
// its depth pre-scan). Each thread keeps one parser sized for lines up to 1 MiB; longer lines
// get a parser of their own.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "claude/emulator/pattern.hpp"

namespace claude::emulator {

inline constexpr std::size_t kMaxJsonDepth = 512;

// The deepest nesting of arrays and objects in `text` (string contents skipped); the scan stops
// as soon as it passes `stop_after`.
std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after);

// Readable bytes simdjson may load past the end of the text it parses in place.
inline constexpr std::size_t kJsonPadding = 64;

Json parse_json(std::string_view text);
Json parse_json_or_discarded(std::string_view text);
// The same as parse_json for text followed by kJsonPadding readable bytes (their values do not
// matter): parsed where it lies, without a copy.
Json parse_json_in_place(std::string_view text);

// An object whose single member has one of the asked keys and a string value: the key and the
// string's literal as written (the bytes between its quotes, escapes undecoded, validated).
struct JsonStringMember {
  std::string key;
  std::string_view literal;  // a view into the parsed text
};

// Parses `text` like parse_json (same values, same errors), except that an object with a single
// member named one of `keys` whose value is a string comes back as a JsonStringMember: the
// string is validated but not copied.
// `padded`: kJsonPadding readable bytes follow `text`, which is then parsed in place.
std::variant<Json, JsonStringMember> parse_json_line(std::string_view text, bool padded,
                                                     std::span<const std::string_view> keys);

// Decodes the contents of a JSON string literal (the bytes between its quotes, as returned in
// JsonStringMember::literal). Its opening quote must precede `literal`, and its closing quote
// and kJsonPadding readable bytes follow it. nullopt when the bytes are not a valid JSON string.
std::optional<std::string> decode_json_string_literal(std::string_view literal);

}  // namespace claude::emulator
