// ScenarioDoc: a scenario as JSON values — its header object and one object per step — which is
// what mutators, the lenient rewrite and the minimizer edit, and what findings are written from.
//
// What it is: the editable form of any scenario or recording the emulator loads. `doc_of`
// goes through the emulator's own `to_ndjson` (recordings are generalised into steps on the way),
// `render` writes the doc back as scenario text, and `load_errors` asks the emulator's loader
// whether fake-claude would play it — every edit is checked that way, never by a second parser.
//
// How it fails: `parse_doc` returns nullopt for text that is not header + step lines of JSON
// objects; `load_errors` returns the loader's "file:line: reason" list.
//
// What it costs: one JSON value per line; `load_errors` is one in-memory load.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "claude/emulator/scenario.hpp"

namespace claude::fuzzing {

using Json = claude::emulator::Json;

struct ScenarioDoc {
  Json header = Json::object();
  std::vector<Json> steps;
};

// Header + steps of scenario text (blank and `#` lines skipped).
std::optional<ScenarioDoc> parse_doc(std::string_view text);

// The doc of a loaded scenario or recording.
ScenarioDoc doc_of(const claude::emulator::Scenario& scenario);

// Scenario text: `comments` first (each line prefixed with "# "), then the header, then the steps.
std::string render(const ScenarioDoc& doc, std::span<const std::string> comments = {});

// What the emulator's loader says about the rendered doc; empty when fake-claude would play it.
std::vector<std::string> load_errors(const ScenarioDoc& doc, const std::string& name = "fuzz");

// The verb of a step ("send", "expect", …), or "" for an object that has none.
std::string verb_of(const Json& step);

// True for the steps that end the process: exit, kill, hang.
bool is_ending(const Json& step);

}  // namespace claude::fuzzing
