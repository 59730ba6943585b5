// Escaping for HTML (and XML) text and attribute values, and shortening for labels.
//
// How it fails: never; invalid UTF-8 passes through unchanged. What it costs: one copy.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace claude::report_html {

// Escapes & < > " ' so the result is safe in text and in quoted attributes.
std::string escape_html(std::string_view text);

// At most `max_chars` code points, with "…" appended when cut; never splits a UTF-8 sequence.
std::string shorten(std::string_view text, std::size_t max_chars);

}  // namespace claude::report_html
