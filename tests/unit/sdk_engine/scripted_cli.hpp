// Test helpers: an InMemoryTransport that answers `initialize`, and frame matchers.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "claude/sdk/in_memory_transport.hpp"

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
