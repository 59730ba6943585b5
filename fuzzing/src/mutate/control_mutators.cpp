// control.*: the control protocol (docs/protocol.md §4–§7) at its edges: requests nobody
// registered, ids seen twice or never, cancellations racing answers, replies out of order,
// initialize slow or never answered.
#include "mutate/mutation_kit.hpp"

namespace claude::fuzzing::kit {
namespace {

// Bodies of CLI → SDK requests an SDK can receive without having registered anything for them.
Json unregistered_body(std::size_t which) {
  switch (which) {
    case 0:
      return {{"subtype", "can_use_tool"},
              {"tool_name", "FuzzTool"},
              {"input", Json::object()},
              {"tool_use_id", "toolu_fuzz_1"}};
    case 1:
      return {{"subtype", "hook_callback"},
              {"callback_id", "fuzz_unregistered_hook"},
              {"input", {{"hook_event_name", "PreToolUse"}}},
              {"tool_use_id", nullptr}};
    default:
      return {{"subtype", "mcp_message"},
              {"server_name", "fuzz_unregistered_server"},
              {"message", {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}}}};
  }
}

Site unknown_request(ScenarioDoc& doc, FuzzRng& rng) {
  insert_at(
      doc, insert_position(doc, rng),
      {{"request", {{"subtype", "fuzz_unknown_request"}}}, {"expect_response", Json::object()}});
  return "control.unknown_request";
}

Site unregistered_request(ScenarioDoc& doc, FuzzRng& rng) {
  const std::size_t which = rng.below(3);
  Json body = unregistered_body(which);
  const std::string site = "control.unregistered_request " + body["subtype"].get<std::string>();
  insert_at(doc, insert_position(doc, rng),
            {{"request", std::move(body)}, {"expect_response", Json::object()}});
  return site;
}

Site duplicate_request_id(ScenarioDoc& doc, FuzzRng& rng) {
  const std::size_t which = rng.below(4);
  Json body = which == 3 ? Json{{"subtype", "fuzz_unknown_request"}} : unregistered_body(which);
  const std::string site = "control.duplicate_request_id " + body["subtype"].get<std::string>();
  Json request = {{"type", "control_request"}, {"request_id", "fuzz-dup-1"}, {"request", body}};
  const std::size_t at = insert_position(doc, rng);
  insert_at(doc, at, {{"send", request}});
  insert_at(doc, at + 1, {{"send", request}});
  return site;
}

Site unknown_response_id(ScenarioDoc& doc, FuzzRng& rng) {
  const bool error = rng.chance(1, 2);
  Json response = {{"subtype", error ? "error" : "success"}, {"request_id", "fuzz-unknown-id"}};
  response[error ? "error" : "response"] = error ? Json("fuzz: no such request") : Json::object();
  insert_at(doc, insert_position(doc, rng),
            {{"send", {{"type", "control_response"}, {"response", response}}}});
  return std::string("control.unknown_response_id ") + (error ? "error" : "success");
}

Site cancel_race(ScenarioDoc& doc, FuzzRng& rng) {
  auto requests = steps_where(doc, [](const Json& s) { return s.contains("request"); });
  std::size_t at = 0;
  if (auto i = pick_any(requests, rng)) {
    at = *i;
  } else {
    at = insert_position(doc, rng);
    insert_at(doc, at, {{"request", unregistered_body(rng.below(3))}});
  }
  Json& request = doc.steps[at];
  if (!request.contains("as")) request["as"] = "fuzz_cancelled";
  request.erase("expect_response");
  request.erase("within_ms");
  const std::string name = request["as"].get<std::string>();
  const std::string subtype = request["request"].value("subtype", "?");
  std::size_t cancel_at = at + 1;
  if (rng.chance(1, 2)) {
    insert_at(doc, cancel_at++, {{"sleep_ms", rng.between(1, 30)}});
  }
  insert_at(doc, cancel_at, {{"cancel", name}});
  return "control.cancel_race " + subtype;
}

Site cancel_unknown(ScenarioDoc& doc, FuzzRng& rng) {
  insert_at(doc, insert_position(doc, rng),
            {{"send", {{"type", "control_cancel_request"}, {"request_id", "fuzz-never-sent"}}}});
  return "control.cancel_unknown";
}

bool writes_line(const Json& step) {
  const std::string verb = verb_of(step);
  return verb == "send" || verb == "raw" || verb == "respond" || verb == "respond_error";
}

Site reorder(ScenarioDoc& doc, FuzzRng& rng) {
  std::vector<std::size_t> pairs;
  for (std::size_t i = 0; i + 1 < doc.steps.size(); ++i) {
    if (writes_line(doc.steps[i]) && writes_line(doc.steps[i + 1])) pairs.push_back(i);
  }
  const auto i = pick_any(pairs, rng);
  if (!i) return std::nullopt;
  std::swap(doc.steps[*i], doc.steps[*i + 1]);
  return "control.reorder " + step_name(doc.steps[*i + 1]) + " " + step_name(doc.steps[*i]);
}

Json initialize_payload(const Json& header) {
  if (header.contains("auto_initialize") && header["auto_initialize"].is_object())
    return header["auto_initialize"];
  return {{"commands", Json::array()},
          {"agents", Json::array()},
          {"output_style", "default"},
          {"available_output_styles", {"default"}},
          {"models", Json::array()},
          {"account", Json::object()},
          {"current_permission_mode", "default"}};
}

bool answers_initialize(const Json& header) {
  return !header.contains("auto_initialize") || header["auto_initialize"] != false;
}

// The recorded initialize reply of a recording (auto_initialize off): the first control_response.
std::optional<std::size_t> recorded_initialize_reply(const ScenarioDoc& doc) {
  for (std::size_t i = 0; i < doc.steps.size(); ++i) {
    if (is_object_send(doc.steps[i]) &&
        doc.steps[i]["send"].value("type", "") == "control_response")
      return i;
  }
  return std::nullopt;
}

Site slow_initialize(ScenarioDoc& doc, FuzzRng& rng) {
  const std::size_t delay = rng.between(100, 1000);
  if (answers_initialize(doc.header)) {
    const Json payload = initialize_payload(doc.header);
    doc.header["auto_initialize"] = false;
    insert_at(
        doc, 0,
        {{"expect", {{"type", "control_request"}, {"request", {{"subtype", "initialize"}}}}}});
    insert_at(doc, 1, {{"sleep_ms", delay}});
    insert_at(doc, 2, {{"respond", payload}});
  } else if (auto reply = recorded_initialize_reply(doc)) {
    insert_at(doc, *reply, {{"sleep_ms", delay}});
  } else {
    return std::nullopt;
  }
  return "control.slow_initialize";
}

Site no_initialize_reply(ScenarioDoc& doc, FuzzRng&) {
  if (answers_initialize(doc.header)) {
    doc.header["auto_initialize"] = false;
  } else if (auto reply = recorded_initialize_reply(doc)) {
    doc.steps.erase(doc.steps.begin() + static_cast<std::ptrdiff_t>(*reply));
  } else {
    return std::nullopt;
  }
  return "control.no_initialize_reply";
}

constexpr Mutator kControl[] = {
    {"control.unknown_request", "a CLI request of an unknown subtype", unknown_request},
    {"control.unregistered_request",
     "a can_use_tool, hook_callback or mcp_message request for nothing the SDK registered",
     unregistered_request},
    {"control.duplicate_request_id", "two CLI requests with the same request_id",
     duplicate_request_id},
    {"control.unknown_response_id", "a control_response for a request_id nobody sent",
     unknown_response_id},
    {"control.cancel_race", "a CLI request cancelled right after it is sent", cancel_race},
    {"control.cancel_unknown", "a control_cancel_request for an id never sent", cancel_unknown},
    {"control.reorder", "two adjacent CLI writes (replies among them) swapped", reorder},
    {"control.slow_initialize", "the initialize reply held back 0.1–1 s", slow_initialize},
    {"control.no_initialize_reply", "initialize never answered", no_initialize_reply},
};

}  // namespace

std::span<const Mutator> control_mutators() {
  return kControl;
}

}  // namespace claude::fuzzing::kit
