#include "claude/model_stub/reply_encoding.hpp"

#include "claude/base/json.hpp"
#include "claude/emulator/pattern.hpp"

namespace claude::model_stub {
namespace {

// Thinking blocks must carry a signature for the CLI to send them back on the next turn; a script
// that does not care gets this obviously fake one.
constexpr const char* kDefaultSignature = "bW9kZWwtc3R1Yi1zaWduYXR1cmU=";

Json block_start(const Json& block) {
  const auto& type = block["type"].get_ref<const std::string&>();
  if (type == "text") return Json{{"type", "text"}, {"text", ""}};
  if (type == "thinking") return Json{{"type", "thinking"}, {"thinking", ""}, {"signature", ""}};
  return Json{{"type", "tool_use"},
              {"id", block["id"]},
              {"name", block["name"]},
              {"input", Json::object()}};
}

Json delta_event(std::size_t index, Json delta) {
  return Json{{"type", "content_block_delta"}, {"index", index}, {"delta", std::move(delta)}};
}

void append_deltas(std::vector<SseEvent>& events, std::size_t index, const Json& block,
                   std::size_t chunk_chars) {
  const auto deltas = [&](const std::string& text, const char* type, const char* key) {
    for (auto& piece : split_code_points(text, chunk_chars))
      events.push_back({"content_block_delta", delta_event(index, {{"type", type}, {key, piece}})});
  };
  const auto& type = block["type"].get_ref<const std::string&>();
  if (type == "text") {
    deltas(block["text"].get<std::string>(), "text_delta", "text");
  } else if (type == "thinking") {
    deltas(block["thinking"].get<std::string>(), "thinking_delta", "thinking");
    events.push_back(
        {"content_block_delta",
         delta_event(index, {{"type", "signature_delta"},
                             {"signature", block.value("signature", kDefaultSignature)}})});
  } else {
    deltas(base::dump_json(block.contains("input") ? block["input"] : Json::object()),
           "input_json_delta", "partial_json");
  }
}

Json final_block(const Json& block) {
  Json out = block;
  if (out["type"] == "thinking" && !out.contains("signature")) out["signature"] = kDefaultSignature;
  if (out["type"] == "tool_use" && !out.contains("input")) out["input"] = Json::object();
  return out;
}

}  // namespace

std::vector<std::string> split_code_points(const std::string& text, std::size_t chars) {
  std::vector<std::string> pieces;
  if (text.empty()) return pieces;
  if (chars == 0) {
    pieces.push_back(text);
    return pieces;
  }
  std::size_t start = 0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    // A byte 10xxxxxx continues the current code point; anything else starts one.
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (count == chars) {
      pieces.push_back(text.substr(start, i - start));
      start = i;
      count = 0;
    }
    ++count;
  }
  pieces.push_back(text.substr(start));
  return pieces;
}

std::vector<SseEvent> reply_events(const ResolvedReply& reply) {
  std::vector<SseEvent> events;
  Json start_usage = reply.usage;
  start_usage["output_tokens"] = 1;
  events.push_back({"message_start",
                    {{"type", "message_start"},
                     {"message",
                      {{"id", reply.message_id},
                       {"type", "message"},
                       {"role", "assistant"},
                       {"model", reply.model},
                       {"content", Json::array()},
                       {"stop_reason", nullptr},
                       {"stop_sequence", nullptr},
                       {"usage", start_usage}}}}});
  for (std::size_t i = 0; i < reply.content.size(); ++i) {
    const Json& block = reply.content[i];
    events.push_back(
        {"content_block_start",
         {{"type", "content_block_start"}, {"index", i}, {"content_block", block_start(block)}}});
    if (i == 0) events.push_back({"ping", {{"type", "ping"}}});
    append_deltas(events, i, block, reply.chunk_chars);
    events.push_back({"content_block_stop", {{"type", "content_block_stop"}, {"index", i}}});
  }
  events.push_back({"message_delta",
                    {{"type", "message_delta"},
                     {"delta", {{"stop_reason", reply.stop_reason}, {"stop_sequence", nullptr}}},
                     {"usage", reply.usage}}});
  events.push_back({"message_stop", {{"type", "message_stop"}}});
  return events;
}

Json reply_message(const ResolvedReply& reply) {
  Json content = Json::array();
  for (const auto& block : reply.content) content.push_back(final_block(block));
  return Json{{"id", reply.message_id},        {"type", "message"},
              {"role", "assistant"},           {"model", reply.model},
              {"content", std::move(content)}, {"stop_reason", reply.stop_reason},
              {"stop_sequence", nullptr},      {"usage", reply.usage}};
}

Json api_error_body(const std::string& type, const std::string& message) {
  return Json{{"type", "error"}, {"error", {{"type", type}, {"message", message}}}};
}

std::string encode_sse(const SseEvent& event) {
  return "event: " + event.name + "\ndata: " + base::dump_json(event.data) + "\n\n";
}

}  // namespace claude::model_stub
