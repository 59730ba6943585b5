// The `type` of a stdout line read from its first bytes, without parsing the line.
//
// Why: the reader hands bulk messages (assistant, user, stream_event) to the consumer's thread
// unparsed (ControlListener::on_unparsed) but must still see every control message itself.
// How it fails: it does not; nullopt whenever the start alone does not say the type for certain
// (such a line is parsed by the reader). Whether the line is valid JSON is the parser's to decide.
// What it costs: a few byte compares and one memchr over the value.
#pragma once

#include <optional>
#include <string_view>

namespace claude::sdk::detail {

// The value of `line`'s first member when that member is named literally `type` and its value is
// a string with no escape: `{"type":"assistant",…` gives "assistant". JSON whitespace may
// surround the tokens.
std::optional<std::string_view> leading_type(std::string_view line) noexcept;

}  // namespace claude::sdk::detail
