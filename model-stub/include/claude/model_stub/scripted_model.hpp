// ScriptedModel: the request-handling core of model-stub — an ApiRequest in, an ApiResponse out.
//
// What it is: a fake of the Anthropic Messages API driven by a ModelScript. `POST /v1/messages`
// (any query string) is answered by the first matching rule not used up: SSE when the body says
// `"stream":true`, a JSON message otherwise (the CLI's `set_model` probe), or the rule's HTTP
// error. Message ids (`msg_stub_N`) and generated tool_use ids (`toolu_stub_N`) count up per
// instance, so a run is reproducible. Not thread-safe: the server calls it from one thread.
//
// How it fails: never throws for a request. Other paths and methods, bodies that are not a JSON
// request and requests no rule matches get an Anthropic-style error body
// (`{"type":"error","error":{"type":…,"message":…}}`) naming the request number and, when
// unmatched, the script file and the last user text.
// What it costs: one JSON parse of the body, then one pattern walk per rule tried.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "claude/model_stub/api_exchange.hpp"
#include "claude/model_stub/model_script.hpp"

namespace claude::model_stub {

class ScriptedModel {
 public:
  explicit ScriptedModel(ModelScript script);

  ApiResponse answer(const ApiRequest& request);

  // The answer to bytes that are not an HTTP request at all (`reason` says what the parser saw):
  // 400 invalid_request_error.
  ApiResponse answer_unreadable(const std::string& reason);
  // The answer to a request the server will not take now (`reason` says why): 529
  // overloaded_error, which the CLI retries later.
  ApiResponse answer_overloaded(const std::string& reason);

  // Requests answered so far (all endpoints), and how often each rule was used.
  [[nodiscard]] std::size_t requests_seen() const noexcept { return requests_seen_; }
  [[nodiscard]] const std::vector<std::size_t>& rule_uses() const noexcept { return uses_; }

 private:
  ApiResponse answer_messages(const ApiRequest& request);
  // Counts the request and answers it with `reason` behind its number.
  ApiResponse numbered_error(int status, const std::string& type, const std::string& reason,
                             std::string outcome);

  ModelScript script_;
  std::vector<std::size_t> uses_;
  std::size_t requests_seen_ = 0;
  std::size_t messages_sent_ = 0;
  std::size_t tool_ids_issued_ = 0;
};

}  // namespace claude::model_stub
