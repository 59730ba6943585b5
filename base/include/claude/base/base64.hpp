// Base64 (RFC 4648, standard alphabet, padded) for recorded lines that are not valid UTF-8.
//
// What it is: the reversible escape of the recording format's `line_b64` field.
// How it fails: `base64_decode` returns std::nullopt on any character outside the alphabet, bad
// padding or a length that is not a multiple of four; it never throws except std::bad_alloc.
// What it costs: one pass, output reserved up front (4/3 of the input when encoding).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace claude::base {

void base64_append(std::string& out, std::string_view bytes);
[[nodiscard]] std::string base64_encode(std::string_view bytes);
[[nodiscard]] std::optional<std::string> base64_decode(std::string_view text);

}  // namespace claude::base
