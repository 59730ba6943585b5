// How a scripted Reply becomes Messages API output: an SSE event sequence or one JSON message.
//
// What it is: pure functions from values to values. The streamed form follows the API:
// message_start, then per content block content_block_start (ping after the first one),
// content_block_delta (text_delta / thinking_delta + signature_delta / input_json_delta),
// content_block_stop, then message_delta {stop_reason, usage} and message_stop. The JSON form is
// the same message in one object (`"type":"message"`).
//
// How it fails: it does not; blocks were validated when the script was loaded.
// What it costs: linear in the reply text; deltas are split at `chunk_chars` code points.
#pragma once

#include <string>
#include <vector>

#include "claude/model_stub/api_exchange.hpp"
#include "claude/model_stub/model_script.hpp"

namespace claude::model_stub {

// A reply made concrete for one request: ids and model chosen, captures substituted.
struct ResolvedReply {
  std::string message_id;
  std::string model;
  std::vector<Json> content;  // blocks as in Reply::content, tool_use blocks with an "id"
  std::string stop_reason;
  Json usage;  // full usage object
  std::size_t chunk_chars = 0;
};

std::vector<SseEvent> reply_events(const ResolvedReply& reply);
Json reply_message(const ResolvedReply& reply);

// `{"type":"error","error":{"type":…,"message":…}}`
Json api_error_body(const std::string& type, const std::string& message);

// Splits UTF-8 text into pieces of at most `chars` code points (never inside a character);
// `chars == 0` gives the whole text as one piece. Empty text gives no pieces.
std::vector<std::string> split_code_points(const std::string& text, std::size_t chars);

}  // namespace claude::model_stub
