// The one JSON value type of the tools and the one simdjson→nlohmann parse every library uses.
//
// What it is: simdjson (DOM, capped at kMaxJsonDepth) converted to nlohmann, with nlohmann's own
// parser behind it as the reference: any text simdjson refuses, and the rare `-0` it would type
// differently, is parsed again by nlohmann, so values (number kinds, key order, a repeated key's
// last value in its first place) and error messages are exactly nlohmann's. `Json` (ordered,
// the tools' type) has a nesting cap because `ordered_json` copies nested members recursively
// when an object grows, so a line nested 100,000 levels deep would exhaust the stack; such text
// is refused before it is parsed. `parse_unordered_json_or_discarded` builds the SDK's
// `nlohmann::json` and, like nlohmann, has no cap.
//
// `dump_json` is the one compact writer of a value the tools print or record: nlohmann's dump()
// without spaces, except that invalid UTF-8 in a string becomes U+FFFD instead of an exception,
// so the line is JSON whatever bytes it quotes.
//
// How it fails: `parse_json` throws Json::parse_error (for bad JSON and for nesting beyond
// kMaxJsonDepth, with a message saying so); the `_or_discarded` forms return a discarded value;
// `dump_json` does not fail.
//
// What it costs: valid text is read at simdjson speed, after one copy into the parser's padded
// buffer, plus one copy of each string into the value. Invalid text is read twice (simdjson, then
// nlohmann with its depth pre-scan). Each thread keeps one parser sized for texts up to 1 MiB;
// longer texts get a parser of their own, freed after use.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace claude::base {

using Json = nlohmann::ordered_json;

inline constexpr std::size_t kMaxJsonDepth = 512;

// The deepest nesting of arrays and objects in `text` (string contents skipped); the scan stops
// as soon as it passes `stop_after`.
std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after);

Json parse_json(std::string_view text);
Json parse_json_or_discarded(std::string_view text);

// The same value as `nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false)`.
nlohmann::json parse_unordered_json_or_discarded(std::string_view text);

// The member `key` of `object`, or nullptr (also when `object` is not an object).
const Json* member(const Json& object, std::string_view key);
// The member `key` when it is a string, else "".
std::string string_member(const Json& object, std::string_view key);

// Compact one-line JSON, invalid UTF-8 replaced by U+FFFD.
std::string dump_json(const Json& value);
std::string dump_json(const nlohmann::json& value);

}  // namespace claude::base
