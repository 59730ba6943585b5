#include <vector>

#include "claude/fuzzing/mutator.hpp"
#include "mutate/mutation_kit.hpp"

namespace claude::fuzzing {
namespace {

std::vector<Mutator> build_table() {
  std::vector<Mutator> table;
  for (auto family : {kit::framing_mutators(), kit::message_mutators(), kit::control_mutators(),
                      kit::process_mutators()}) {
    table.insert(table.end(), family.begin(), family.end());
  }
  return table;
}

// 1 mutation half of the time, then 2, 3, … up to `max_stack`.
std::size_t stack_size(FuzzRng& rng, std::size_t max_stack) {
  std::size_t n = 1;
  while (n < max_stack && rng.chance(1, 2)) ++n;
  return n;
}

}  // namespace

std::span<const Mutator> all_mutators() {
  static const std::vector<Mutator> table = build_table();
  return table;
}

const Mutator* find_mutator(std::string_view name) {
  for (const auto& m : all_mutators())
    if (m.name == name) return &m;
  return nullptr;
}

std::optional<Mutation> mutate(const ScenarioDoc& seed, FuzzRng& rng,
                               const MutateOptions& options) {
  const auto table = all_mutators();
  // Each mutator `weight` times: a uniform draw from this list is the weighted draw.
  std::vector<const Mutator*> usable;
  for (const auto& m : table) {
    if (!options.allow_hang && m.hangs) continue;
    for (std::size_t w = 0; w < m.weight; ++w) usable.push_back(&m);
  }
  if (usable.empty()) return std::nullopt;

  Mutation result{seed, {}};
  const std::size_t wanted = stack_size(rng, std::max<std::size_t>(1, options.max_stack));
  for (std::size_t n = 0; n < wanted; ++n) {
    // Up to `attempts` tries; the first untried site wins, else the last that loaded.
    std::optional<std::pair<ScenarioDoc, std::string>> fallback;
    std::optional<std::pair<ScenarioDoc, std::string>> chosen;
    for (std::size_t attempt = 0; attempt < options.attempts && !chosen; ++attempt) {
      const Mutator& m = *usable[rng.below(usable.size())];
      ScenarioDoc candidate = result.doc;
      auto site = m.apply(candidate, rng);
      if (!site || !load_errors(candidate).empty()) continue;
      if (options.tried_sites == nullptr || !options.tried_sites->contains(*site)) {
        chosen.emplace(std::move(candidate), std::move(*site));
      } else {
        fallback.emplace(std::move(candidate), std::move(*site));
      }
    }
    if (!chosen) chosen = std::move(fallback);
    if (!chosen) continue;
    if (options.tried_sites != nullptr) options.tried_sites->insert(chosen->second);
    result.doc = std::move(chosen->first);
    result.sites.push_back(std::move(chosen->second));
  }
  if (result.sites.empty()) return std::nullopt;
  return result;
}

}  // namespace claude::fuzzing
