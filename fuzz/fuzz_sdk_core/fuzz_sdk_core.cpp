// fuzz_sdk_core: the SDK's control core (sdk/src/control/control_core.hpp) driven on a virtual
// clock, without threads or a transport, so each input runs in microseconds.
//
// Input: a program of one-byte operations and their operand bytes: stdout lines (raw bytes from
// the input, or control requests, answers and cancels built around ids from a small set, so they
// meet the requests in flight), our own requests with a timeout, time advancing, handlers
// answering (or failing), our cancels, and the end of the stream or a consumer's fail().
// Oracles (abort on violation): every frame is one JSON line; every inbound request with a
// handler is answered at most once, never after it was cancelled or the session ended; each of our
// requests has exactly one outcome, and none are left pending after the end; no deadline is left in
// the past after advance(); the end is reported once.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "control/control_core.hpp"

namespace {

using namespace claude::sdk;
using namespace claude::sdk::control;
using nlohmann::json;

[[noreturn]] void violation(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "fuzz_sdk_core: %s %s\n", what, detail.c_str());
  std::abort();
}

struct Program {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t at = 0;

  [[nodiscard]] bool done() const { return at >= size; }
  std::uint8_t byte() { return at < size ? data[at++] : 0; }
  std::string bytes(std::size_t n) {
    n = std::min(n, size - at);
    std::string out(reinterpret_cast<const char*>(data + at), n);
    at += n;
    return out;
  }
};

struct Checker {
  explicit Checker(ControlCore c) : core(std::move(c)) {}
  ControlCore core;
  TimePoint now{};
  std::vector<std::string> ours;              // request ids we started
  std::map<std::string, int> outcomes;        // outcomes per id of ours
  std::vector<std::string> inbound;           // Request events, in order
  std::set<std::string> inbound_closed;       // cancelled, or the session ended
  std::map<std::string, int> answers;         // answer frames per inbound id
  std::set<std::string> answered_by_handler;  // answer() or answer_error() was called
  int ends = 0;

  void drain() {
    while (auto frame = core.next_frame()) {
      if (frame->empty() || frame->back() != '\n' || frame->find('\n') != frame->size() - 1)
        violation("frame is not one line:", *frame);
      const json j = json::parse(*frame, nullptr, false);
      if (j.is_discarded()) violation("frame is not JSON:", *frame);
      // An unsupported subtype is answered each time it comes, by the core itself.
      if (j.value("type", "") == "control_response" &&
          j["response"].value("error_code", "") != "unsupported_request") {
        const std::string id = j["response"].value("request_id", "");
        if (++answers[id] > 1) violation("inbound request answered twice:", id);
      }
    }
    while (auto e = core.next_event()) {
      if (auto* o = std::get_if<event::Outcome>(&*e)) {
        if (!outcomes.contains(o->request_id)) violation("outcome for a foreign id", o->request_id);
        if (++outcomes[o->request_id] > 1) violation("two outcomes for", o->request_id);
      } else if (auto* r = std::get_if<event::Request>(&*e)) {
        // An id may come again once its first request was answered: a new request.
        const std::string& id = r->request().request_id;
        inbound.push_back(id);
        answers[id] = 0;
        inbound_closed.erase(id);
        answered_by_handler.erase(id);
      } else if (auto* c = std::get_if<event::Cancel>(&*e)) {
        inbound_closed.insert(c->request_id);
      } else if (std::holds_alternative<event::End>(*e)) {
        if (++ends > 1) violation("the end was reported twice");
        if (core.outbound_pending() != 0) violation("requests left pending at the end");
      }
    }
  }

  void feed(std::string line) {
    const std::size_t size = line.size();
    core.feed_line(InboundLine{.text = std::move(line), .size = size}, now);
  }
};

std::string pick_id(Program& p, const std::vector<std::string>& ids) {
  const std::uint8_t b = p.byte();
  if (ids.empty() || b % 4 == 0) return "x" + std::to_string(b % 8);
  return ids[b % ids.size()];
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Program p{data, size};
  const bool bulk = p.byte() & 1;
  Checker c{ControlCore(CoreConfig{.request_timeout = std::chrono::milliseconds(100),
                                   .max_line_bytes = 1024,
                                   .pass_bulk_unparsed = bulk,
                                   .id_salt = "fuzz",
                                   .handled_subtypes = {"can_use_tool", "hook_callback"}},
                        TimePoint{})};
  static const char* const kSubtypes[] = {"can_use_tool", "hook_callback", "mcp_message",
                                          "elicitation"};
  while (!p.done()) {
    switch (p.byte() % 10) {
      case 0:  // a raw stdout line
        c.feed(p.bytes(p.byte()));
        break;
      case 1: {  // an inbound control request
        const std::string id = pick_id(p, c.inbound);
        c.feed(json{{"type", "control_request"},
                    {"request_id", id},
                    {"request",
                     {{"subtype", kSubtypes[p.byte() % 4]}, {"tool_name", "Bash"}, {"input", {}}}}}
                   .dump());
        break;
      }
      case 2: {  // an answer to one of ours (or to an id we never used)
        const std::string id = pick_id(p, c.ours);
        const bool ok = p.byte() & 1;
        json response = {{"subtype", ok ? "success" : "error"}, {"request_id", id}};
        response[ok ? "response" : "error"] = ok ? json::object() : json("no");
        c.feed(json{{"type", "control_response"}, {"response", response}}.dump());
        break;
      }
      case 3:  // the CLI cancels an inbound request
        c.feed(
            json{{"type", "control_cancel_request"}, {"request_id", pick_id(p, c.inbound)}}.dump());
        break;
      case 4: {  // we start a request
        const std::uint8_t t = p.byte();
        std::optional<std::chrono::milliseconds> timeout;
        if (t % 3 != 0) timeout = std::chrono::milliseconds(t % 64);
        const std::string id = c.core.start_request("interrupt", json::object(), timeout, c.now);
        if (c.outcomes.contains(id)) violation("request id reused:", id);
        c.outcomes[id] = 0;
        c.ours.push_back(id);
        break;
      }
      case 5:  // time passes
        c.now += std::chrono::milliseconds(p.byte());
        c.core.advance(c.now);
        if (auto d = c.core.next_deadline(); d && *d <= c.now)
          violation("a deadline is left in the past");
        break;
      case 6: {  // a handler returns
        if (c.inbound.empty()) break;
        const std::string id = c.inbound[p.byte() % c.inbound.size()];
        const bool closed = c.inbound_closed.contains(id) || c.core.ended();
        const int before = c.answers[id];
        if (p.byte() & 1)
          c.core.answer(id, ControlPayload(json{{"behavior", "allow"}}), c.now);
        else
          c.core.answer_error(id, "denied", std::nullopt, c.now);
        c.drain();
        if (closed && c.answers[id] != before) violation("answered a closed request:", id);
        if (!closed && !c.answered_by_handler.contains(id) && c.answers[id] != before + 1)
          violation("an open request went unanswered:", id);
        c.answered_by_handler.insert(id);
        break;
      }
      case 7:  // we cancel one of ours
        if (!c.ours.empty()) c.core.cancel_request(c.ours[p.byte() % c.ours.size()]);
        break;
      case 8: {  // the stream ends
        StreamEnd end;
        const std::uint8_t how = p.byte();
        if (how % 3 == 1) end.status.exit_code = how % 5;
        if (how % 3 == 2) end.status.ended_by_host = true;
        c.core.feed_end(end);
        break;
      }
      case 9:  // a consumer finds a bad unparsed line
        c.core.fail(std::make_exception_ptr(
            MessageParseError(ParseError{ParseError::Kind::not_json, "", "fuzz"}, 1, "{")));
        break;
    }
    c.drain();
  }
  c.core.feed_end(StreamEnd{});
  c.drain();
  if (c.ends != 1) violation("no end reported");
  for (const auto& [id, n] : c.outcomes)
    if (n != 1) violation("a request of ours has no outcome:", id);
  return 0;
}
