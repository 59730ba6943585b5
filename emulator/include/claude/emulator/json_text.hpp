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
// What it costs: valid text is read at simdjson speed, after one copy into the parser's padded
// buffer, plus one copy of each string into `Json`. Invalid text is read twice (simdjson, then
// nlohmann with its depth pre-scan). Each thread keeps one parser sized for lines up to 1 MiB;
// longer lines get a parser of their own.
#pragma once

#include <cstddef>
#include <string_view>

#include "claude/emulator/pattern.hpp"

namespace claude::emulator {

inline constexpr std::size_t kMaxJsonDepth = 512;

// The deepest nesting of arrays and objects in `text` (string contents skipped); the scan stops
// as soon as it passes `stop_after`.
std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after);

Json parse_json(std::string_view text);
Json parse_json_or_discarded(std::string_view text);

}  // namespace claude::emulator
