// UTF-8 validation for recorded lines: a line goes into the recording as JSON text only when it
// is well-formed UTF-8 (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF);
// otherwise it is stored as base64 so no byte is lost or altered.
//
// How it fails: it does not. What it costs: one pass of simdjson::validate_utf8 (several GB/s).
#pragma once

#include <string_view>

namespace claude::base {

[[nodiscard]] bool is_valid_utf8(std::string_view bytes) noexcept;

}  // namespace claude::base
