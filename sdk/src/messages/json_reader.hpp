// Reads JSON text into an nlohmann value: the same value as
// `nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false)`.
//
// Why: the SDK hands tool inputs, hook inputs and whole messages to the host as nlohmann values,
// parsed lazily from the text it kept. nlohmann's lexer reads a byte at a time; on the control
// round trip it was a visible share of the answer time, and on large tool results it is slow.
// simdjson parses, then the DOM is copied into nlohmann.
// How it fails: any text simdjson refuses (invalid JSON, numbers beyond 64 bits, deeper than
// its depth limit) goes to nlohmann, so the result — a value, or `discarded` — never differs.
// What it costs: one simdjson parse plus one copy into nlohmann; a per-thread parser buffer of
// up to 64 KiB of capacity is kept for reuse, larger texts use a parser freed afterwards.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace claude::sdk::detail {

nlohmann::json read_json(std::string_view text);

}  // namespace claude::sdk::detail
