// ApiRequest / ApiResponse: one HTTP exchange of the fake Messages API, as plain values.
//
// What it is: the boundary between the socket shell (server.hpp) and the core
// (scripted_model.hpp). An ApiResponse says exactly what to put on the wire (status, headers, a
// JSON body or SSE events, and faults: drop the connection after N events, pause between events),
// so the core is tested without sockets.
//
// How it fails: these are values; nothing here throws except std::bad_alloc.
// What it costs: the request body is held once as text; events are small JSON values.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "claude/model_stub/model_script.hpp"

namespace claude::model_stub {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct ApiRequest {
  std::string method;  // "POST"
  std::string target;  // "/v1/messages?beta=true"
  HeaderList headers;  // as received (the request log redacts secrets)
  std::string body;
};

// One server-sent event: `event: <name>` and `data: <compact JSON>`.
struct SseEvent {
  std::string name;
  Json data;
};

// The text of one event on the wire, ending with the blank line that terminates it.
std::string encode_sse(const SseEvent& event);

struct ApiResponse {
  int status = 200;
  HeaderList headers;  // besides content-type, which `streaming` decides
  bool streaming = false;
  std::string body;              // JSON text when !streaming
  std::vector<SseEvent> events;  // when streaming
  std::chrono::milliseconds event_delay{0};
  // Close the connection after this many events (streaming) or before any response (0, JSON).
  std::optional<std::size_t> drop_after;

  // For the request log: which rule answered (script line) and a one-line account of why.
  std::optional<std::size_t> rule_line;
  std::string outcome;
};

}  // namespace claude::model_stub
