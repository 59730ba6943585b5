#include "mutate/mutation_kit.hpp"

#include "claude/base/json.hpp"
#include "claude/emulator/pattern.hpp"

namespace claude::fuzzing::kit {
namespace {

std::size_t weight_of(const Json& step) {
  if (!is_object_send(step)) return 1;
  const Json& type = step["send"].contains("type") ? step["send"]["type"] : Json();
  if (type == "result") return 8;
  if (type == "control_request") return 4;
  if (type == "assistant") return 2;
  return 1;
}

void collect(Json& object, const std::string& prefix, bool top,
             std::vector<std::pair<MemberRef, std::size_t>>& out) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (top && it.key() == "type") continue;
    const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
    const bool container = it->is_object() || it->is_array();
    out.push_back({MemberRef{&object, it.key(), path}, top ? (container ? 3u : 1u) : 0u});
    if (it->is_object()) {
      collect(*it, path, false, out);
    } else if (it->is_array()) {
      for (std::size_t i = 0; i < it->size(); ++i) {
        if ((*it)[i].is_object()) collect((*it)[i], path + "." + std::to_string(i), false, out);
      }
    }
  }
}

}  // namespace

std::string kind_of(const Json& message) {
  const Json* type = base::member(message, "type");
  if (type == nullptr || !type->is_string()) return "?";
  const Json* subtype = base::member(message, "subtype");
  const Json* request = base::member(message, "request");
  if (subtype == nullptr && request != nullptr) subtype = base::member(*request, "subtype");
  std::string kind = type->get<std::string>();
  if (subtype != nullptr && subtype->is_string()) kind += "/" + subtype->get<std::string>();
  return kind;
}

bool is_object_send(const Json& step) {
  return step.is_object() && step.contains("send") && step["send"].is_object();
}

bool is_plain_send(const Json& step) {
  return is_object_send(step) && claude::emulator::referenced_variables(step["send"]).empty() &&
         !step.contains("chunks");
}

std::optional<std::size_t> pick_message(const ScenarioDoc& doc,
                                        std::span<const std::size_t> candidates, FuzzRng& rng) {
  std::size_t total = 0;
  for (auto i : candidates) total += weight_of(doc.steps[i]);
  if (total == 0) return std::nullopt;
  std::size_t draw = rng.below(total);
  for (auto i : candidates) {
    const std::size_t w = weight_of(doc.steps[i]);
    if (draw < w) return i;
    draw -= w;
  }
  return std::nullopt;
}

std::optional<std::size_t> pick_any(std::span<const std::size_t> candidates, FuzzRng& rng) {
  if (candidates.empty()) return std::nullopt;
  return candidates[rng.below(candidates.size())];
}

std::optional<std::size_t> pick_send(const ScenarioDoc& doc, FuzzRng& rng,
                                     bool (*keep)(const Json&)) {
  return pick_message(doc, steps_where(doc, keep), rng);
}

std::size_t ending_index(const ScenarioDoc& doc) {
  for (std::size_t i = 0; i < doc.steps.size(); ++i)
    if (is_ending(doc.steps[i])) return i;
  return doc.steps.size();
}

std::size_t insert_position(const ScenarioDoc& doc, FuzzRng& rng) {
  std::size_t first = 0;
  for (std::size_t i = 0; i < doc.steps.size(); ++i) {
    const std::string verb = verb_of(doc.steps[i]);
    if (verb == "expect" || verb == "expect_prompt") {
      first = i + 1;
      break;
    }
  }
  const std::size_t last = ending_index(doc);
  if (first > last) first = last;
  return rng.between(first, last);
}

std::string line_of(const Json& send_step) {
  return claude::base::dump_json(send_step["send"]);
}

std::string step_name(const Json& step) {
  return step.contains("send") ? kind_of(step["send"]) : verb_of(step);
}

std::optional<MemberRef> pick_member(Json& message, FuzzRng& rng) {
  if (!message.is_object()) return std::nullopt;
  std::vector<std::pair<MemberRef, std::size_t>> members;
  collect(message, "", true, members);
  if (members.empty()) return std::nullopt;
  const bool top = rng.chance(3, 4);
  std::size_t total = 0;
  for (const auto& [ref, w] : members) total += top ? w : 1;
  if (total == 0) return members[rng.below(members.size())].first;
  std::size_t draw = rng.below(total);
  for (const auto& [ref, w] : members) {
    const std::size_t weight = top ? w : 1;
    if (draw < weight) return ref;
    draw -= weight;
  }
  return members.back().first;
}

Json raw_like(const Json& step, std::string bytes) {
  Json raw = Json::object({{"raw", std::move(bytes)}});
  if (step.contains("after")) raw["after"] = step["after"];
  return raw;
}

void insert_at(ScenarioDoc& doc, std::size_t at, Json step) {
  doc.steps.insert(doc.steps.begin() + static_cast<std::ptrdiff_t>(at), std::move(step));
}

void truncate_with(ScenarioDoc& doc, std::size_t from, Json ending) {
  doc.steps.resize(std::min(from, doc.steps.size()));
  doc.steps.push_back(std::move(ending));
}

}  // namespace claude::fuzzing::kit
