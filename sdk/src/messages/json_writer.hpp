// Appends the compact JSON text of an nlohmann value to a string: the same bytes as
// `value.dump(-1, ' ', false, error_handler_t::replace)`.
//
// Why: every frame the SDK writes goes through this, and on the control round trip nlohmann's
// serializer (a fresh serializer, locale lookup and bytewise escaping per call) was the largest
// user-space cost. Strings go through claude::base's UTF-8 check and escaper; anything unusual — a
// string with invalid UTF-8, a floating-point number, binary — is handed to nlohmann, so the
// output never differs from its.
// How it fails: it does not; nlohmann's fallback replaces invalid UTF-8 with U+FFFD.
// What it costs: one pass over the value, no allocation beyond the output's growth.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace claude::sdk::detail {

void append_json(std::string& out, const nlohmann::json& value);
void append_json_string(std::string& out, std::string_view text);

}  // namespace claude::sdk::detail
