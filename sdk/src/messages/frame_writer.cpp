#include "messages/frame_writer.hpp"

#include "messages/json_writer.hpp"

namespace claude::sdk {
namespace {

// JSON allows U+2028/U+2029 raw in strings, but JavaScript line readers break lines there.
void escape_line_separators(std::string& text) {
  for (std::size_t pos = 0; (pos = text.find("\xE2\x80", pos)) != std::string::npos;) {
    const char last = pos + 2 < text.size() ? text[pos + 2] : '\0';  // U+2028 is E2 80 A8
    if (last == '\xA8' || last == '\xA9') {
      text.replace(pos, 3, last == '\xA8' ? "\\u2028" : "\\u2029");
      pos += 6;
    } else {
      pos += 2;
    }
  }
}

nlohmann::json user_message(nlohmann::json content, std::string_view session_id) {
  return {{"type", "user"},
          {"session_id", session_id},
          {"message", {{"role", "user"}, {"content", std::move(content)}}},
          {"parent_tool_use_id", nullptr}};
}

using detail::append_json;
using detail::append_json_string;

std::string finish_line(std::string line) {
  escape_line_separators(line);
  line += '\n';
  return line;
}

}  // namespace

std::string serialize_frame(const nlohmann::json& value) {
  std::string line;
  append_json(line, value);
  return finish_line(std::move(line));
}

std::string user_message_frame(std::string_view text, std::string_view session_id) {
  return serialize_frame(user_message(text, session_id));
}

std::string user_message_frame(const nlohmann::json& content_blocks, std::string_view session_id) {
  return serialize_frame(user_message(content_blocks, session_id));
}

// The control frames are the round trip's hot path: they are written as text around the one
// value they carry instead of copying that value into a tree only to dump it again.

std::string control_request_frame(std::string_view request_id, const nlohmann::json& request) {
  std::string line = R"({"request":)";
  append_json(line, request);
  line += R"(,"request_id":)";
  append_json_string(line, request_id);
  line += R"(,"type":"control_request"})";
  return finish_line(std::move(line));
}

namespace {

// {"response":{"request_id":ID,"response":PAYLOAD,"subtype":"success"},"type":"control_response"}
// with PAYLOAD written by `append_payload(line)`; `payload_bytes` sizes the one allocation.
template <class AppendPayload>
std::string success_frame(std::string_view request_id, std::size_t payload_bytes,
                          AppendPayload&& append_payload) {
  constexpr std::string_view kHead = R"({"response":{"request_id":)";
  constexpr std::string_view kTail = R"(,"subtype":"success"},"type":"control_response"})";
  std::string line;
  // Room for the whole line (an id needs escaping rarely): one allocation instead of several.
  line.reserve(kHead.size() + request_id.size() + 16 + payload_bytes + kTail.size() + 2);
  line = kHead;
  append_json_string(line, request_id);
  line += R"(,"response":)";
  append_payload(line);
  line += kTail;
  return finish_line(std::move(line));
}

}  // namespace

std::string control_success_frame(std::string_view request_id, const nlohmann::json& response) {
  return success_frame(request_id, 0, [&](std::string& line) {
    if (response.is_null())
      line += "{}";
    else
      append_json(line, response);
  });
}

std::string control_success_frame_serialized(std::string_view request_id,
                                             std::string_view response_json) {
  return success_frame(request_id, response_json.size(),
                       [&](std::string& line) { line += response_json; });
}

std::string control_error_frame(std::string_view request_id, std::string_view error,
                                std::optional<std::string_view> error_code) {
  std::string line = R"({"response":{"error":)";
  append_json_string(line, error);
  if (error_code) {
    line += R"(,"error_code":)";
    append_json_string(line, *error_code);
  }
  line += R"(,"request_id":)";
  append_json_string(line, request_id);
  line += R"(,"subtype":"error"},"type":"control_response"})";
  return finish_line(std::move(line));
}

std::string control_cancel_frame(std::string_view request_id) {
  return serialize_frame({{"type", "control_cancel_request"}, {"request_id", request_id}});
}

}  // namespace claude::sdk
