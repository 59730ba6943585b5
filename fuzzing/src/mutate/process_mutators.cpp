// process.*: the CLI process ending, shouting on stderr or stalling where a real one can.
#include <array>

#include "mutate/mutation_kit.hpp"

namespace claude::fuzzing::kit {
namespace {

// A step index after the first wait and before the ending: where the turn is under way.
std::optional<std::size_t> mid_turn(const ScenarioDoc& doc, FuzzRng& rng) {
  const std::size_t end = ending_index(doc);
  std::size_t first = 0;
  for (std::size_t i = 0; i < end; ++i) {
    if (verb_of(doc.steps[i]) == "expect") {
      first = i + 1;
      break;
    }
  }
  if (first >= end) return std::nullopt;
  return rng.between(first, end - 1);
}

Site exit_mid_turn(ScenarioDoc& doc, FuzzRng& rng) {
  const auto at = mid_turn(doc, rng);
  if (!at) return std::nullopt;
  static constexpr std::array<int, 4> kCodes = {0, 1, 2, 143};
  const int code = kCodes[rng.below(kCodes.size())];
  const std::string site = "process.exit_mid_turn before " + step_name(doc.steps[*at]);
  truncate_with(doc, *at, {{"exit", code}});
  return site;
}

Site crash_mid_turn(ScenarioDoc& doc, FuzzRng& rng) {
  const auto at = mid_turn(doc, rng);
  if (!at) return std::nullopt;
  static constexpr std::array<std::string_view, 3> kSignals = {"SIGSEGV", "SIGKILL", "SIGABRT"};
  const std::string site = "process.crash_mid_turn before " + step_name(doc.steps[*at]);
  truncate_with(doc, *at, {{"kill", std::string(kSignals[rng.below(kSignals.size())])}});
  return site;
}

Site stderr_flood(ScenarioDoc& doc, FuzzRng& rng) {
  static constexpr std::array<std::size_t, 3> kSizes = {
      std::size_t{4} << 10, std::size_t{256} << 10, std::size_t{2} << 20};
  const std::size_t size = kSizes[rng.below(kSizes.size())];
  std::string text;
  text.reserve(size + 80);
  while (text.size() < size) text += "[fuzz] a diagnostic line the CLI writes to stderr\n";
  insert_at(doc, insert_position(doc, rng), Json::object({{"stderr", std::move(text)}}));
  return "process.stderr_flood " + std::to_string(size);
}

Site stdout_closed_early(ScenarioDoc& doc, FuzzRng&) {
  // The CLI goes away (exit 0, so stdout closes cleanly) right after its first line.
  for (std::size_t i = 0; i < doc.steps.size(); ++i) {
    if (is_object_send(doc.steps[i]) &&
        doc.steps[i]["send"].value("type", "") != "control_response") {
      const std::string site = "process.stdout_closed_early after " + step_name(doc.steps[i]);
      truncate_with(doc, i + 1, {{"exit", 0}});
      return site;
    }
  }
  return std::nullopt;
}

Site hang(ScenarioDoc& doc, FuzzRng& rng) {
  const auto at = mid_turn(doc, rng);
  if (!at) return std::nullopt;
  truncate_with(doc, *at, {{"hang", true}});
  // One site: a hang costs a whole session bound, so it is not explored step by step.
  return "process.hang";
}

constexpr Mutator kProcess[] = {
    {"process.exit_mid_turn", "the CLI exits (0, 1, 2 or 143) in the middle of a turn",
     exit_mid_turn},
    {"process.crash_mid_turn", "the CLI dies by SIGSEGV, SIGKILL or SIGABRT mid-turn",
     crash_mid_turn},
    {"process.stderr_flood", "4 KiB, 256 KiB or 2 MiB written to stderr at once", stderr_flood},
    {"process.stdout_closed_early", "the CLI exits 0 right after its first message",
     stdout_closed_early},
    {"process.hang", "the CLI stops mid-turn and never exits (until killed)", hang, true},
};

}  // namespace

std::span<const Mutator> process_mutators() {
  return kProcess;
}

}  // namespace claude::fuzzing::kit
