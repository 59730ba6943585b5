// What the mutator families share: finding the steps to edit, where inserted steps go, and how a
// message is named in a site key. Private to claude::fuzzing.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "claude/fuzzing/fuzz_rng.hpp"
#include "claude/fuzzing/mutator.hpp"
#include "claude/fuzzing/scenario_doc.hpp"

namespace claude::fuzzing::kit {

// What Mutator::apply returns: the site edited, or nullopt.
using Site = std::optional<std::string>;

// "result/success", "control_request/can_use_tool", "assistant", "?" for a non-object.
std::string kind_of(const Json& message);

// A `send` step with an object message.
bool is_object_send(const Json& step);
// …that refers to no variable and is written in one piece, so its line can be `raw` bytes.
bool is_plain_send(const Json& step);

// Indices of the steps `keep` accepts.
template <typename Pred>
std::vector<std::size_t> steps_where(const ScenarioDoc& doc, Pred keep) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < doc.steps.size(); ++i)
    if (keep(doc.steps[i])) out.push_back(i);
  return out;
}

// One of `candidates`, results weighted 8, control requests 4, assistant messages 2, others 1.
std::optional<std::size_t> pick_message(const ScenarioDoc& doc,
                                        std::span<const std::size_t> candidates, FuzzRng& rng);
std::optional<std::size_t> pick_any(std::span<const std::size_t> candidates, FuzzRng& rng);
// pick_message among the sends `keep` accepts.
std::optional<std::size_t> pick_send(const ScenarioDoc& doc, FuzzRng& rng,
                                     bool (*keep)(const Json&) = is_object_send);

// The ending step (exit, kill, hang), or steps.size() when there is none.
std::size_t ending_index(const ScenarioDoc& doc);
// Where a new writing step may go: after the first wait (the SDK is talking), before the ending.
std::size_t insert_position(const ScenarioDoc& doc, FuzzRng& rng);

// The line a send step writes, without '\n'.
std::string line_of(const Json& send_step);
// A send step's message kind, else its verb.
std::string step_name(const Json& step);

// A member of an object (nested objects and arrays of objects included, except `type` at the
// top): top-level members 3 times in 4, containers weighted 3.
struct MemberRef {
  Json* parent = nullptr;
  std::string key;
  std::string path;  // "message.usage.output_tokens"
};
std::optional<MemberRef> pick_member(Json& message, FuzzRng& rng);

// A `raw` step writing `bytes` in place of `step` (its `after` kept).
Json raw_like(const Json& step, std::string bytes);

void insert_at(ScenarioDoc& doc, std::size_t at, Json step);
// Removes steps [from, end) and appends `ending`.
void truncate_with(ScenarioDoc& doc, std::size_t from, Json ending);

// The family tables (one file each).
std::span<const Mutator> framing_mutators();
std::span<const Mutator> message_mutators();
std::span<const Mutator> control_mutators();
std::span<const Mutator> process_mutators();

}  // namespace claude::fuzzing::kit
