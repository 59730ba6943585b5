#include "claude/fuzzing/scenario_doc.hpp"

#include <array>

#include "claude/base/json.hpp"

namespace claude::fuzzing {
namespace {

constexpr std::array<std::string_view, 16> kVerbs = {
    "send",    "raw",    "raw_b64", "stderr",        "stderr_b64", "expect",
    "request", "cancel", "respond", "respond_error", "sleep_ms",   "expect_eof",
    "exit",    "kill",   "hang",    "expect_prompt"};

}  // namespace

std::optional<ScenarioDoc> parse_doc(std::string_view text) {
  ScenarioDoc doc;
  bool have_header = false;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') continue;
    Json value = claude::base::parse_json_or_discarded(line);
    if (value.is_discarded() || !value.is_object()) return std::nullopt;
    if (!have_header) {
      doc.header = std::move(value);
      have_header = true;
    } else {
      doc.steps.push_back(std::move(value));
    }
  }
  if (!have_header) return std::nullopt;
  return doc;
}

ScenarioDoc doc_of(const claude::emulator::Scenario& scenario) {
  // to_ndjson always writes header + steps of JSON objects.
  return *parse_doc(claude::emulator::to_ndjson(scenario));
}

std::string render(const ScenarioDoc& doc, std::span<const std::string> comments) {
  std::string text;
  for (const auto& comment : comments) text += "# " + comment + "\n";
  text += claude::base::dump_json(doc.header) + "\n";
  for (const auto& step : doc.steps) text += claude::base::dump_json(step) + "\n";
  return text;
}

std::vector<std::string> load_errors(const ScenarioDoc& doc, const std::string& name) {
  const auto load = claude::emulator::load_scenario_text(render(doc), name);
  std::vector<std::string> errors;
  for (const auto& e : load.errors) errors.push_back(e.to_string());
  return errors;
}

std::string verb_of(const Json& step) {
  if (!step.is_object()) return "";
  for (const auto verb : kVerbs) {
    if (step.contains(verb)) return std::string(verb);
  }
  return "";
}

bool is_ending(const Json& step) {
  const std::string verb = verb_of(step);
  return verb == "exit" || verb == "kill" || verb == "hang";
}

}  // namespace claude::fuzzing
