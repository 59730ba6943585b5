// JSON string escaping: the one writer of a quoted JSON string from bytes, for every frame the
// SDK writes and every event claude-tee records.
//
// What it is: `"`, `\` and the control characters are escaped as nlohmann does (\" \\ \b \f \n
// \r \t, \u00XX for the others); every other byte, 0x7f and non-ASCII included, is copied as it
// is. So for valid UTF-8 the bytes equal `nlohmann::json(text).dump()`. The text must be valid
// UTF-8 (check with utf8.hpp first): this writes what it is given and never validates.
//
// How it fails: it does not. What it costs: one table lookup per byte; the bytes between escapes
// are appended as whole runs, into room reserved up front.
#pragma once

#include <string>
#include <string_view>

namespace claude::base {

void append_json_string(std::string& out, std::string_view text);

}  // namespace claude::base
