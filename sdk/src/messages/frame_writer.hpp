// Frames an SDK writes to the CLI's stdin (docs/protocol.md §4–§5), one NDJSON line each, '\n'
// included. U+2028 and U+2029 are escaped too, so JavaScript line readers cannot split a frame.
// How it fails: never; invalid UTF-8 in strings becomes U+FFFD instead of throwing.
// What it costs: one serialisation of the value per frame.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace claude::sdk {

// Any JSON value as one line, '\n' included.
std::string serialize_frame(const nlohmann::json& value);

// {"type":"user","session_id":…,"message":{"role":"user","content":<text>},"parent_tool_use_id":null}
std::string user_message_frame(std::string_view text, std::string_view session_id = "");
// Text given as a C string or std::string: without these, such calls would be ambiguous
// between the text overload and the content-blocks one (nlohmann::json converts from both).
inline std::string user_message_frame(const char* text, std::string_view session_id = "") {
  return user_message_frame(std::string_view(text), session_id);
}
inline std::string user_message_frame(const std::string& text, std::string_view session_id = "") {
  return user_message_frame(std::string_view(text), session_id);
}
// The same with `content` an array of content blocks.
std::string user_message_frame(const nlohmann::json& content_blocks,
                               std::string_view session_id = "");

// {"type":"control_request","request_id":…,"request":{"subtype":…,…}}
std::string control_request_frame(std::string_view request_id, const nlohmann::json& request);
// {"type":"control_response","response":{"subtype":"success","request_id":…,"response":…}};
// a null `response` is sent as {} (the CLI reads fields of it).
std::string control_success_frame(std::string_view request_id, const nlohmann::json& response);
// The same with the payload already written as JSON text (one complete value, not checked).
std::string control_success_frame_serialized(std::string_view request_id,
                                             std::string_view response_json);
// {"type":"control_response","response":{"subtype":"error","request_id":…,"error":…}}
std::string control_error_frame(std::string_view request_id, std::string_view error,
                                std::optional<std::string_view> error_code = std::nullopt);
// {"type":"control_cancel_request","request_id":…}
std::string control_cancel_frame(std::string_view request_id);

}  // namespace claude::sdk
