// Test helpers: an InMemoryTransport that answers `initialize`, and frame matchers.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "transport/in_memory_transport.hpp"

namespace claude::sdk::testing {

using namespace std::chrono_literals;
using nlohmann::json;

inline constexpr auto kWait = 5s;

// Answers every control request the SDK writes whose subtype `answers` accepts with success
// `{"commands":[]}`; other frames are left to the test.
inline std::unique_ptr<InMemoryTransport> answering_requests(
    std::function<bool(const std::string& subtype)> answers,
    std::shared_ptr<InMemoryTransport*> self_slot = nullptr) {
  auto slot = self_slot ? self_slot : std::make_shared<InMemoryTransport*>(nullptr);
  InMemoryTransport::Config config;
  config.responder = [slot, answers = std::move(answers)](const std::string& frame) {
    json j = json::parse(frame);
    if (j.value("type", "") == "control_request" && answers(j["request"].value("subtype", "")))
      (*slot)->push_json({{"type", "control_response"},
                          {"response",
                           {{"subtype", "success"},
                            {"request_id", j["request_id"]},
                            {"response", {{"commands", json::array()}}}}}});
  };
  auto t = std::make_unique<InMemoryTransport>(config);
  *slot = t.get();
  return t;
}

// Answers every `initialize`; other frames are left to the test.
inline std::unique_ptr<InMemoryTransport> answering_initialize(
    std::shared_ptr<InMemoryTransport*> self_slot = nullptr) {
  return answering_requests([](const std::string& subtype) { return subtype == "initialize"; },
                            std::move(self_slot));
}

// The next frame the SDK wrote that is not `initialize`, as JSON.
inline json next_non_initialize(InMemoryTransport& t) {
  for (;;) {
    auto j = t.next_written_json(kWait);
    if (!j) {
      ADD_FAILURE() << "no frame written within " << kWait.count() << " s";
      return json();
    }
    if (j->value("type", "") == "control_request" &&
        (*j)["request"].value("subtype", "") == "initialize")
      continue;
    return *j;
  }
}

// A transport that passes everything to an in-memory CLI; tests override what they change.
class ForwardingTransport : public Transport {
 public:
  explicit ForwardingTransport(std::unique_ptr<InMemoryTransport> inner)
      : inner_(std::move(inner)) {}
  void connect() override { inner_->connect(); }
  void write(std::string_view frame) override { inner_->write(frame); }
  ReadResult read() override { return inner_->read(); }
  [[nodiscard]] bool has_buffered_line() const override { return inner_->has_buffered_line(); }
  void end_input() override { inner_->end_input(); }
  void close() override { inner_->close(); }
  [[nodiscard]] bool input_open() const override { return inner_->input_open(); }

 protected:
  std::unique_ptr<InMemoryTransport> inner_;
};

// Lines as the CLI writes them, `type` first (the reader passes bulk ones on unparsed).
inline const std::string kAssistant =
    R"({"type":"assistant","message":{"id":"m1","type":"message","role":"assistant",)"
    R"("model":"claude-test","content":[{"type":"text","text":"hi \"there\" é"}]},)"
    R"("parent_tool_use_id":null,"session_id":"s1","uuid":"u1"})";
inline const std::string kStreamEvent =
    R"({ "type" : "stream_event","event":{"type":"content_block_delta","index":0,)"
    R"("delta":{"type":"text_delta","text":"x\ny"}},"parent_tool_use_id":null,)"
    R"("session_id":"s1","uuid":"u2"})";
inline const std::string kUser =
    R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result",)"
    R"("tool_use_id":"t1","content":"ok","is_error":false}]},"parent_tool_use_id":null,)"
    R"("session_id":"s1","uuid":"u3"})";
inline const std::string kSystem =
    R"({"type":"system","subtype":"status","uuid":"u0","session_id":"s1"})";
inline const std::string kResult =
    R"({"type":"result","subtype":"success","is_error":false,"duration_ms":1,)"
    R"("duration_api_ms":1,"num_turns":1,"result":"done","session_id":"s1","uuid":"u9"})";

inline json control_request(const std::string& id, json request) {
  return {{"type", "control_request"}, {"request_id", id}, {"request", std::move(request)}};
}

inline json result_line(bool is_error = false) {
  json r = {{"type", "result"},     {"subtype", is_error ? "error_during_execution" : "success"},
            {"is_error", is_error}, {"duration_ms", 1},
            {"duration_api_ms", 1}, {"num_turns", 1},
            {"session_id", "s1"},   {"uuid", "u-result"}};
  if (is_error)
    r["errors"] = json::array({"boom"});
  else
    r["result"] = "done";
  return r;
}

inline json assistant_line(const std::string& text) {
  return {{"type", "assistant"},
          {"session_id", "s1"},
          {"uuid", "u-" + text},
          {"parent_tool_use_id", nullptr},
          {"message",
           {{"id", "msg_1"},
            {"type", "message"},
            {"role", "assistant"},
            {"model", "claude-test"},
            {"content", json::array({{{"type", "text"}, {"text", text}}})}}}};
}

}  // namespace claude::sdk::testing
