// The `type` of a stdout line read from its first bytes, without parsing the line.
//
// Why: the control engine's reader hands bulk messages (assistant, user, stream_event) to the
// consumer's thread unparsed, so the consumer parses them and allocates what it later frees
// (control/control_protocol.hpp, ControlListener::on_unparsed). The reader must still see every
// control message itself, so it needs the type before any parse, and only where it is certain. How
// it fails: it does not; nullopt whenever the type cannot be read from the start alone (the first
// member is not "type", its value is not a string, or the string has an escape). Such a line is
// parsed by the reader, as every line used to be. The line need not be valid JSON: that is the
// parser's to decide, later. What it costs: a few byte compares and one memchr over the value.
#pragma once

#include <optional>
#include <string_view>

namespace claude::sdk::detail {

// The value of `line`'s first member when that member is named literally `type` and its value is
// a string with no escape: `{"type":"assistant",…` gives "assistant". JSON whitespace may
// surround the tokens.
std::optional<std::string_view> leading_type(std::string_view line) noexcept;

}  // namespace claude::sdk::detail
