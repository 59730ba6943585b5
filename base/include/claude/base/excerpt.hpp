// The part of a bad input that an error message quotes: at most a few hundred bytes, so a 20 MB
// JSON token or line never lands whole on stderr or in a report.
//
// How it fails: it does not; a cut never splits a UTF-8 sequence, and the cut text says how long
// the whole was. What it costs: one copy of at most `max_bytes`.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace claude::base {

inline constexpr std::size_t kMaxQuotedBytes = 300;

// `text` itself when it fits; else its first bytes (up to `max_bytes`, whole UTF-8 characters)
// followed by "… (N bytes)".
std::string excerpt(std::string_view text, std::size_t max_bytes = kMaxQuotedBytes);

}  // namespace claude::base
